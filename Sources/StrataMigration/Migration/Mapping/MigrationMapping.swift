import Foundation
import StrataSchema

/// The custom steps between two versions of a model, read from a mapping
/// file `Schemas/<Model>/<from>-<to>.mapping.json` (format
/// `strata-mapping/1`, described in the MigrationMappings article): value
/// expressions for attributes, entity rules with a source entity and a
/// `where` predicate, find-or-create links, relationship remapping, and the
/// losses the file accepts (`discard`).
///
/// A mapping is checked against both versions when it loads, so every
/// problem in it is reported, located, before anything is written:
///
/// ```swift
/// if let mapping = try MigrationMapping.load(
///     directory: schemas, from: v1, to: v2)
/// {
///     let plan = MigrationPlan(from: v1, to: v2)
///     let unresolved = plan.steps.filter { $0.label != .inferred && !mapping.covers($0) }
///     for step in unresolved { print("neither inferred nor mapped:", step.label, step.names) }
///     // … run plan.statements on a copy, then:
///     try mapping.apply(source: original, destination: copy)
/// }
/// ```
public struct MigrationMapping: Hashable, Sendable {
    /// The format name files declare in `"format"`.
    public static let format = "strata-mapping/1"

    /// The file, as the caller named it.
    public let file: String
    /// The version the mapping reads from.
    public let source: Model
    /// The version the mapping writes.
    public let destination: Model
    /// The entity rules, in the destination's entity numbering order.
    public let entities: [MappedEntity]
    /// What the file accepts to lose: `"Entity"` (a source entity) or
    /// `"Entity.property"` (a property of a source entity).
    public let discarded: [String]
    /// Every (source entity, property) that an expression or link path
    /// reads, so a removed attribute that feeds a new one is not a loss.
    let reads: Set<[String]>
    /// How the destination's elements continue the source's.
    let correspondence: SchemaCorrespondence

    init(
        file: String, source: Model, destination: Model, entities: [MappedEntity],
        discarded: [String], reads: Set<[String]>
    ) {
        self.file = file
        self.source = source
        self.destination = destination
        let numbers = destination.entityNumbers
        self.entities = entities.sorted { (numbers[$0.name] ?? 0) < (numbers[$1.name] ?? 0) }
        self.discarded = discarded
        self.reads = reads
        self.correspondence = SchemaCorrespondence(from: source, to: destination)
    }

    /// The custom migration policies the rules name, in rule order.
    public var policies: [MappingPolicy] {
        entities.compactMap { rule in
            rule.policy.map {
                MappingPolicy(entity: rule.name, className: $0, entityMapping: rule.entityMapping)
            }
        }
    }

    /// The rule for destination entity `name`, if the file has one.
    public func entity(named name: String) -> MappedEntity? {
        entities.first { $0.name == name }
    }

    /// The name of the mapping file from version `from` to `to`:
    /// `"1-2.mapping.json"`.
    public static func fileName(from: Int, to: Int) -> String {
        "\(from)-\(to).mapping.json"
    }

    /// Reads and checks a mapping file.
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - source: The version the mapping reads from.
    ///   - destination: The version the mapping writes.
    /// - Throws: ``MappingError`` listing every problem, each located.
    public static func load(
        file: URL, source: Model, destination: Model
    ) throws(MappingError) -> MigrationMapping {
        let name = file.relativePath
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw MappingError(
                file: name, path: JSONPath.root,
                message: "cannot read the mapping file: \(error.localizedDescription)")
        }
        return try MigrationMapping(
            data: data, file: name, source: source, destination: destination)
    }

    /// Reads the mapping file between two versions from a schema folder, if
    /// there is one (`<from>-<to>.mapping.json`).
    ///
    /// - Returns: The mapping, or nil when the folder has no such file.
    /// - Throws: ``MappingError`` when the file exists but has problems.
    public static func load(
        directory: URL, from source: Model, to destination: Model
    ) throws(MappingError) -> MigrationMapping? {
        let file = directory.appendingPathComponent(
            fileName(from: source.version, to: destination.version))
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try load(file: file, source: source, destination: destination)
    }

    /// Reads and checks a mapping from its bytes.
    ///
    /// - Parameters:
    ///   - data: The file's bytes (UTF-8 JSON).
    ///   - file: The file's name as issues should show it.
    ///   - source: The version the mapping reads from.
    ///   - destination: The version the mapping writes.
    /// - Throws: ``MappingError`` listing every problem, each located.
    public init(
        data: Data, file: String, source: Model, destination: Model
    ) throws(MappingError) {
        var decoder = MappingDecoder(file: file, source: source, destination: destination)
        let mapping = decoder.decode(data)
        guard decoder.issues.isEmpty, let mapping else {
            throw MappingError(issues: decoder.sortedIssues)
        }
        self = mapping
    }
}
