import Foundation
import StrataSchema

/// Finds the mapping files of a schema folder
/// (`<from>-<to>.mapping.json`) and loads them for the executor.
package enum MappingFileLoader {
    /// The mappings of `directory` by the version they start from, the
    /// longest span first.
    ///
    /// A file usually joins two adjacent versions; one may span several
    /// (`3-7.mapping.json`), so that it reads the store at the older version
    /// while writing the newer: an attribute a version between lacks and a
    /// later one brings back keeps its values. Spans may overlap, as Core
    /// Data's mapping models do (1.0→2.0 beside 1.0→1.1): the route takes
    /// the file from the store's version straight to the target when there
    /// is one, else the fewest stages (``MigrationRoute``).
    ///
    /// - Throws: ``MigrationError`` (`invalidMapping`) for a file that is not
    ///   between two versions of `chain` (older first);
    ///   ``MappingError`` with every located problem of a file that does not
    ///   load.
    package static func load(
        directory: URL, chain: SchemaChain
    ) throws -> [Int: [any MigrationMappingApplying]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var mappings: [Int: [any MigrationMappingApplying]] = [:]
        for name in names.sorted() where name.hasSuffix(".mapping.json") {
            let file = directory.appendingPathComponent(name)
            let versions = name.dropLast(".mapping.json".count).split(separator: "-")
            guard versions.count == 2, let from = Int(versions[0]), let to = Int(versions[1]),
                let source = chain.model(version: from),
                let destination = chain.model(version: to), from < to
            else {
                throw MigrationError(
                    .invalidMapping,
                    message: "\(file.relativePath): a mapping file is named <from>-<to>"
                        + ".mapping.json for two versions of \(chain.name), the older first")
            }
            mappings[from, default: []].append(
                try MigrationMapping.load(file: file, source: source, destination: destination))
        }
        return mappings.mapValues { $0.sorted { ($0.endVersion ?? 0) > ($1.endVersion ?? 0) } }
    }
}
