import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// One mapping model being converted between two known versions: the rules
/// made so far, the report and the problems.
struct MappingModelConversion {
    typealias EntityMapping = XcodeMappingModel.EntityMapping
    typealias PropertyMapping = XcodeMappingModel.PropertyMapping

    /// One destination entity's rule, as it will be written.
    struct Rule {
        var entity: String
        var entityMapping: String
        var place: String
        /// The source entity, written only when the rule creates objects.
        var source: String
        var createsObjects: Bool
        var condition: String?
        var policy: String?
        var attributes: [(name: String, expression: String)] = []
        var relationships: [(name: String, path: String, keep: Bool)] = []
        /// Where each attribute and relationship rule came from, by name.
        var places: [String: String] = [:]
    }

    let model: XcodeMappingModel
    let source: Model
    let destination: Model
    let chain: SchemaChain
    let correspondence: SchemaCorrespondence
    var rules: [Rule] = []
    var issues: [MappingModelError.Issue] = []
    var entries: [MappingModelReport.Entry] = []

    init(model: XcodeMappingModel, source: Model, destination: Model, chain: SchemaChain) {
        self.model = model
        self.source = source
        self.destination = destination
        self.chain = chain
        self.correspondence = SchemaCorrespondence(from: source, to: destination)
        self.mappingsByName = Dictionary(
            model.entityMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var file: String { model.file }

    /// The live entity mappings by name (links name them).
    let mappingsByName: [String: EntityMapping]

    mutating func fail(_ place: String, _ message: String) {
        issues.append(.init(file: file, place: place, message: message))
    }

    /// `Mood has no attribute 'x' in version 3; its attributes: a, b`.
    func missing(_ kind: String, _ name: String, of entity: String, known: [String]) -> String {
        "\(entity) has no \(kind) '\(name)' in version \(destination.version); its \(kind == "attribute" ? "attributes" : "relationships"): "
            + known.joined(separator: ", ")
    }

    static func place(of mapping: EntityMapping) -> String {
        "entity mapping \(mapping.name) (\(mapping.location))"
    }

    static func place(
        of property: PropertyMapping, kind: String, in mapping: EntityMapping
    ) -> String {
        "\(place(of: mapping)), \(kind) mapping \(property.name) (\(property.location))"
    }

    // MARK: - The whole file

    mutating func run() throws(MappingModelError) -> ConvertedMappingModel {
        var seen: [String: String] = [:]
        for mapping in model.entityMappings {
            guard let from = mapping.sourceEntity, let to = mapping.destinationEntity else {
                entries.append(reportOnly(mapping))
                continue
            }
            if let other = seen[to] {
                fail(
                    Self.place(of: mapping),
                    "\(other) makes \(to) objects too; a Strata mapping file has one rule per "
                        + "destination entity, so split the migration in two versions or merge "
                        + "the two entity mappings' sources into one")
                continue
            }
            seen[to] = mapping.name
            convertEntity(mapping, from: from, to: to)
        }
        guard issues.isEmpty else { throw MappingModelError(issues: issues) }
        let unread = unreadEntities()
        let pairs = keepOneSideOfEachInverse()
        var discards = unread.discarded
        // Load once to learn which losses the rules leave open, then write
        // each as Core Data would have: dropped.
        let draft = try load(json(discards: discards))
        let plan: MigrationPlan
        do {
            plan = try MigrationPlan(
                chain: chain, from: source.version, to: destination.version)
        } catch {
            throw MappingModelError(file: file, message: "\(error)")
        }
        var open: [MappingModelReport.Line] = []
        for step in plan.steps where step.label != .inferred && !draft.covers(step) {
            if step.label == .lossy {
                let entry = MigrationPreflight.discardEntry(step, plan)
                if !discards.contains(entry) { discards.append(entry) }
            } else {
                open.append(
                    .init(
                        .warning,
                        "\(step.names): \(step.reason); Core Data's mapping leaves it unset, and "
                            + "`strata migrate` refuses until the rule for \(step.entity) "
                            + "gives it a value"))
            }
        }
        let data = json(discards: discards)
        let mapping = try load(data)
        var modelLines = unread.lines + pairs + open
        modelLines += discards.filter { !$0.contains(".") && !unread.discarded.contains($0) }
            .map { .init(.dropped, "\($0): no entity mapping reads its objects") }
        if !modelLines.isEmpty {
            entries.append(
                .init(entityMapping: "(model)", summary: "the whole file", lines: modelLines))
        }
        let report = MappingModelReport(
            fileName: mapping.fileNameForReport, source: file, from: source.version,
            to: destination.version, entries: entries)
        return ConvertedMappingModel(
            from: source.version, to: destination.version, data: data, mapping: mapping,
            report: report)
    }

    /// An add or remove mapping: nothing to write, only to say.
    private func reportOnly(_ mapping: EntityMapping) -> MappingModelReport.Entry {
        if let to = mapping.destinationEntity {
            return .init(
                entityMapping: mapping.name, summary: "add mapping for \(to)",
                lines: [
                    .init(
                        .created,
                        "nothing: an add mapping has no source objects, so Core Data creates no "
                            + "\(to) objects (write a rule with \"source\" to make some)")
                ])
        }
        return .init(
            entityMapping: mapping.name,
            summary: "remove mapping for \(mapping.sourceEntity ?? "?")",
            lines: [.init(.dropped, "every \(mapping.sourceEntity ?? "?") object")])
    }

    /// Source entities no live mapping reads: Core Data migrates none of
    /// their objects. One the new version lacks is discarded; one it keeps
    /// gets a rule that keeps none of its objects.
    private mutating func unreadEntities() -> (
        discarded: [String], lines: [MappingModelReport.Line]
    ) {
        let read = Set(model.entityMappings.compactMap(\.sourceEntity))
        var discarded: [String] = []
        var lines: [MappingModelReport.Line] = []
        for entity in source.entities where !entity.isAbstract && !read.contains(entity.name) {
            if let kept = destination.entities.first(where: {
                correspondence.entities[$0.name] == entity.name
            }), !rules.contains(where: { $0.entity == kept.name }) {
                rules.append(
                    Rule(
                        entity: kept.name, entityMapping: "", place: "", source: entity.name,
                        createsObjects: false, condition: "FALSEPREDICATE"))
                lines.append(
                    .init(
                        .dropped,
                        "every \(entity.name) object: no entity mapping reads them, so Core Data "
                            + "migrates none (the rule for \(kept.name) keeps none)"))
            } else {
                discarded.append(entity.name)
                lines.append(
                    .init(.dropped, "every \(entity.name) object: no entity mapping reads them"))
            }
        }
        return (discarded, lines)
    }

    /// A Strata file may set one side of a relationship and its inverse;
    /// Core Data's mapping sets both. The to-one side is kept (the other
    /// follows from it); the report says so in place of the link left out.
    private mutating func keepOneSideOfEachInverse() -> [MappingModelReport.Line] {
        var lines: [MappingModelReport.Line] = []
        var taken: Set<[String]> = []
        // To-one sides first, so they are the ones kept.
        var order: [(rule: Int, link: Int, toMany: Bool)] = []
        for (ruleIndex, rule) in rules.enumerated() {
            for (linkIndex, link) in rule.relationships.enumerated() {
                let relationship = destination.allRelationships(of: rule.entity)
                    .first { $0.name == link.name }
                order.append((ruleIndex, linkIndex, relationship?.isToMany ?? false))
            }
        }
        order.sort { !$0.toMany && $1.toMany }
        var dropped: Set<[Int]> = []
        for item in order {
            let rule = rules[item.rule]
            let link = rule.relationships[item.link]
            guard
                let relationship = destination.allRelationships(of: rule.entity)
                    .first(where: { $0.name == link.name })
            else { continue }
            // The pair, by the entities that declare each side.
            let side = [
                PlanContext.declaringEntity(of: link.name, from: rule.entity, in: destination)
                    ?? rule.entity, link.name,
            ]
            let inverse = [
                PlanContext.declaringEntity(
                    of: relationship.inverse, from: relationship.destination, in: destination)
                    ?? relationship.destination, relationship.inverse,
            ]
            let pair = [side, inverse].sorted {
                $0.joined(separator: ".") < $1.joined(separator: ".")
            }
            guard relationship.hasInverse, !taken.insert(pair.flatMap { $0 }).inserted else {
                continue
            }
            dropped.insert([item.rule, item.link])
            let line = MappingModelReport.Line(
                .linked,
                "\(link.name): set from its inverse \(relationship.destination)."
                    + "\(relationship.inverse) (a Strata file sets one side of a relationship)")
            // Said in the entity mapping's own entry, in place of the link.
            if let entry = entries.firstIndex(where: { $0.entityMapping == rule.entityMapping }),
                let at = entries[entry].lines.firstIndex(where: {
                    $0.text.hasPrefix("\(link.name) ← ")
                })
            {
                entries[entry].lines[at] = line
            } else {
                lines.append(.init(.linked, "\(rule.entity)." + line.text))
            }
        }
        for index in rules.indices {
            rules[index].relationships = rules[index].relationships.enumerated()
                .filter { !dropped.contains([index, $0.offset]) }.map(\.element)
        }
        return lines
    }

    /// Loads the written file back against both versions; its problems are
    /// the conversion's, told at the entity mapping they come from.
    private func load(_ data: Data) throws(MappingModelError) -> MigrationMapping {
        do {
            return try MigrationMapping(
                data: data,
                file: MigrationMapping.fileName(
                    from: source.version, to: destination.version),
                source: source, destination: destination)
        } catch {
            throw MappingModelError(
                issues: error.issues.map { issue in
                    .init(file: file, place: place(ofJSONPath: issue.path), message: issue.message)
                })
        }
    }

    /// The entity mapping (and property mapping) a JSON path of the written
    /// file came from.
    private func place(ofJSONPath path: String) -> String {
        for rule in rules where !rule.place.isEmpty {
            let prefix = JSONPath.appending("$.entities", key: rule.entity)
            guard path.hasPrefix(prefix) else { continue }
            for (name, place) in rule.places
            where path.hasSuffix(".\(name)") || path.hasSuffix("[\"\(name)\"]") {
                return place
            }
            return rule.place
        }
        return "the converted file, at \(path)"
    }
}

extension MigrationMapping {
    /// `<from>-<to>.mapping.json`.
    var fileNameForReport: String {
        MigrationMapping.fileName(from: source.version, to: destination.version)
    }
}
