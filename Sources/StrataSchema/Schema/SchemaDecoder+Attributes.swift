import StrataValues

// MARK: - Attributes

extension SchemaDecoder {
    static let attributeKeys = [
        "type", "optional", "transient", "default", "indexed", "minValue", "maxValue",
        "minLength", "maxLength", "pattern", "externalStorage", "preserveAfterDeletion",
        "valueTransformer", "touch", "media", "importKeys", "dateFormat", "renamedFrom",
        "renamingIdentifier", "versionHashModifier", "userInfo", "comment",
    ]

    /// The types each type-specific key applies to; other keys apply to all.
    static let keyTypes: [String: Set<AttributeType>] = [
        "minValue": numericOrDate, "maxValue": numericOrDate,
        "minLength": [.string], "maxLength": [.string], "pattern": [.string],
        "externalStorage": [.binary, .transformable], "media": [.binary],
        "valueTransformer": [.transformable], "touch": [.date], "dateFormat": [.date],
    ]

    static let numericOrDate: Set<AttributeType> = Set(
        AttributeType.allCases.filter { $0.isNumeric || $0 == .date })

    static var typeList: String {
        AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

extension SchemaDecoder.State {
    mutating func decodeAttribute(name: String, node: RecordField, path: String) -> Attribute {
        // Until the type is known a string stands in, so that the attribute's
        // name still resolves for constraints and duplicates.
        var attribute = Attribute(name: name, type: .string)
        guard
            let fields = fields(
                of: node, at: path, allowed: SchemaDecoder.attributeKeys,
                what: "attribute '\(name)'")
        else {
            placeholders.insert(path)
            return attribute
        }
        let type = decodeType(fields)
        if let type { attribute.type = type }
        attribute.isOptional = bool(fields, "optional") ?? false
        attribute.isTransient = bool(fields, "transient") ?? false
        attribute.isIndexed = bool(fields, "indexed") ?? false
        attribute.preservesValueOnDeletion = bool(fields, "preserveAfterDeletion") ?? false
        attribute.importKeys = stringList(fields, "importKeys", what: "import keys") ?? []
        attribute.renamedFrom = string(fields, "renamedFrom")
        attribute.renamingIdentifier = string(fields, "renamingIdentifier")
        attribute.versionHashModifier = string(fields, "versionHashModifier")
        attribute.userInfo = userInfo(fields)
        attribute.comment = string(fields, "comment")

        // Type-specific keys are read only when the type is known and fits.
        if applies("default", fields, type), let node = fields.values["default"], let type {
            attribute.defaultValue = decodeDefault(node, type: type, at: fields.path("default"))
        }
        if applies("minValue", fields, type), let node = fields.values["minValue"], let type {
            attribute.minValue = decodeBound(node, type: type, at: fields.path("minValue"))
        }
        if applies("maxValue", fields, type), let node = fields.values["maxValue"], let type {
            attribute.maxValue = decodeBound(node, type: type, at: fields.path("maxValue"))
        }
        if applies("minLength", fields, type) { attribute.minLength = count(fields, "minLength") }
        if applies("maxLength", fields, type) { attribute.maxLength = count(fields, "maxLength") }
        if applies("pattern", fields, type) { attribute.pattern = string(fields, "pattern") }
        if applies("externalStorage", fields, type) {
            attribute.allowsExternalStorage = bool(fields, "externalStorage") ?? false
        }
        if applies("media", fields, type) { attribute.isMedia = bool(fields, "media") ?? false }
        if applies("valueTransformer", fields, type) {
            attribute.valueTransformer = string(fields, "valueTransformer")
        }
        if applies("dateFormat", fields, type) {
            attribute.dateFormat = string(fields, "dateFormat")
        }
        if applies("touch", fields, type), let touch = fields.values["touch"] {
            if case .text("save") = touch.value {
                attribute.touchesOnSave = true
            } else {
                report(
                    "expected \"save\" (the only touch), found \(touch.summary)",
                    at: fields.path("touch"), node: touch)
            }
        }
        return attribute
    }

    mutating func decodeType(_ fields: SchemaDecoder.Fields) -> AttributeType? {
        guard let node = fields.values["type"] else {
            report(
                "missing key 'type'; expected one of \(SchemaDecoder.typeList)", at: fields.path,
                node: fields.node)
            placeholders.insert(fields.path("type"))
            return nil
        }
        guard case .text(let text) = node.value, let type = AttributeType(rawValue: text) else {
            report(
                "unknown attribute type \(node.summary); expected one of "
                    + SchemaDecoder.typeList, at: fields.path("type"), node: node)
            placeholders.insert(fields.path("type"))
            return nil
        }
        return type
    }

    /// Whether `key` is present and may be read for `type`; reports it when it
    /// does not apply. An unknown type was reported already, so it is skipped.
    mutating func applies(
        _ key: String, _ fields: SchemaDecoder.Fields, _ type: AttributeType?
    ) -> Bool {
        guard let node = fields.values[key], let type else { return false }
        if let types = SchemaDecoder.keyTypes[key], !types.contains(type) {
            let names = AttributeType.allCases.filter(types.contains).map(\.rawValue)
            report(
                "'\(key)' applies only to \(names.joined(separator: ", ")) attributes, "
                    + "not \(type.rawValue)", at: fields.path(key), node: node)
            return false
        }
        return true
    }

    /// A `minValue` or `maxValue`: a number of the type's range, or for dates
    /// ISO-8601 text or seconds since 2001.
    mutating func decodeBound(_ node: RecordField, type: AttributeType, at path: String) -> Double?
    {
        if type == .date { return decodeDate(node, at: path, allowNow: false).flatMap { $0 } }
        if let range = integerRange(type) {
            return integer(node, at: path, in: range, expected: integerExpectation(type))
                .map { Double($0) }
        }
        return decodeReal(node, type: type, at: path)
    }
}
