import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - One entity mapping

extension MappingModelConversion {
    /// Converts the entity mapping from `from` (source) to `to`
    /// (destination) into a rule, with Xcode's generated expressions made
    /// explicit, and reports what it does.
    mutating func convertEntity(_ mapping: EntityMapping, from: String, to: String) {
        let place = Self.place(of: mapping)
        guard source.entity(named: from) != nil else {
            fail(
                place,
                "version \(source.version) has no entity '\(from)'; its entities: "
                    + source.entities.map(\.name).joined(separator: ", "))
            return
        }
        guard let target = destination.entity(named: to) else {
            fail(
                place,
                "version \(destination.version) has no entity '\(to)'; its entities: "
                    + destination.entities.map(\.name).joined(separator: ", "))
            return
        }
        if mapping.sourceExpression != nil {
            fail(
                place,
                "its source expression is not the default fetch of \(from) objects (with or "
                    + "without a filter); Strata reads a rule's objects that way only")
        }
        let continues = correspondence.entities[to] == from
        var rule = Rule(
            entity: to, entityMapping: mapping.name, place: place, source: from,
            createsObjects: !continues, condition: mapping.filterPredicate,
            policy: mapping.policyClassName)
        if !continues && target.isAbstract {
            fail(place, "\(to) is abstract, so no object of it can be created from \(from)")
            return
        }
        var lines: [MappingModelReport.Line] = []
        if let filter = mapping.filterPredicate {
            lines.append(.init(.dropped, "\(from) objects for which \(filter) is false"))
        }
        if let policy = mapping.policyClassName {
            lines.append(
                .init(
                    .policy,
                    "\(policy): app code; `strata migrate` refuses this rule until a Swift step is "
                        + "registered under that name or the rule says what it does"))
        }
        var copied: [String] = []
        var defaulted: [String] = []
        // The file stores no order for property mappings: by name, so the
        // written file and the report are the same for the same model.
        for attribute in mapping.attributeMappings.sorted(by: { $0.name < $1.name }) {
            convertAttribute(
                attribute, of: mapping, into: &rule, lines: &lines, copied: &copied,
                defaulted: &defaulted)
        }
        let mapped = Set(mapping.attributeMappings.map(\.name))
        let unmapped = destination.allAttributes(of: to).filter {
            !$0.isTransient && !mapped.contains($0.name)
        }
        if !unmapped.isEmpty {
            lines.append(
                .init(
                    .warning,
                    "no attribute mapping for " + unmapped.map(\.name).joined(separator: ", ")
                        + (continues
                            ? ": Core Data leaves them at their defaults; Strata keeps what the "
                                + "plan carries over" : ": left at their defaults")))
        }
        for relationship in mapping.relationshipMappings.sorted(by: { $0.name < $1.name }) {
            convertRelationship(relationship, of: mapping, into: &rule, lines: &lines)
        }
        if !copied.isEmpty {
            lines.insert(.init(.copied, copied.joined(separator: ", ")), at: 0)
        }
        if !defaulted.isEmpty {
            lines.append(.init(.defaulted, defaulted.joined(separator: ", ")))
        }
        let summary =
            continues
            ? (from == to ? "\(from), updated in place" : "\(from) → \(to), updated in place")
            : "\(from) → \(to), creates objects"
        entries.append(.init(entityMapping: mapping.name, summary: summary, lines: lines))
        rules.append(rule)
    }

    /// One attribute mapping: its stored expression, else Xcode's default
    /// (`$source.<name>` when the source has a property of that name).
    private mutating func convertAttribute(
        _ property: PropertyMapping, of mapping: EntityMapping, into rule: inout Rule,
        lines: inout [MappingModelReport.Line], copied: inout [String], defaulted: inout [String]
    ) {
        let place = Self.place(of: property, kind: "attribute", in: mapping)
        let from = rule.source
        guard
            let attribute = destination.allAttributes(of: rule.entity).first(where: {
                $0.name == property.name
            })
        else {
            fail(
                place,
                missing(
                    "attribute", property.name, of: rule.entity,
                    known: destination.allAttributes(of: rule.entity).map(\.name)))
            return
        }
        guard !attribute.isTransient else { return }
        let node: ExpressionNode
        if let archived = property.valueExpression {
            do {
                node = try MappingModelExpressions.node(archived)
            } catch {
                fail(place, "its value expression does not read: \(error)")
                return
            }
        } else if model.kind == .xcmappingmodel,
            source.allAttributes(of: from).contains(where: { $0.name == property.name })
        {
            // Xcode compiles this default copy; a .cdm without an expression
            // sets nothing.
            node = MappingModelExpressions.sourceKeyPath([property.name])
        } else {
            defaulted.append(property.name)
            return
        }
        let translated: MappingModelExpressions.Translation
        do {
            translated = try MappingModelExpressions(source: source, entity: from)
                .translate(node, into: attribute)
        } catch {
            fail(place, error.message)
            return
        }
        switch translated {
        case .policyCall(let text):
            guard let policy = rule.policy else {
                fail(
                    place,
                    "\(text) calls a method of the entity mapping's policy, but the entity "
                        + "mapping names no policy class")
                return
            }
            lines.append(.init(.policy, "\(property.name) = \(text) (a method of \(policy))"))
        case .keyPath(let path, let conversion):
            let oldName = path.count == 1 ? path[0] : nil
            let carried =
                rule.createsObjects
                ? oldName == property.name
                : oldName.map {
                    correspondence.attributes[rule.entity]?[property.name] == $0
                } ?? false
            if carried && conversion == nil {
                copied.append(property.name)
                return
            }
            let text = MappingModelExpressions.keyPathText(path)
            let expression = conversion.map { "\($0)(\(text))" } ?? text
            rule.attributes.append((property.name, expression))
            rule.places[property.name] = place
            if let conversion {
                lines.append(
                    .init(
                        .converted,
                        "\(property.name) = \(expression) (\(conversion)(…) turns the "
                            + "source's value into \(attribute.type.rawValue))"))
            } else if let oldName {
                lines.append(.init(.renamed, "\(property.name) ← \(oldName)"))
            } else {
                lines.append(.init(.computed, "\(property.name) = \(expression)"))
            }
        case .expression(let expression, let original):
            rule.attributes.append((property.name, expression))
            rule.places[property.name] = place
            lines.append(.init(.computed, "\(property.name) = \(expression)  (\(original))"))
        }
    }
}
