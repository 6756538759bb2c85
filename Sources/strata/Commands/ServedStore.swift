import Foundation
import Strata
import StrataWeb

/// The store a view reads: the file given, or a bundle restored into a
/// private temporary folder (removed when the view stops).
struct ServedStore {
    let store: URL
    private let folder: URL?

    init(_ path: String, schemas: String?) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(message: "\(path): no such file")
        }
        guard Self.isZip(path) else {
            store = URL(fileURLWithPath: path)
            folder = nil
            return
        }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-serve-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: temporary, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let restored = temporary.appendingPathComponent(
            URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".sqlite")
        do {
            var options = UnarchiveOptions()
            options.schemas = schemas.map { URL(fileURLWithPath: $0, isDirectory: true) }
            try BundleUnarchiver(bundle: URL(fileURLWithPath: path), options: options)
                .unarchive(to: restored)
        } catch {
            try? FileManager.default.removeItem(at: temporary)  // Nothing of it is kept.
            throw error
        }
        store = restored
        folder = temporary
    }

    /// Whether the file's first bytes are a zip's (the one sniffer of
    /// magic numbers, ``MediaType/sniff(_:)``).
    static func isZip(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }  // Only read.
        return MediaType.sniff((try? handle.read(upToCount: 64)) ?? Data()).fileExtension == "zip"
    }

    /// Removes the restored copy of a bundle.
    func remove() {
        // Best effort: a folder in the temporary directory.
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

extension StoreSite.Options {
    /// The options of the commands that show a store (`serve`, `export
    /// --format html`, `archive --with-html`): the model folder given with
    /// `--schemas`, loaded as every command loads one, and the name of
    /// what was given, for the pages' header.
    static func command(schemas: String?, showing path: String) throws -> Self {
        var options = Self()
        options.schemas = schemas.map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.chain = try schemas.map(SchemaSource.loadChain)
        options.title = URL(fileURLWithPath: path).lastPathComponent
        return options
    }
}
