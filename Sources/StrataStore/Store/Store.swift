import Foundation
import StrataCore

/// A Core Data SQLite store file, open for reading or writing.
///
/// A store is created for a schema version with ``create(at:model:)`` or
/// opened with ``open(at:mode:)``. Opening reads Core Data's bookkeeping
/// (`Z_METADATA`, `Z_PRIMARYKEY`); which schema version the store holds is
/// told by its hashes, see ``matchingVersion(in:)``.
///
/// ```swift
/// let store = try Store.open(at: url)
/// let model = try store.matchingVersion(in: SchemaChain.load(directory: schemas))
/// ```
public final class Store {
    /// How a store is opened.
    public enum Mode: Sendable {
        /// Reading only; none of the store's files is changed or created.
        ///
        /// SQLite would write to a WAL store's `-shm` file even when reading,
        /// so a store with a non-empty `-wal` file (where Core Data keeps
        /// recently committed data) is read from a private snapshot of the
        /// store and its WAL; any other store is opened immutable.
        case readOnly
        /// Reading and writing.
        case readWrite
    }

    /// One row of `Z_PRIMARYKEY`: an entity as the store numbers it.
    public struct EntityRecord: Hashable, Sendable {
        /// `Z_ENT`.
        public var number: Int
        /// `Z_NAME`.
        public var name: String
        /// `Z_SUPER`: the parent's number, 0 for a root.
        public var superNumber: Int
        /// `Z_MAX`: the highest primary key handed out (kept on root rows).
        public var maxPrimaryKey: Int64
    }

    /// The store file's location.
    public let url: URL
    /// The connection to the file, for the layers above (the row layer,
    /// the migrator): writes that skip Core Data's bookkeeping would break
    /// the store, so it is not public.
    package let connection: Connection
    /// The store's metadata, as read when it was opened.
    public internal(set) var metadata: StoreMetadata
    /// The entities recorded in `Z_PRIMARYKEY`, by number.
    public internal(set) var entityRecords: [EntityRecord]

    /// The private folder of a read-only snapshot, removed on close.
    private let snapshot: URL?

    /// Whether the store is read from a private snapshot of the file and
    /// its WAL (a read-only store with a non-empty `-wal`), taken on open.
    package var readsSnapshot: Bool { snapshot != nil }

    private init(
        url: URL, connection: Connection, metadata: StoreMetadata, entities: [EntityRecord],
        snapshot: URL?
    ) {
        self.url = url
        self.connection = connection
        self.metadata = metadata
        self.entityRecords = entities
        self.snapshot = snapshot
    }

    deinit {
        // The store owns its connection: closing it here is the normal end of
        // a store nobody closed explicitly. If statements still use it, the
        // close fails and the connection's own deinit reports it.
        try? connection.close()
        Store.removeSnapshot(snapshot)
    }

    /// Opens the store at `url`.
    ///
    /// - Throws: ``StoreError`` when there is no file or a directory, when
    ///   it is not an SQLite database or not a Core Data store, when its
    ///   metadata is unreadable, or (`readOnly`) when the file or, for
    ///   writing, its folder does not allow what `mode` asks; the file is not
    ///   changed.
    public static func open(at url: URL, mode: Mode = .readWrite) throws -> Store {
        try open(at: url, mode: mode, vfs: nil)
    }

    /// Opens the store at `url` through the SQLite VFS named `vfs` (read-write
    /// only; ``CoalescingWrites/vfsName`` for a store being built).
    package static func open(at given: URL, mode: Mode, vfs: String?) throws -> Store {
        // The real file: a copy of a link (a backup, a snapshot) would be
        // a second link to the live store.
        let url = try StorePath.resolve(given)
        let path = url.relativePath
        try checkAccess(path: path, mode: mode)
        try StorePath.refuseLinkedCompanions(
            of: path, activity: mode == .readOnly ? "read the store" : "open the store for writing")
        var snapshot: URL?
        let connection: Connection
        do {
            switch mode {
            case .readWrite:
                connection = try Connection(path: path, mode: .readWrite, vfs: vfs)
                do {
                    try refuseReadOnlyConnection(connection, path: path)
                } catch {
                    try? connection.close()  // Refused before any read; nothing to report.
                    throw error
                }
            case .readOnly where FileSystem.size(of: path + "-wal") > 0:
                let folder = try makeSnapshot(of: url)
                snapshot = folder
                connection = try Connection(
                    path: folder.appendingPathComponent(url.lastPathComponent).path,
                    mode: .readWrite)
                try connection.setPragma("query_only", "1")
            case .readOnly:
                connection = try Connection(path: path, mode: .immutable)
            }
        } catch let error as SQLiteError {
            removeSnapshot(snapshot)
            throw StoreError(
                .notADatabase, path: path, message: "cannot open the store file: \(error.message)")
        }
        do {
            let (metadata, entities) = try readBookkeeping(connection, path: path)
            if mode == .readWrite { try refuseUnwritableFeatures(connection, path: path) }
            return Store(
                url: url, connection: connection, metadata: metadata, entities: entities,
                snapshot: snapshot)
        } catch {
            try? connection.close()  // The open failed; the close error adds nothing.
            removeSnapshot(snapshot)
            throw error
        }
    }

    /// Closes the store's connection (and drops a read-only snapshot).
    public func close() throws {
        try connection.close()
        Store.removeSnapshot(snapshot)
    }

    /// Copies the store and its WAL into a private work folder beside it
    /// (``WorkFiles``), so that reading (which replays the WAL and rebuilds
    /// `-shm`) touches only the copies.
    private static func makeSnapshot(of url: URL) throws -> URL {
        var made: URL?
        do {
            let folder = try WorkFiles.makeFolderBesideOrPrivate(
                for: url, activity: "reading" + SnapshotCounter.next())
            made = folder
            let target = folder.appendingPathComponent(url.lastPathComponent)
            try FileManager.default.copyItem(at: url, to: target)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: url.path + "-wal"),
                to: URL(fileURLWithPath: target.path + "-wal"))
            return folder
        } catch {
            removeSnapshot(made)
            throw StoreError(
                .notFound, path: url.path,
                message: "cannot take a snapshot to read: \(error.localizedDescription)")
        }
    }

    /// Letters telling this process's snapshots apart (a work folder's
    /// activity is letters only): two reads of one store at once get two.
    private enum SnapshotCounter {
        private static let lock = NSLock()
        nonisolated(unsafe) private static var count = 0

        package static func next() -> String {
            var number = lock.withLock {
                count += 1
                return count
            }
            var letters = ""
            while number > 0 {
                letters.append(Character(UnicodeScalar(UInt8(97 + number % 26))))
                number /= 26
            }
            return letters
        }
    }

    private static func removeSnapshot(_ folder: URL?) {
        guard let folder else { return }
        WorkFiles.remove(folder)
    }

    /// The path used in messages.
    package var path: String { url.relativePath }

    /// Refuses stores whose Core Data clients expect bookkeeping Strata does
    /// not keep: persistent history (`ATRANSACTION`, `ACHANGE`) and CloudKit
    /// mirroring (`ANSCK…` tables). Reading them is fine.
    private static func refuseUnwritableFeatures(_ connection: Connection, path: String) throws {
        let feature = try connection.scalar(
            """
            SELECT name FROM sqlite_master WHERE type = 'table'
              AND (name IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING') OR name LIKE 'ANSCK%')
            ORDER BY name LIMIT 1
            """)
        if let table = feature?.stringValue {
            let what =
                table.hasPrefix("ANSCK") ? "CloudKit mirroring" : "persistent history tracking"
            throw StoreError(
                .unsupportedFeature, path: path,
                message:
                    "uses \(what) (table \(table)); Strata reads such stores but does not write "
                    + "them, since Core Data expects its own bookkeeping for every change")
        }
    }

    /// Reads `Z_METADATA` and `Z_PRIMARYKEY`, translating SQLite's complaints
    /// about a file that is not a database into a ``StoreError``.
    static func readBookkeeping(
        _ connection: Connection, path: String
    ) throws -> (StoreMetadata, [EntityRecord]) {
        do {
            guard try connection.tableExists("Z_METADATA") else {
                if FileSystem.size(of: path) == 0 {
                    throw StoreError(
                        .notCoreDataStore, path: path,
                        message: "an empty file, not a Core Data store")
                }
                throw StoreError(
                    .notCoreDataStore, path: path,
                    message: "not a Core Data store (no Z_METADATA table)")
            }
            guard try connection.tableExists("Z_PRIMARYKEY") else {
                throw StoreError(
                    .notCoreDataStore, path: path,
                    message: "not a Core Data store (no Z_PRIMARYKEY table)")
            }
            let statement = try connection.prepare(
                "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            guard try statement.step() else {
                throw StoreError(
                    .corruptMetadata, path: path, message: "Z_METADATA has no row with Z_VERSION 1")
            }
            guard let uuid = statement.text(at: 0), let plist = statement.blob(at: 1) else {
                throw StoreError(
                    .corruptMetadata, path: path, message: "Z_METADATA: Z_UUID or Z_PLIST is NULL")
            }
            let metadata = try StoreMetadata(uuid: uuid, plist: plist, path: path)

            let entities = try KeyAllocator.entityRecords(on: connection, path: path)
            return (metadata, entities)
        } catch let error as SQLiteError {
            let kind: StoreError.Code =
                error.code.primaryResultCode == .notADatabase ? .notADatabase : .corruptMetadata
            let message =
                kind == .notADatabase
                ? "not an SQLite database"
                : "cannot read Core Data's bookkeeping (Z_METADATA, Z_PRIMARYKEY): "
                    + error.message
            throw StoreError(kind, path: path, message: message)
        }
    }
}
