import Foundation
import StrataFormats

/// Where the data of a store made on first run comes from: a store file of
/// any version of the model (Strata's or Core Data's), a `strata-bundle/1`
/// zip, or records (a plist, CSV or JSON file) with an import mapping.
///
/// ```swift
/// let fromStore = Seed.store(seedURL)
/// let fromRecords = Seed.records(plistURL, format: .plist, entity: "Recipe")
/// ```
public struct Seed: Hashable, Sendable {
    /// The kinds of seed.
    public enum Kind: Hashable, Sendable {
        /// A Core Data SQLite store: copied, then migrated to the newest version.
        case store
        /// A `strata-bundle/1` zip: unarchived, then migrated.
        case bundle
        /// Records in a format the importer reads, imported into a new store
        /// at the newest version.
        case records(ImportFormat)
    }

    /// The seed file.
    public var url: URL
    /// What the file holds.
    public var kind: Kind
    /// A `strata-import/1` mapping file for records (``ImportMappingFile``).
    public var mapping: URL?
    /// The entity records become, when the mapping does not name it.
    public var entity: String?

    /// A seed of the given kind.
    public init(url: URL, kind: Kind, mapping: URL? = nil, entity: String? = nil) {
        self.url = url
        self.kind = kind
        self.mapping = mapping
        self.entity = entity
    }

    /// A seed store file (with its `-wal` beside it, if it has one).
    public static func store(_ url: URL) -> Seed { Seed(url: url, kind: .store) }

    /// A `strata-bundle/1` zip.
    public static func bundle(_ url: URL) -> Seed { Seed(url: url, kind: .bundle) }

    /// Records in `format`, mapped by `mapping` and/or imported as `entity`.
    public static func records(
        _ url: URL, format: ImportFormat, mapping: URL? = nil, entity: String? = nil
    ) -> Seed {
        Seed(url: url, kind: .records(format), mapping: mapping, entity: entity)
    }

    /// The seed in the file at `url`, its kind told by its first bytes (an
    /// SQLite header, a zip's) or else by its name, as the importer guesses
    /// formats.
    ///
    /// - Throws: ``SeedingError`` (`badSeed`) when the file is missing or
    ///   nothing tells what it holds.
    public static func detecting(_ url: URL, mapping: URL? = nil, entity: String? = nil) throws
        -> Seed
    {
        let path = url.relativePath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SeedingError(.badSeed, path: path, "no such seed file")
        }
        if !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) {
            let head = (try? handle.read(upToCount: 16)) ?? Data()
            try? handle.close()  // Read only.
            if head.starts(with: Data("SQLite format 3\0".utf8)) {
                return Seed(url: url, kind: .store, mapping: mapping, entity: entity)
            }
            if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                return Seed(url: url, kind: .bundle, mapping: mapping, entity: entity)
            }
        }
        let recordFormats: [ImportFormat] = [.plist, .csv, .tsv, .json, .ndjson]
        guard let format = ImportFormat.guess(path: path), recordFormats.contains(format) else {
            throw SeedingError(
                .badSeed, path: path,
                "not a store, a bundle or a file of records the importer reads "
                    + "(expected an SQLite store, a zip, or a .plist, .csv or .json file)")
        }
        return Seed(url: url, kind: .records(format), mapping: mapping, entity: entity)
    }

    /// The seed's name as recorded in the store: its file name.
    public var name: String { url.lastPathComponent }

    /// The kind as recorded in the store: `store`, `bundle` or the format's name.
    public var kindName: String {
        switch kind {
        case .store: "store"
        case .bundle: "bundle"
        case .records(let format): format.rawValue
        }
    }
}
