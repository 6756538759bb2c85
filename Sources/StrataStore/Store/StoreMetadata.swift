import Foundation
import StrataCore
import StrataSchema

/// The contents of a store's `Z_METADATA` row: the store UUID and the keys of
/// its binary property list (coredata-format.md §1.8), including Strata's own
/// keys, which carry the `Strata` prefix.
public struct StoreMetadata: Hashable, Sendable {
    /// The framework version Strata claims: the newest one seen writing both
    /// the digest and the checksum keys (1338).
    public static let frameworkVersion = 1338

    /// `Z_UUID`: the store's UUID, upper-case with dashes (`NSStoreUUID`).
    public var uuid: String
    /// `NSStoreModelVersionHashes`: entity name → 32-byte version hash.
    public var versionHashes: [String: Data]
    /// `NSStoreModelVersionIdentifiers`.
    public var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`, when present.
    public var frameworkVersion: Int?
    /// `NSStoreModelVersionHashesDigest`, when present (framework ≥ 977).
    public var hashesDigest: String?
    /// `NSStoreModelVersionChecksumKey`, when present (framework ≥ 1333).
    public var checksum: String?
    /// `StrataModelName`: the schema model that wrote the store, if Strata did.
    public var modelName: String?
    /// `StrataModelVersion`: the schema version that wrote the store, if Strata did.
    public var modelVersion: Int?
    /// `StrataModelSchema`: that schema version's canonical text, compressed
    /// (``StoredSchema``), if Strata wrote it. Read it with
    /// ``Store/storedModel()``, which checks it; a value of another type
    /// stays in ``otherKeys``.
    public var modelSchema: Data?
    /// Every other key of the plist, kept so that a rewrite does not lose an
    /// app's own metadata (Wire's `LastUpdateEventID`, …).
    public var otherKeys: [String: RecordValue] = [:]

    /// Metadata for a new store of `model` with a fresh UUID.
    public init(model: Model, uuid: UUID = UUID()) {
        self.uuid = uuid.uuidString.uppercased()
        let hashes = model.versionHashes  // Computed once for all three keys.
        self.versionHashes = hashes.mapValues { Data($0) }
        self.versionIdentifiers = [model.versionIdentifier]
        self.frameworkVersion = StoreMetadata.frameworkVersion
        self.hashesDigest = Model.versionHashesDigest(of: hashes)
        self.checksum = Model.versionChecksum(of: hashes)
        self.modelName = model.name
        self.modelVersion = model.version
        self.modelSchema = StoredSchema.pack(model)
    }

    /// The store's object-id prefix, `x-coredata://<UUID>/`.
    public var objectIDPrefix: String { "x-coredata://\(uuid)/" }
}

// MARK: - Property list

extension StoreMetadata {
    private enum Key {
        static let hashes = "NSStoreModelVersionHashes"
        static let hashesVersion = "NSStoreModelVersionHashesVersion"
        static let identifiers = "NSStoreModelVersionIdentifiers"
        static let storeType = "NSStoreType"
        static let frameworkVersion = "NSPersistenceFrameworkVersion"
        static let autoVacuum = "_NSAutoVacuumLevel"
        static let digest = "NSStoreModelVersionHashesDigest"
        static let checksum = "NSStoreModelVersionChecksumKey"
        static let modelName = "StrataModelName"
        static let modelVersion = "StrataModelVersion"
        static let modelSchema = StoredSchema.key
        static let known: Set<String> = [
            hashes, hashesVersion, identifiers, storeType, frameworkVersion, autoVacuum, digest,
            checksum, modelName, modelVersion,
        ]
    }

    /// Reads metadata from a `Z_METADATA` row.
    ///
    /// A binary plist (what Core Data and Strata write) is read by
    /// ``BinaryPropertyList``, without Foundation's property list reader and
    /// its bridging, when it holds only what that reader's results are known
    /// to match; any other plist, or one that fails, goes through
    /// `PropertyListSerialization` as before, so results and errors are the
    /// same either way.
    ///
    /// - Throws: ``StoreError`` (`corruptMetadata`) naming the key that is
    ///   missing or of the wrong type.
    public init(uuid: String, plist: Data, path: String) throws {
        if let metadata = StoreMetadata(uuid: uuid, binaryPlist: plist) {
            self = metadata
        } else {
            try self.init(uuid: uuid, foundationPlist: plist, path: path)
        }
    }

    /// Reads metadata with `PropertyListSerialization` (any plist format).
    ///
    /// - Throws: as ``init(uuid:plist:path:)``.
    init(uuid: String, foundationPlist plist: Data, path: String) throws {
        func corrupt(_ message: String) -> StoreError {
            StoreError(.corruptMetadata, path: path, message: "Z_METADATA.Z_PLIST: \(message)")
        }
        if let hazard = BinaryPropertyList.foundationHazard(in: plist) {
            // Foundation would crash on it (BinaryPropertyList.foundationHazard).
            throw corrupt(hazard)
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(
                from: plist, options: [], format: nil)
        } catch {
            throw corrupt("not a property list")
        }
        guard let dictionary = object as? [String: Any] else {
            throw corrupt("expected a dictionary at the top level")
        }
        guard let hashObject = dictionary[Key.hashes] else {
            throw corrupt("missing key \(Key.hashes)")
        }
        guard let hashes = hashObject as? [String: Any] else {
            throw corrupt("\(Key.hashes): expected a dictionary of data")
        }
        var versionHashes: [String: Data] = [:]
        for (entity, value) in hashes {
            guard let data = value as? Data else {
                throw corrupt("\(Key.hashes).\(entity): expected data")
            }
            versionHashes[entity] = data
        }
        self.uuid = uuid
        self.versionHashes = versionHashes
        self.versionIdentifiers =
            (dictionary[Key.identifiers] as? [Any])?.compactMap { $0 as? String } ?? []
        self.frameworkVersion = (dictionary[Key.frameworkVersion] as? NSNumber)?.intValue
        self.hashesDigest = dictionary[Key.digest] as? String
        self.checksum = dictionary[Key.checksum] as? String
        self.modelName = dictionary[Key.modelName] as? String
        self.modelVersion = (dictionary[Key.modelVersion] as? NSNumber)?.intValue
        self.modelSchema = dictionary[Key.modelSchema] as? Data
        for (key, value) in dictionary where !Key.known.contains(key) {
            // A schema key that is not data stays, for storedModel() to report.
            if key == Key.modelSchema, modelSchema != nil { continue }
            if let plistValue = RecordValue(foundation: value) { otherKeys[key] = plistValue }
        }
    }

    /// Reads metadata from a binary plist with ``BinaryPropertyList``; nil
    /// when the plist does not decode, is not as expected, or holds a value
    /// whose reading through `PropertyListSerialization` (and `NSNumber`)
    /// is not reproduced here: nulls, UIDs, sets, and booleans or reals where
    /// an integer is read. The caller then reads it with Foundation, which
    /// gives the same result or the same error.
    init?(uuid: String, binaryPlist plist: Data) {
        guard let objects = (try? BinaryPropertyList.decode(plist))?.entries,
            let hashObjects = objects[Key.hashes]?.entries
        else { return nil }
        var versionHashes: [String: Data] = [:]
        for (entity, object) in hashObjects {
            guard case .data(let data) = object else { return nil }
            versionHashes[entity] = data
        }
        var dictionary: [String: RecordValue] = [:]
        for (key, value) in objects where key != Key.hashes {
            guard value.isReadAlikeByFoundation else { return nil }
            dictionary[key] = value
        }
        /// `(value as? NSNumber)?.intValue` for the values read the same here.
        func integer(_ key: String) -> Int?? {
            switch dictionary[key] {
            case .integer(let number)?: Int(exactly: number)
            case .boolean?, .real?: nil
            default: .some(nil)
            }
        }
        /// `value as? String`.
        func string(_ key: String) -> String? {
            if case .text(let text)? = dictionary[key] { return text }
            return nil
        }
        guard let frameworkVersion = integer(Key.frameworkVersion),
            let modelVersion = integer(Key.modelVersion)
        else { return nil }
        self.uuid = uuid
        self.versionHashes = versionHashes
        if case .array(let items)? = dictionary[Key.identifiers] {
            self.versionIdentifiers = items.compactMap(\.value.textValue)
        } else {
            self.versionIdentifiers = []
        }
        self.frameworkVersion = frameworkVersion
        self.hashesDigest = string(Key.digest)
        self.checksum = string(Key.checksum)
        self.modelName = string(Key.modelName)
        self.modelVersion = modelVersion
        if case .data(let schema)? = dictionary[Key.modelSchema] { self.modelSchema = schema }
        for (key, value) in dictionary where !Key.known.contains(key) {
            // A schema key that is not data stays, for storedModel() to report.
            if key == Key.modelSchema, modelSchema != nil { continue }
            otherKeys[key] = value
        }
    }

    /// The binary property list for `Z_METADATA.Z_PLIST`, written by
    /// ``BinaryPropertyList/encode(_:)`` (Foundation's writer bridges every
    /// value to an `NSObject` first: a few milliseconds of each migration
    /// and create).
    public func plistData() throws -> Data {
        var dictionary: [String: RecordValue] = [
            Key.hashes: .dictionary(entries: versionHashes.mapValues { .data($0) }),
            Key.hashesVersion: .integer(3),
            Key.identifiers: .array(values: versionIdentifiers.map { .text($0) }),
            Key.storeType: "SQLite",
            Key.autoVacuum: "2",
        ]
        if let frameworkVersion {
            dictionary[Key.frameworkVersion] = .integer(Int64(frameworkVersion))
        }
        if let hashesDigest { dictionary[Key.digest] = .text(hashesDigest) }
        if let checksum { dictionary[Key.checksum] = .text(checksum) }
        if let modelName { dictionary[Key.modelName] = .text(modelName) }
        if let modelVersion { dictionary[Key.modelVersion] = .integer(Int64(modelVersion)) }
        for (key, value) in otherKeys { dictionary[key] = value }
        // After the other keys, so the typed value wins over a stray one.
        if let modelSchema { dictionary[Key.modelSchema] = .data(modelSchema) }
        return BinaryPropertyList.encode(.dictionary(entries: dictionary))
    }
}
