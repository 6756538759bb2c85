import StrataValues

// MARK: - Entities and relationships

extension SchemaDecoder {
    static let entityKeys = [
        "parent", "abstract", "renamedFrom", "renamingIdentifier", "versionHashModifier",
        "uniquenessConstraints",
        "indexes", "userInfo", "comment", "attributes", "relationships",
    ]

    static let relationshipKeys = [
        "destination", "inverse", "toMany", "ordered", "optional", "transient", "minCount",
        "maxCount", "deleteRule", "relatedBy", "renamedFrom", "renamingIdentifier",
        "versionHashModifier", "userInfo", "comment",
    ]
}

extension SchemaDecoder.State {
    mutating func decodeEntity(name: String, node: RecordField, path: String) -> Entity {
        var entity = Entity(name: name)
        guard
            let fields = fields(
                of: node, at: path, allowed: SchemaDecoder.entityKeys, what: "entity '\(name)'")
        else {
            placeholders.insert(path)
            return entity
        }
        entity.parent = string(fields, "parent")
        entity.isAbstract = bool(fields, "abstract") ?? false
        entity.renamedFrom = string(fields, "renamedFrom")
        entity.renamingIdentifier = string(fields, "renamingIdentifier")
        entity.versionHashModifier = string(fields, "versionHashModifier")
        if let constraints = fields.values["uniquenessConstraints"] {
            entity.uniquenessConstraints = decodeConstraints(
                constraints, at: fields.path("uniquenessConstraints"))
        }
        if let indexes = fields.values["indexes"] {
            entity.indexes = decodeIndexes(indexes, at: fields.path("indexes"))
        }
        entity.userInfo = userInfo(fields)
        entity.comment = string(fields, "comment")
        if let attributes = fields.values["attributes"] {
            entity.attributes = namedMembers(
                of: attributes, at: fields.path("attributes"), what: "attributes"
            ).map { decodeAttribute(name: $0.name, node: $0.node, path: $0.path) }
        }
        if let relationships = fields.values["relationships"] {
            entity.relationships = namedMembers(
                of: relationships, at: fields.path("relationships"), what: "relationships"
            ).map { decodeRelationship(name: $0.name, node: $0.node, path: $0.path) }
        }
        // The file's order, which the sorted lists above lose.
        var listed: [String] = []
        for group in ["attributes", "relationships"] {
            guard let node = fields.values[group], case .dictionary(let members) = node.value
            else { continue }
            listed += members.map(\.key)
        }
        entity.declaredOrder = PropertyOrder(listed)
        return entity
    }

    mutating func decodeConstraints(_ node: RecordField, at path: String) -> [[String]] {
        let expected = "a list of uniqueness constraints, each a list of attribute names"
        guard case .array(let elements) = node.value else {
            report("expected \(expected), found \(node.summary)", at: path, node: node)
            return []
        }
        var constraints: [[String]] = []
        for (index, element) in elements.enumerated() {
            let elementPath = JSONPath.appending(path, index: index)
            locations[elementPath] = SourcePosition(
                file: file, line: element.line, column: element.column)
            // A constraint that cannot be read stays as an empty placeholder so
            // that later constraints keep their index in issue paths.
            guard let names = stringList(element, at: elementPath, what: "attribute names") else {
                placeholders.insert(elementPath)
                constraints.append([])
                continue
            }
            constraints.append(names)
        }
        return constraints
    }

    mutating func decodeRelationship(name: String, node: RecordField, path: String) -> Relationship
    {
        var relationship = Relationship(name: name, destination: "", inverse: "")
        guard
            let fields = fields(
                of: node, at: path, allowed: SchemaDecoder.relationshipKeys,
                what: "relationship '\(name)'")
        else {
            placeholders.insert(path)
            return relationship
        }
        relationship.destination =
            string(fields, "destination", required: "the name of the destination entity") ?? ""
        // Optional, as in Core Data: the validator warns when it is missing.
        relationship.inverse = string(fields, "inverse") ?? ""
        relationship.isToMany = bool(fields, "toMany") ?? false
        relationship.isOrdered = bool(fields, "ordered") ?? false
        relationship.isOptional = bool(fields, "optional") ?? false
        relationship.isTransient = bool(fields, "transient") ?? false
        relationship.minCount = count(fields, "minCount") ?? 0
        relationship.maxCount = count(fields, "maxCount") ?? 0
        if let rule = fields.values["deleteRule"] {
            if case .text(let text) = rule.value, let deleteRule = DeleteRule(rawValue: text) {
                relationship.deleteRule = deleteRule
            } else {
                let valid = DeleteRule.allCases.map { "\"\($0.rawValue)\"" }
                report(
                    "unknown delete rule \(rule.summary); expected one of "
                        + valid.joined(separator: ", "), at: fields.path("deleteRule"), node: rule)
            }
        }
        relationship.relatedBy = string(fields, "relatedBy")
        relationship.renamedFrom = string(fields, "renamedFrom")
        relationship.renamingIdentifier = string(fields, "renamingIdentifier")
        relationship.versionHashModifier = string(fields, "versionHashModifier")
        relationship.userInfo = userInfo(fields)
        relationship.comment = string(fields, "comment")
        return relationship
    }
}
