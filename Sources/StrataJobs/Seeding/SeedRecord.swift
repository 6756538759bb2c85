import Foundation
import StrataCore
import StrataStore

/// What a store was seeded with, as recorded in its metadata: the seed's
/// file name, the SHA-256 of its bytes, the model version it held and its
/// kind. Kept in `Z_METADATA` under Strata's keys (`StrataSeedName`,
/// `StrataSeedSHA256`, `StrataSeedVersion`, `StrataSeedKind`), which later
/// migrations carry along.
///
/// ```swift
/// if let seed = SeedRecord(metadata: store.metadata) {
///     print("seeded from \(seed.name), version \(seed.version)")
/// }
/// ```
public struct SeedRecord: Hashable, Sendable, Codable {
    /// The seed's file name.
    public var name: String
    /// The SHA-256 of the seed file's bytes, lower-case hex.
    public var sha256: String
    /// The model version the seed's data was at (a store's or bundle's own
    /// version; for records, the version they were imported into).
    public var version: Int
    /// `store`, `bundle`, or the records' format (`plist`, `csv`, …).
    public var kind: String

    /// A record with the given fields.
    public init(name: String, sha256: String, version: Int, kind: String) {
        self.name = name
        self.sha256 = sha256
        self.version = version
        self.kind = kind
    }

    enum Key {
        static let name = "StrataSeedName"
        static let sha256 = "StrataSeedSHA256"
        static let version = "StrataSeedVersion"
        static let kind = "StrataSeedKind"
    }

    /// The record in `metadata`, or nil for a store that was not seeded.
    public init?(metadata: StoreMetadata) {
        guard case .text(let name)? = metadata.otherKeys[Key.name],
            case .text(let sha256)? = metadata.otherKeys[Key.sha256],
            case .integer(let version)? = metadata.otherKeys[Key.version],
            let version = Int(exactly: version)
        else { return nil }
        var kind = ""
        if case .text(let text)? = metadata.otherKeys[Key.kind] { kind = text }
        self.init(name: name, sha256: sha256, version: version, kind: kind)
    }

    /// `metadata` with this record's keys set.
    public func recorded(in metadata: StoreMetadata) -> StoreMetadata {
        var copy = metadata
        copy.otherKeys[Key.name] = .text(name)
        copy.otherKeys[Key.sha256] = .text(sha256)
        copy.otherKeys[Key.version] = .integer(Int64(version))
        copy.otherKeys[Key.kind] = .text(kind)
        return copy
    }

    /// The SHA-256 of the file at `url`, read in blocks.
    ///
    /// - Throws: ``SeedingError`` (`badSeed`) when it cannot be read.
    static func digest(of url: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw SeedingError(.badSeed, path: url.relativePath, "cannot read the seed file")
        }
        defer { try? handle.close() }  // Read only.
        var hasher = SHA256()
        do {
            while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
                hasher.update(block)
            }
        } catch {
            throw SeedingError(
                .badSeed, path: url.relativePath, "cannot read the seed file: \(error)")
        }
        return SHA256.hex(hasher.finalize())
    }
}
