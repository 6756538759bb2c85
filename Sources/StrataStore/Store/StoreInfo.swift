import Foundation
import StrataCore
import StrataSchema

/// What `strata info` reports about a store: its model and version, its
/// entities with row counts and hashes, its size and its integrity.
public struct StoreInfo: Codable, Hashable, Sendable {
    /// Where the model that describes the store came from.
    public enum ModelSource: String, Codable, Hashable, Sendable {
        /// A schema version whose hashes match the store's.
        case schema
        /// The schema Strata stored in the store's metadata
        /// (``StoredSchema``), checked against the store's hashes.
        case storedSchema
        /// The store's own `Z_MODELCACHE`.
        case modelCache
        /// Nothing but the store's metadata.
        case metadata
    }

    /// One entity of the store.
    public struct EntityInfo: Codable, Hashable, Sendable {
        /// The entity's name.
        public var name: String
        /// `Z_ENT`.
        public var number: Int
        /// The parent entity's name, if any.
        public var parent: String?
        /// Rows of exactly this entity (not its subentities).
        public var rows: Int64
        /// The version hash recorded in the store, base64.
        public var versionHash: String?
    }

    /// The store's path as given.
    public var path: String
    /// The model name: from the matching schema, or Strata's metadata key.
    public var model: String?
    /// Where the model came from.
    public var modelSource: ModelSource
    /// The entities whose hash computed from the model differs from the
    /// stored one (always empty for a matching schema version).
    public var hashMismatches: [String]
    /// The schema version, when known.
    public var version: Int?
    /// `NSStoreModelVersionIdentifiers`.
    public var versionIdentifiers: [String]
    /// `NSStoreUUID`.
    public var uuid: String
    /// `NSPersistenceFrameworkVersion`.
    public var frameworkVersion: Int?
    /// The entities, by number.
    public var entities: [EntityInfo]
    /// Bytes of the store file plus its `-wal` file.
    public var fileSize: Int64
    /// The result of `PRAGMA integrity_check`: `["ok"]` for a sound file.
    public var integrity: [String]
    /// Rows whose `Z_ENT` names no entity of their table, which ``entities``
    /// does not count (nil when there are none).
    public var unknownEntityRows: [Store.UnknownEntityRows]?
}

extension Store {
    /// Gathers ``StoreInfo``: row counts per entity, rows of no entity,
    /// hashes, size and the integrity check.
    ///
    /// - Parameters:
    ///   - model: The model that describes the store, if known.
    ///   - source: Where `model` came from; a schema version names the model
    ///     and version, otherwise Strata's own metadata keys are used when
    ///     present.
    public func info(model: Model? = nil, source: StoreInfo.ModelSource = .schema) throws
        -> StoreInfo
    {
        // Z_ENT is Z_PRIMARYKEY's key, but a damaged store may repeat it:
        // the first row wins rather than trapping.
        let byNumber = entityRecordsByNumber
        let names = byNumber.mapValues(\.name)
        var entities: [StoreInfo.EntityInfo] = []
        for record in entityRecords {
            entities.append(
                StoreInfo.EntityInfo(
                    name: record.name, number: record.number,
                    parent: record.superNumber == 0 ? nil : names[record.superNumber],
                    rows: try rowCount(of: record, in: byNumber),
                    versionHash: metadata.versionHashes[record.name]?.base64EncodedString()))
        }
        // Both name the model and version; a model cache knows neither.
        let fromSchema = model != nil && (source == .schema || source == .storedSchema)
        let computed = model?.versionHashes ?? [:]
        let mismatches =
            model == nil
            ? []
            : Set(computed.keys).union(metadata.versionHashes.keys).sorted().filter {
                computed[$0].map { Data($0) } != metadata.versionHashes[$0]
            }
        let unknownRows = try unknownEntityRows()
        return StoreInfo(
            path: path,
            model: fromSchema ? model?.name : metadata.modelName,
            modelSource: model == nil ? .metadata : source,
            hashMismatches: mismatches,
            version: fromSchema ? model?.version : metadata.modelVersion,
            versionIdentifiers: metadata.versionIdentifiers,
            uuid: metadata.uuid,
            frameworkVersion: metadata.frameworkVersion,
            entities: entities,
            fileSize: FileSystem.size(of: path) + FileSystem.size(of: path + "-wal"),
            integrity: try connection.integrityCheck(),
            unknownEntityRows: unknownRows.isEmpty ? nil : unknownRows)
    }

    /// The number of rows of each entity recorded in `Z_PRIMARYKEY` (its own
    /// rows, not its subentities'), by name: one count each, no integrity
    /// check (the web view counts once when it starts).
    package func rowCounts() throws -> [String: Int64] {
        let byNumber = entityRecordsByNumber
        var counts: [String: Int64] = [:]
        for record in entityRecords {
            counts[record.name, default: 0] += try rowCount(of: record, in: byNumber)
        }
        return counts
    }

    /// The number of rows whose `Z_ENT` is exactly `record`'s entity. The
    /// table is the root's, found by following `Z_SUPER` (§1.3).
    func rowCount(of record: EntityRecord, in byNumber: [Int: EntityRecord]) throws -> Int64 {
        let table = StoreLayout.tableName(ofRoot: Store.root(of: record, in: byNumber).name)
        guard try connection.tableExists(table) else {
            throw StoreError(
                .corruptMetadata, path: path, message: "entity \(record.name) has no table \(table)"
            )
        }
        do {
            let count = try connection.scalar(
                "SELECT COUNT(*) FROM \(SQLiteIdentifier.quoted(table)) WHERE Z_ENT = ?",
                [.integer(Int64(record.number))])
            return count?.int64Value ?? 0
        } catch let error as SQLiteError {
            throw StoreError(
                .corruptMetadata, path: path,
                message: "cannot count the rows of \(record.name) in \(table): \(error.message)")
        }
    }
}
