import Foundation

/// The schema chains of the migrate benchmarks, written (untimed) into a
/// folder of the benchmark's workspace: version 1 is `Schemas/Notes/1.json`
/// as it is (so the cached notes store is at version 1 of every chain), and
/// version 2 is one of ``Variant``.
enum MigrationChain {
    /// What version 2 changes.
    enum Variant: String, Sendable {
        /// `Note.pinned` added (boolean, default false), `body` renamed
        /// `text` (renamedFrom), `keywords` removed (lossy): one fused
        /// rebuild of `ZNOTE`.
        case rebuild
        /// Only `Note.summary` added, an optional string: `ALTER TABLE ADD
        /// COLUMN`, no rebuild.
        case addOptional = "add-optional"
        /// `Note.summary` added, a required string without a default: only
        /// a custom step can fill it.
        case required
    }

    /// Writes the chain of `variant` into `directory` (`1.json`, `2.json`)
    /// and returns the folder.
    ///
    /// - Throws: File errors, or ``BenchError`` (`setup`) when
    ///   `Schemas/Notes/1.json` is missing.
    static func write(_ variant: Variant, packageRoot: URL, into directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("schemas-\(variant.rawValue)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = packageRoot.appendingPathComponent("Schemas/Notes/1.json")
        guard let version1 = FileManager.default.contents(atPath: first.path) else {
            throw BenchError(.setup, "Schemas/Notes/1.json is missing")
        }
        try version1.write(to: folder.appendingPathComponent("1.json"))
        try Data(version2(variant).utf8).write(to: folder.appendingPathComponent("2.json"))
        return folder
    }

    /// Version 2's JSON.
    static func version2(_ variant: Variant) -> String {
        let attributes =
            switch variant {
            case .rebuild:
                """
                "text":     { "type": "string", "optional": true, "renamedFrom": "body" },
                "pinned":   { "type": "boolean", "default": false }
                """
            case .addOptional:
                """
                "body":     { "type": "string", "optional": true },
                "keywords": { "type": "string", "optional": true },
                "summary":  { "type": "string", "optional": true }
                """
            case .required:
                """
                "body":     { "type": "string", "optional": true },
                "keywords": { "type": "string", "optional": true },
                "summary":  { "type": "string" }
                """
            }
        return """
            {
              "format": "strata-schema/1",
              "model": "Notes",
              "version": 2,
              "versionIdentifier": "2.0",
              "entities": {
                "Note": {
                  "attributes": {
                    "date":     { "type": "date", "default": "now", "indexed": true },
                    "title":    { "type": "string", "maxLength": 200 },
            \(attributes)
                  }
                }
              }
            }

            """
    }
}
