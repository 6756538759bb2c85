import Foundation

/// `manifest.json` of a `strata-bundle/1` zip: what the bundle holds and
/// a SHA-256 per file, checked before anything is written on unarchiving.
///
/// ```json
/// {"format":"strata-bundle/1","createdBy":"Strata",
///  "model":{"name":"Diary","version":3,"versionIdentifier":"3.0","hashes":{"DiaryEntry":"…"}},
///  "counts":{"DiaryEntry":3,"Medium":3,"Tag":4},
///  "files":[{"path":"README.txt","bytes":1234,"sha256":"…"}, …]}
/// ```
public struct BundleManifest: Codable, Hashable, Sendable {
    /// The model the data was written with.
    public struct ModelVersion: Codable, Hashable, Sendable {
        /// The model's name (`Diary`).
        public var name: String
        /// The schema version number.
        public var version: Int
        /// The version identifier of the schema.
        public var versionIdentifier: String
        /// Core Data's version hash of each entity, base64.
        public var hashes: [String: String]
    }

    /// One file of the bundle.
    public struct File: Codable, Hashable, Sendable {
        /// The entry's name in the zip.
        public var path: String
        /// Its size in bytes.
        public var bytes: Int64
        /// Its SHA-256, 64 lower-case hexadecimal digits.
        public var sha256: String
    }

    /// The folder of a static web site the bundle may carry
    /// (`strata archive --with-html`): any names under it, listed in the
    /// manifest and checked like every file; `unarchive` reads nothing else
    /// of them.
    public static let siteFolder = "html/"

    /// The format this type reads and writes.
    public static let format = "strata-bundle/1"

    /// ``format``.
    public var format: String
    /// What wrote the bundle.
    public var createdBy: String
    /// The model and version of the data.
    public var model: ModelVersion
    /// Objects per entity (each object counted under its own entity).
    public var counts: [String: Int]
    /// Every file of the zip but the manifest itself, sorted by path.
    public var files: [File]

    /// The data file of `entity`'s objects: `data/<Entity>.jsonl`.
    public static func dataFile(of entity: String) -> String {
        "data/\(entity).jsonl"
    }

    /// The entity whose data file `path` is, when it is named like one.
    package static func entity(ofDataFile path: String) -> String? {
        guard path.hasPrefix("data/"), path.hasSuffix(".jsonl"), path.utf8.count > 11 else {
            return nil
        }
        return String(path.dropFirst(5).dropLast(6))
    }
}
