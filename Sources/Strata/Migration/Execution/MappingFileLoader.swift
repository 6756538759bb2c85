import Foundation

/// Finds the mapping files of a schema folder
/// (`<from>-<to>.mapping.json`) and loads them for the executor.
enum MappingFileLoader {
    /// The mappings of `directory` by the version they start from.
    ///
    /// - Throws: ``MigrationError`` (`invalidMapping`) for a file that is not
    ///   between two adjacent versions of `chain`; ``MappingError`` with every
    ///   located problem of a file that does not load.
    static func load(
        directory: URL, chain: SchemaChain
    ) throws -> [Int: any MigrationMappingApplying] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var mappings: [Int: any MigrationMappingApplying] = [:]
        for name in names.sorted() where name.hasSuffix(".mapping.json") {
            let file = directory.appendingPathComponent(name)
            let versions = name.dropLast(".mapping.json".count).split(separator: "-")
            guard versions.count == 2, let from = Int(versions[0]), let to = Int(versions[1]),
                let source = chain.model(version: from),
                let destination = chain.model(version: to),
                chain.versions.first(where: { $0.version > from })?.version == to
            else {
                throw MigrationError(
                    .invalidMapping,
                    message: "\(file.relativePath): a mapping file is named <from>-<to>"
                        + ".mapping.json for two adjacent versions of \(chain.name)")
            }
            mappings[from] = try MigrationMapping.load(
                file: file, source: source, destination: destination)
        }
        return mappings
    }
}
