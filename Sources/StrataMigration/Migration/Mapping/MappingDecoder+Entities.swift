import StrataCore
import StrataQuery
import StrataSchema

// MARK: - Entity rules

extension MappingDecoder {
    static let entityKeys = [
        "source", "where", "attributes", "relationships", "policy", "entityMapping", "comment",
    ]

    mutating func decodeEntity(_ name: String, _ node: RecordField, at path: String)
        -> MappedEntity?
    {
        guard
            let fields = fields(
                of: node, at: path, allowed: Self.entityKeys, what: "an entity rule")
        else { return nil }
        guard let entity = destination.entity(named: name) else {
            report(
                "version \(destination.version) has no entity '\(name)'; its entities: "
                    + destination.entities.map(\.name).joined(separator: ", "),
                at: path, node: node)
            return nil
        }
        let continued = correspondence.entities[name]
        let sourceName: String
        if let sourceNode = fields["source"] {
            let sourcePath = JSONPath.appending(path, key: "source")
            guard let text = text(sourceNode, at: sourcePath, expected: "a source entity name")
            else { return nil }
            guard source.entity(named: text) != nil else {
                report(
                    "version \(source.version) has no entity '\(text)'; its entities: "
                        + source.entities.map(\.name).joined(separator: ", "),
                    at: sourcePath, node: sourceNode)
                return nil
            }
            sourceName = text
        } else if let continued {
            sourceName = continued
        } else {
            report(
                "\(name) is new in version \(destination.version); name the entity of version "
                    + "\(source.version) its objects come from with \"source\"",
                at: path, node: node)
            return nil
        }
        let creates = sourceName != continued
        if creates && entity.isAbstract {
            report(
                "\(name) is abstract, so no object of it can be created from \(sourceName)",
                at: path, node: node)
        }
        var rule = MappedEntity(
            name: name, source: sourceName, condition: nil, attributes: [:], relationships: [:],
            createsObjects: creates, path: path)
        for key in ["policy", "entityMapping"] {
            guard let node = fields[key] else { continue }
            let text = text(
                node, at: JSONPath.appending(path, key: key),
                expected: key == "policy"
                    ? "the policy's class name as a string" : "the entity mapping's name")
            if key == "policy" { rule.policy = text } else { rule.entityMapping = text }
        }
        if let whereNode = fields["where"] {
            rule.condition = decodeCondition(
                whereNode, at: JSONPath.appending(path, key: "where"), over: sourceName)
        }
        if let attributesNode = fields["attributes"] {
            rule.attributes = decodeAttributes(
                attributesNode, at: JSONPath.appending(path, key: "attributes"),
                of: name, over: sourceName)
        }
        if let relationshipsNode = fields["relationships"] {
            let relationshipsPath = JSONPath.appending(path, key: "relationships")
            for member in namedMembers(
                of: relationshipsNode, at: relationshipsPath, what: "relationship rules")
            {
                guard
                    let relationship = destination.allRelationships(of: name).first(where: {
                        $0.name == member.name && !$0.isTransient
                    })
                else {
                    report(
                        "\(name) has no relationship '\(member.name)' in version "
                            + "\(destination.version); its relationships: "
                            + destination.allRelationships(of: name).map(\.name)
                            .joined(separator: ", "),
                        at: member.path, line: member.line, column: member.column)
                    continue
                }
                if let spec = decodeRelationship(
                    member.node, at: member.path, relationship, over: sourceName)
                {
                    rule.relationships[member.name] = spec
                    ruleLocations[[name, member.name]] = (member.line, member.column)
                }
            }
        }
        if creates { checkRequiredValues(rule, node: node) }
        return rule
    }

    /// A `where` predicate, parsed and checked against the source entity.
    private mutating func decodeCondition(
        _ node: RecordField, at path: String, over entity: String
    ) -> String? {
        guard let text = text(node, at: path, expected: "a predicate as a string") else {
            return nil
        }
        do {
            _ = try FetchPredicate(text, entity: entity, model: source)
            return text
        } catch let error as PredicateSyntaxError {
            report(
                error.message, at: path, line: node.line, column: node.column,
                expressionColumn: error.column, expression: text)
        } catch let error as FetchPredicateError {
            report(
                error.message, at: path, line: node.line, column: node.column,
                expressionColumn: error.column, expression: text)
        } catch {
            report("\(error)", at: path, node: node)
        }
        return nil
    }

    /// Attribute expressions by name; each must fit its attribute's type.
    mutating func decodeAttributes(
        _ node: RecordField, at path: String, of entity: String, over sourceEntity: String
    ) -> [String: MappingExpression] {
        var result: [String: MappingExpression] = [:]
        for member in namedMembers(of: node, at: path, what: "attribute expressions") {
            guard
                let attribute = destination.allAttributes(of: entity).first(where: {
                    $0.name == member.name && !$0.isTransient
                })
            else {
                report(
                    "\(entity) has no attribute '\(member.name)' in version "
                        + "\(destination.version); its attributes: "
                        + destination.allAttributes(of: entity).filter { !$0.isTransient }
                        .map(\.name).joined(separator: ", "),
                    at: member.path, line: member.line, column: member.column)
                continue
            }
            guard let expression = expression(member.node, at: member.path, over: sourceEntity)
            else { continue }
            guard expression.type.fits(attribute.type) else {
                report(
                    "the expression gives \(expression.type.withArticle), but \(entity)."
                        + "\(attribute.name) is \(attribute.type.rawValue)"
                        + Self.conversionHint(from: expression.type, to: attribute.type),
                    at: member.path, line: member.node.line, column: member.node.column,
                    expressionColumn: 1, expression: expression.text)
                continue
            }
            result[member.name] = expression
        }
        return result
    }

    /// How to convert between two types, as advice after a type error.
    static func conversionHint(from type: ExpressionType, to target: AttributeType) -> String {
        switch (type, ExpressionType(target)) {
        case (.real, .integer): "; convert with round(…) or integer(…)"
        case (.string, .integer): "; convert with integer(…) or round(number(…))"
        case (.string, .real): "; convert with number(…)"
        case (.string, .date): "; convert with date(…, \"yyyy-MM-dd\")"
        case (.list, .string): "; make one text with join(…, \", \") or first(…)"
        case (_, .string): "; convert with string(…)"
        default: ""
        }
    }

    /// A rule that creates objects must give every required attribute
    /// without a default a value: its own expression, or a source
    /// attribute of the same name.
    private mutating func checkRequiredValues(_ rule: MappedEntity, node: RecordField) {
        let sourceNames = Set(source.allAttributes(of: rule.source).map(\.name))
        let missing = destination.allAttributes(of: rule.name).filter {
            !$0.isOptional && !$0.isTransient && $0.defaultValue == nil
                && rule.attributes[$0.name] == nil && !sourceNames.contains($0.name)
        }.map(\.name)
        guard !missing.isEmpty else { return }
        report(
            "creates \(rule.name) objects from \(rule.source), but required "
                + (missing.count == 1 ? "attribute " : "attributes ")
                + missing.joined(separator: ", ")
                + " without a default \(missing.count == 1 ? "has" : "have") no expression",
            at: rule.path, node: node)
    }
}
