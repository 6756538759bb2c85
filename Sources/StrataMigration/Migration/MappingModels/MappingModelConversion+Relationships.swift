import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Relationship mappings, and the file

extension MappingModelConversion {
    /// One relationship mapping: its stored expression, else the one Xcode
    /// generates (its "Key Path" and "Mapping Name" fields, or
    /// `$source.<name>` through the entity mapping that migrates the source
    /// relationship's destination).
    mutating func convertRelationship(
        _ property: PropertyMapping, of mapping: EntityMapping, into rule: inout Rule,
        lines: inout [MappingModelReport.Line]
    ) {
        let place = Self.place(of: property, kind: "relationship", in: mapping)
        guard
            let relationship = destination.allRelationships(of: rule.entity).first(where: {
                $0.name == property.name
            })
        else {
            fail(
                place,
                missing(
                    "relationship", property.name, of: rule.entity,
                    known: destination.allRelationships(of: rule.entity).map(\.name)))
            return
        }
        guard !relationship.isTransient else { return }
        let mappingName: String
        let path: [String]
        do {
            if let archived = property.valueExpression {
                let node: ExpressionNode
                do {
                    node = try MappingModelExpressions.node(archived)
                } catch {
                    fail(place, "its value expression does not read: \(error)")
                    return
                }
                (mappingName, path) = try MappingModelExpressions.link(node)
            } else if let keyPath = property.sourceKeyPath, let name = property.sourceMappingName {
                mappingName = name
                path = try MappingModelExpressions.linkPath(text: keyPath)
            } else if model.kind == .cdm {
                // A compiled model carries every expression; none is no links.
                lines.append(.init(.defaulted, "\(property.name): no links (no expression)"))
                return
            } else {
                if (property.sourceKeyPath == nil) != (property.sourceMappingName == nil) {
                    lines.append(
                        .init(
                            .warning,
                            "\(property.name): only one of its Key Path and Mapping Name is set; "
                                + "what Xcode compiles then is not known, so the default link is "
                                + "used"))
                }
                guard
                    let implicit = implicitLink(property.name, from: rule.source, to: relationship)
                else {
                    lines.append(
                        .init(
                            .defaulted,
                            "\(property.name): no links (version \(source.version)'s "
                                + "\(rule.source) has no relationship of that name, or no "
                                + "entity mapping migrates its objects)"))
                    return
                }
                switch implicit {
                case .success(let name):
                    mappingName = name
                    path = [property.name]
                case .failure(let failure):
                    fail(place, failure.message)
                    return
                }
            }
        } catch {
            fail(place, error.message)
            return
        }
        guard let target = mappingsByName[mappingName] else {
            fail(
                place,
                "it names the entity mapping '\(mappingName)', which the mapping model does not "
                    + "have; its entity mappings: "
                    + model.entityMappings.map(\.name).joined(separator: ", "))
            return
        }
        guard let targetSource = target.sourceEntity,
            let targetDestination = target.destinationEntity,
            destination.entityTree(rootedAt: relationship.destination)
                .contains(where: { $0.name == targetDestination })
        else {
            fail(
                place,
                "\(mappingName) makes \(target.destinationEntity ?? "no") objects, but "
                    + "\(rule.entity).\(property.name) links to \(relationship.destination)")
            return
        }
        let text = path.isEmpty ? "self" : path.joined(separator: ".")
        let link: LinkPath
        do {
            link = try LinkPath.resolve(text, from: rule.source, in: source)
        } catch {
            fail(place, "$source.\(text): \(error.message)")
            return
        }
        guard source.rootEntity(of: link.end)?.name == source.rootEntity(of: targetSource)?.name
        else {
            fail(
                place,
                "$source.\(text) reaches \(link.end) objects, but \(mappingName) migrates "
                    + "\(targetSource) objects")
            return
        }
        let targetContinues = correspondence.entities[targetDestination] == targetSource
        if !rule.createsObjects, targetContinues, path.count == 1,
            correspondence.relationships[rule.entity]?[property.name] == path[0]
        {
            lines.append(.init(.copied, "links of \(property.name) (from \(path[0]))"))
            return
        }
        let keep = link.isToMany && !relationship.isToMany
        rule.relationships.append((property.name, text, keep))
        rule.places[property.name] = place
        lines.append(
            .init(
                targetContinues ? .linked : .created,
                "\(property.name) ← $source.\(text), the \(targetDestination) objects "
                    + "\(mappingName) \(targetContinues ? "updates" : "creates")"
                    + (keep
                        ? " (the first one: the path reaches several, and Core Data would raise "
                            + "\"More than one relationship destination for a toOne relationship\")"
                        : "")))
    }

    /// The entity mapping Xcode's default expression for relationship
    /// `name` names: the one migrating the destination of the source's
    /// relationship of that name; nil when there is no such relationship or
    /// mapping.
    private func implicitLink(
        _ name: String, from entity: String, to relationship: Relationship
    ) -> Result<String, MappingModelExpressions.Failure>? {
        guard
            let old = source.allRelationships(of: entity).first(where: {
                $0.name == name && !$0.isTransient
            })
        else { return nil }
        var candidates = model.entityMappings.filter {
            $0.sourceEntity == old.destination && $0.destinationEntity != nil
        }
        if candidates.count > 1 {
            let kinds = Set(destination.entityTree(rootedAt: relationship.destination).map(\.name))
            candidates = candidates.filter { kinds.contains($0.destinationEntity ?? "") }
        }
        guard let only = candidates.first else { return nil }
        guard candidates.count == 1 else {
            return .failure(
                .init(
                    message: "several entity mappings migrate \(old.destination) objects ("
                        + candidates.map(\.name).joined(separator: ", ")
                        + "); name the one to link with in the relationship mapping's Mapping "
                        + "Name"))
        }
        return .success(only.name)
    }

    /// `Name.xcmappingmodel` for a package's `xcmapping.xml`, else the
    /// file's name.
    static func shortName(of file: String) -> String {
        let parts = file.split(separator: "/").map(String.init)
        if parts.count > 1, parts.last == XcodeMappingModelReader.xmlFileName {
            return parts[parts.count - 2]
        }
        return parts.last ?? file
    }

    /// The `strata-mapping/1` file: the rules that do something beyond the
    /// plan, in the mapping model's order, then the discards.
    func json(discards: [String]) -> Data {
        var writer = JSONWriter(style: .init(indent: 2, colon: Array(": ".utf8)))
        writer.openObject()
        writer.key("format")
        writer.string(MigrationMapping.format)
        writer.key("from")
        writer.integer(Int64(source.version))
        writer.key("to")
        writer.integer(Int64(destination.version))
        writer.key("comment")
        writer.string(
            "Converted from \(Self.shortName(of: file)) (a Core Data mapping model) by strata; "
                + "entityMapping names the entity mapping each rule comes from.")
        writer.key("entities")
        writer.openObject()
        for rule in rules
        where rule.createsObjects || rule.condition != nil || rule.policy != nil
            || !rule.attributes.isEmpty || !rule.relationships.isEmpty
        {
            writer.key(rule.entity)
            writer.openObject()
            if !rule.entityMapping.isEmpty {
                writer.key("entityMapping")
                writer.string(rule.entityMapping)
            }
            if rule.createsObjects {
                writer.key("source")
                writer.string(rule.source)
            }
            if let condition = rule.condition {
                writer.key("where")
                writer.string(condition)
            }
            if let policy = rule.policy {
                writer.key("policy")
                writer.string(policy)
            }
            if !rule.attributes.isEmpty {
                writer.key("attributes")
                writer.openObject()
                for (name, expression) in rule.attributes {
                    writer.key(name)
                    writer.string(expression)
                }
                writer.closeObject()
            }
            if !rule.relationships.isEmpty {
                writer.key("relationships")
                writer.openObject()
                for (name, path, keep) in rule.relationships {
                    writer.key(name)
                    writer.openObject()
                    writer.key("from")
                    writer.string(path)
                    if keep {
                        writer.key("keep")
                        writer.string("first")
                    }
                    writer.closeObject()
                }
                writer.closeObject()
            }
            writer.closeObject()
        }
        writer.closeObject()
        if !discards.isEmpty {
            writer.key("discard")
            writer.openArray()
            for entry in discards { writer.string(entry) }
            writer.closeArray()
        }
        writer.closeObject()
        return Data(writer.bytes + [UInt8(ascii: "\n")])
    }
}
