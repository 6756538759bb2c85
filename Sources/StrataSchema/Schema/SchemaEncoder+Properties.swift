import Foundation

// MARK: - Attributes and relationships

extension SchemaEncoder.Writer {
    /// `"name": { … }` with the keys in ``SchemaDecoder/attributeKeys`` order.
    mutating func attributeLine(_ attribute: Attribute, in entity: Entity) -> String {
        let path = SchemaValidator.Run.path(entity.name, "attributes", attribute.name)
        let isDate = attribute.type == .date
        var fields: [(String, String)] = [("type", Self.quote(attribute.type.rawValue))]
        if attribute.isOptional { fields.append(("optional", "true")) }
        if attribute.isTransient { fields.append(("transient", "true")) }
        if let value = attribute.defaultValue {
            fields.append(("default", literal(value, at: JSONPath.appending(path, key: "default"))))
        }
        if attribute.isIndexed { fields.append(("indexed", "true")) }
        for (key, bound) in [("minValue", attribute.minValue), ("maxValue", attribute.maxValue)] {
            guard let bound else { continue }
            let boundPath = JSONPath.appending(path, key: key)
            fields.append((key, isDate ? date(bound, at: boundPath) : number(bound, at: boundPath)))
        }
        if let length = attribute.minLength { fields.append(("minLength", "\(length)")) }
        if let length = attribute.maxLength { fields.append(("maxLength", "\(length)")) }
        if let pattern = attribute.pattern { fields.append(("pattern", Self.quote(pattern))) }
        if attribute.allowsExternalStorage { fields.append(("externalStorage", "true")) }
        if attribute.preservesValueOnDeletion { fields.append(("preserveAfterDeletion", "true")) }
        if let name = attribute.valueTransformer {
            fields.append(("valueTransformer", Self.quote(name)))
        }
        if attribute.touchesOnSave { fields.append(("touch", "\"save\"")) }
        if attribute.isMedia { fields.append(("media", "true")) }
        if !attribute.importKeys.isEmpty {
            fields.append(("importKeys", Self.list(attribute.importKeys)))
        }
        if let format = attribute.dateFormat { fields.append(("dateFormat", Self.quote(format))) }
        if let name = attribute.renamedFrom { fields.append(("renamedFrom", Self.quote(name))) }
        if let label = attribute.renamingIdentifier {
            fields.append(("renamingIdentifier", Self.quote(label)))
        }
        if let modifier = attribute.versionHashModifier {
            fields.append(("versionHashModifier", Self.quote(modifier)))
        }
        if !attribute.userInfo.isEmpty { fields.append(("userInfo", Self.map(attribute.userInfo))) }
        if let comment = attribute.comment { fields.append(("comment", Self.quote(comment))) }
        return Self.member(attribute.name, fields)
    }

    /// `"name": { … }` with the keys in ``SchemaDecoder/relationshipKeys`` order.
    func relationshipLine(_ relationship: Relationship) -> String {
        var fields: [(String, String)] = [("destination", Self.quote(relationship.destination))]
        if relationship.hasInverse { fields.append(("inverse", Self.quote(relationship.inverse))) }
        if relationship.isToMany { fields.append(("toMany", "true")) }
        if relationship.isOrdered { fields.append(("ordered", "true")) }
        if relationship.isOptional { fields.append(("optional", "true")) }
        if relationship.isTransient { fields.append(("transient", "true")) }
        if relationship.minCount != 0 { fields.append(("minCount", "\(relationship.minCount)")) }
        if relationship.maxCount != 0 { fields.append(("maxCount", "\(relationship.maxCount)")) }
        if relationship.deleteRule != .nullify {
            fields.append(("deleteRule", Self.quote(relationship.deleteRule.rawValue)))
        }
        if let name = relationship.relatedBy { fields.append(("relatedBy", Self.quote(name))) }
        if let name = relationship.renamedFrom { fields.append(("renamedFrom", Self.quote(name))) }
        if let label = relationship.renamingIdentifier {
            fields.append(("renamingIdentifier", Self.quote(label)))
        }
        if let modifier = relationship.versionHashModifier {
            fields.append(("versionHashModifier", Self.quote(modifier)))
        }
        if !relationship.userInfo.isEmpty {
            fields.append(("userInfo", Self.map(relationship.userInfo)))
        }
        if let comment = relationship.comment { fields.append(("comment", Self.quote(comment))) }
        return Self.member(relationship.name, fields)
    }

    static func member(_ name: String, _ fields: [(String, String)]) -> String {
        let body = fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ")
        return "\(quote(name)): { \(body) }"
    }

    mutating func literal(_ value: AttributeDefault, at path: String) -> String {
        switch value {
        case .now: return "\"now\""
        case .uuid: return "\"uuid\""
        case .literal(.integer(let integer)): return "\(integer)"
        case .literal(.real(let real)): return number(real, at: path)
        case .literal(.string(let string)): return Self.quote(string)
        case .literal(.boolean(let flag)): return flag ? "true" : "false"
        case .literal(.date(let seconds)): return date(seconds, at: path)
        case .literal(.data(let data)): return Self.quote(data.base64EncodedString())
        case .literal(.uuid(let uuid)): return Self.quote(uuid.uuidString)
        }
    }
}
