import StrataCore
import StrataSchema

// MARK: - Relationship rules and discards

extension MappingDecoder {
    static let relationshipKeys = [
        "from", "keep", "sortBy", "findOrCreateBy", "value", "attributes", "comment",
    ]

    mutating func decodeRelationship(
        _ node: RecordField, at path: String, _ relationship: Relationship,
        over sourceEntity: String
    ) -> MappedRelationship? {
        guard
            let fields = fields(
                of: node, at: path, allowed: Self.relationshipKeys, what: "a relationship rule")
        else { return nil }
        switch (fields["from"], fields["findOrCreateBy"]) {
        case (let from?, nil):
            for key in ["value", "attributes"] where fields[key] != nil {
                report(
                    "'\(key)' belongs to findOrCreateBy rules; a \"from\" rule copies links",
                    at: JSONPath.appending(path, key: key), node: fields[key] ?? node)
            }
            return decodeRemap(from, fields, at: path, relationship, over: sourceEntity)
        case (nil, let key?):
            for name in ["keep", "sortBy"] where fields[name] != nil {
                report(
                    "'\(name)' belongs to \"from\" rules that reach several objects",
                    at: JSONPath.appending(path, key: name), node: fields[name] ?? node)
            }
            return decodeFindOrCreate(key, fields, at: path, relationship, over: sourceEntity)
        case (.some, .some):
            report(
                "a relationship rule has either \"from\" or \"findOrCreateBy\", not both",
                at: path, node: node)
        case (nil, nil):
            report(
                "expected \"from\": a relationship path of the source (or \"self\"), or "
                    + "\"findOrCreateBy\": an attribute of \(relationship.destination) with a "
                    + "\"value\" expression", at: path, node: node)
        }
        return nil
    }

    private mutating func decodeRemap(
        _ node: RecordField, _ fields: [String: RecordField], at path: String,
        _ relationship: Relationship, over sourceEntity: String
    ) -> MappedRelationship? {
        let fromPath = JSONPath.appending(path, key: "from")
        guard let text = text(node, at: fromPath, expected: "a relationship path as a string")
        else { return nil }
        let link: LinkPath
        do {
            link = try LinkPath.resolve(text, from: sourceEntity, in: source)
        } catch {
            report(
                error.message, at: fromPath, line: node.line, column: node.column,
                expressionColumn: error.column, expression: text)
            return nil
        }
        if let first = link.hops.first {
            reads.insert([
                PlanContext.declaringEntity(
                    of: first.relationship.name, from: first.owner, in: source) ?? first.owner,
                first.relationship.name,
            ])
        }
        let target = relationship.destination
        let former = correspondence.entities[target]
        let continues = MappingLinkTargets.continues(
            target, reachedAt: link.end, correspondence: correspondence, source: source)
        guard
            continues
                || !MappingLinkTargets.creators(
                    of: target, reachedAt: link.end, creators: creators, source: source,
                    destination: destination
                ).isEmpty
        else {
            report(
                "the links go to \(target)"
                    + (former.map { " (which continues \($0))" } ?? ", which is new")
                    + ", but the path ends at \(link.end) of version \(source.version); "
                    + "a \"from\" rule links the same objects (or the objects a rule creates "
                    + "from them), so their entities must match",
                at: fromPath, node: node)
            return nil
        }
        var keep: MappedRelationship.Keep?
        if let keepNode = fields["keep"] {
            let keepPath = JSONPath.appending(path, key: "keep")
            switch keepNode.value {
            case .text("first"): keep = .init(first: true)
            case .text("last"): keep = .init(first: false)
            default:
                report(
                    "expected \"first\" or \"last\", found \(keepNode.summary)", at: keepPath,
                    node: keepNode)
                return nil
            }
            if !link.isToMany || relationship.isToMany {
                report(
                    relationship.isToMany
                        ? "\(relationship.name) is to-many and keeps every object; 'keep' is "
                            + "for to-one relationships"
                        : "the path \(text) reaches one object at most; 'keep' is for paths "
                            + "that reach several",
                    at: keepPath, node: keepNode)
                return nil
            }
        } else if link.isToMany && !relationship.isToMany {
            report(
                "the path \(text) reaches several objects but \(relationship.name) is to-one: "
                    + "say which stays with \"keep\": \"first\" or \"last\" (optionally with "
                    + "\"sortBy\": an attribute of \(link.end))", at: fromPath, node: node)
            return nil
        }
        if let sortNode = fields["sortBy"] {
            let sortPath = JSONPath.appending(path, key: "sortBy")
            guard let name = self.text(sortNode, at: sortPath, expected: "an attribute name")
            else { return nil }
            guard keep != nil else {
                report("'sortBy' needs \"keep\"", at: sortPath, node: sortNode)
                return nil
            }
            guard source.allAttributes(of: link.end).contains(where: { $0.name == name }) else {
                report(
                    "\(link.end) has no attribute '\(name)' in version \(source.version); its "
                        + "attributes: "
                        + source.allAttributes(of: link.end).map(\.name).joined(separator: ", "),
                    at: sortPath, node: sortNode)
                return nil
            }
            keep?.sortBy = name
        }
        return .remap(keyPath: text, keep: keep)
    }

    private mutating func decodeFindOrCreate(
        _ node: RecordField, _ fields: [String: RecordField], at path: String,
        _ relationship: Relationship, over sourceEntity: String
    ) -> MappedRelationship? {
        let keyPath = JSONPath.appending(path, key: "findOrCreateBy")
        let target = relationship.destination
        guard let key = text(node, at: keyPath, expected: "an attribute of \(target)") else {
            return nil
        }
        guard
            let attribute = destination.allAttributes(of: target).first(where: {
                $0.name == key && !$0.isTransient
            })
        else {
            report(
                "\(target) has no attribute '\(key)' in version \(destination.version); its "
                    + "attributes: "
                    + destination.allAttributes(of: target).map(\.name).joined(separator: ", "),
                at: keyPath, node: node)
            return nil
        }
        if destination.entity(named: target)?.isAbstract == true {
            report(
                "\(target) is abstract, so no object of it can be created", at: keyPath, node: node)
        }
        guard let valueNode = fields["value"] else {
            report(
                "missing key 'value'; expected an expression giving the \(key) of the "
                    + "\(target) to link", at: path, node: node)
            return nil
        }
        let valuePath = JSONPath.appending(path, key: "value")
        guard let value = expression(valueNode, at: valuePath, over: sourceEntity) else {
            return nil
        }
        let fitsKey = value.type.fits(attribute.type)
        let isList = value.type == .list && attribute.type == .string
        if !fitsKey && !(isList && relationship.isToMany) {
            report(
                isList
                    ? "the expression gives a list, but \(relationship.name) is to-one; pick "
                        + "one element with first(…)"
                    : "the expression gives \(value.type.withArticle), but \(target).\(key) is "
                        + attribute.type.rawValue
                        + Self.conversionHint(from: value.type, to: attribute.type),
                at: valuePath, line: valueNode.line, column: valueNode.column,
                expressionColumn: 1, expression: value.text)
            return nil
        }
        var attributes: [String: MappingExpression] = [:]
        if let attributesNode = fields["attributes"] {
            attributes = decodeAttributes(
                attributesNode, at: JSONPath.appending(path, key: "attributes"), of: target,
                over: sourceEntity)
        }
        let missing = destination.allAttributes(of: target).filter {
            !$0.isOptional && !$0.isTransient && $0.defaultValue == nil && $0.name != key
                && attributes[$0.name] == nil
        }.map(\.name)
        if !missing.isEmpty {
            report(
                "creates \(target) objects, but required attributes without a default have no "
                    + "expression in \"attributes\": " + missing.joined(separator: ", "),
                at: path, node: node)
        }
        return .findOrCreate(key: key, value: value, attributes: attributes)
    }

    /// Only one side of a relationship pair may have a rule: both would
    /// decide the same links.
    mutating func checkInverseConflicts(_ entities: [MappedEntity]) {
        var ruled: Set<[String]> = []
        for entity in entities {
            for name in entity.relationships.keys { ruled.insert([entity.name, name]) }
        }
        for entity in entities {
            for name in entity.relationships.keys.sorted() {
                guard
                    let relationship = destination.allRelationships(of: entity.name).first(
                        where: { $0.name == name })
                else { continue }
                // The inverse's rule may sit on the destination or on one
                // of its subentities (which inherit the relationship).
                let owners =
                    [relationship.destination]
                    + destination.subentities(of: relationship.destination).map(\.name)
                guard relationship.hasInverse,
                    let inverse = owners.map({ [$0, relationship.inverse] }).first(where: {
                        ruled.contains($0)
                    }),
                    inverse != [entity.name, name]
                else { continue }
                // Reported once, at the later of the two rules in the file.
                let here = ruleLocations[[entity.name, name]]
                let there = ruleLocations[inverse]
                if let here, let there, (here.line, here.column) < (there.line, there.column) {
                    continue
                }
                if here == nil || there == nil,
                    ![entity.name, name].lexicographicallyPrecedes(inverse)
                {
                    continue
                }
                let other = there.map { " (line \($0.line), column \($0.column))" } ?? ""
                report(
                    "\(entity.name).\(name) and its inverse \(inverse.joined(separator: "."))"
                        + "\(other) both have rules; give the links one rule, on either side",
                    at: JSONPath.appending(
                        JSONPath.appending(entity.path, key: "relationships"), key: name),
                    line: here?.line, column: here?.column)
            }
        }
    }

    /// The `discard` list: source entities and `Entity.property` names.
    mutating func decodeDiscard(_ node: RecordField, at path: String) -> [String] {
        guard case .array(let elements) = node.value else {
            report(
                "expected a list of names (\"Entity\" or \"Entity.property\"), found "
                    + node.summary, at: path, node: node)
            return []
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(path, index: index)
            guard
                let name = text(
                    element, at: elementPath, expected: "\"Entity\" or \"Entity.property\"")
            else { continue }
            if resolveDiscard(name) == nil {
                report(
                    "'\(name)' names nothing of version \(source.version); expected a source "
                        + "entity (\"Entity\") or one of its properties (\"Entity.property\"), "
                        + "the entity under its name in either version",
                    at: elementPath, node: element)
                continue
            }
            names.append(name)
        }
        return names
    }

    /// A discard name as (source entity, property or nil).
    func resolveDiscard(_ name: String) -> (String, String?)? {
        MigrationMapping.resolveDiscard(
            name, source: source, destination: destination, correspondence: correspondence)
    }
}

extension MigrationMapping {
    /// A discard name as (source entity, property or nil): the entity under
    /// its source name or its destination name, the property under its
    /// source name.
    static func resolveDiscard(
        _ name: String, source: Model, destination: Model,
        correspondence: SchemaCorrespondence
    ) -> (String, String?)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let first = parts.first else { return nil }
        let entity =
            source.entity(named: first) != nil ? first : correspondence.entities[first]
        guard let entity else { return nil }
        guard parts.count == 2 else { return (entity, nil) }
        let property = parts[1]
        let known =
            source.allAttributes(of: entity).contains { $0.name == property }
            || source.allRelationships(of: entity).contains { $0.name == property }
        return known ? (entity, property) : nil
    }
}
