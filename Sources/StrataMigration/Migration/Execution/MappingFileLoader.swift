import Foundation
import StrataSchema

/// Finds the mapping files of a schema folder
/// (`<from>-<to>.mapping.json`) and loads them for the executor.
package enum MappingFileLoader {
    /// The mappings of `directory` by the version they start from.
    ///
    /// A file usually joins two adjacent versions; one may span several
    /// (`3-7.mapping.json`), so that it reads the store at the older version
    /// while writing the newer: an attribute a version between lacks and a
    /// later one brings back keeps its values. Spans may not overlap.
    ///
    /// - Throws: ``MigrationError`` (`invalidMapping`) for a file that is not
    ///   between two versions of `chain` (older first) or overlaps another;
    ///   ``MappingError`` with every located problem of a file that does not
    ///   load.
    package static func load(
        directory: URL, chain: SchemaChain
    ) throws -> [Int: any MigrationMappingApplying] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var mappings: [Int: any MigrationMappingApplying] = [:]
        var spans: [(from: Int, to: Int)] = []
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
            if let other = spans.first(where: { $0.from < to && from < $0.to }) {
                throw MigrationError(
                    .invalidMapping,
                    message: "\(file.relativePath): it overlaps "
                        + "\(MigrationMapping.fileName(from: other.from, to: other.to)); a version "
                        + "pair belongs to one mapping file at most")
            }
            spans.append((from, to))
            mappings[from] = try MigrationMapping.load(
                file: file, source: source, destination: destination)
        }
        return mappings
    }
}
