import StrataValues

// MARK: - Fetch indexes and user info

extension SchemaDecoder {
    static let indexKeys = ["name", "elements"]
    static let indexElementKeys = ["property", "order", "type"]
}

extension SchemaDecoder.State {
    /// `"indexes": [{"name": …, "elements": [{"property": …}, …]}, …]`.
    mutating func decodeIndexes(_ node: RecordField, at path: String) -> [FetchIndex] {
        guard case .array(let elements) = node.value else {
            report(
                "expected a list of fetch indexes, each {\"name\": …, \"elements\": […]}, "
                    + "found \(node.summary)", at: path, node: node)
            return []
        }
        var indexes: [FetchIndex] = []
        for (position, element) in elements.enumerated() {
            let indexPath = JSONPath.appending(path, index: position)
            locations[indexPath] = SourcePosition(
                file: file, line: element.line, column: element.column)
            // An index that cannot be read stays as a placeholder so that later
            // ones keep their position in issue paths.
            var index = FetchIndex(name: "", elements: [])
            guard
                let fields = fields(
                    of: element, at: indexPath, allowed: SchemaDecoder.indexKeys,
                    what: "a fetch index")
            else {
                placeholders.insert(indexPath)
                indexes.append(index)
                continue
            }
            index.name = string(fields, "name", required: "the index's name") ?? ""
            if let list = fields.values["elements"] {
                index.elements = decodeIndexElements(list, at: fields.path("elements"))
            } else {
                report(
                    "missing key 'elements'; expected a list of indexed properties",
                    at: indexPath, node: element)
                placeholders.insert(fields.path("elements"))
            }
            indexes.append(index)
        }
        return indexes
    }

    mutating func decodeIndexElements(_ node: RecordField, at path: String) -> [FetchIndex.Element]
    {
        guard case .array(let members) = node.value else {
            report(
                "expected a list of indexed properties, each {\"property\": …}, found "
                    + node.summary, at: path, node: node)
            placeholders.insert(path)
            return []
        }
        var elements: [FetchIndex.Element] = []
        for (position, member) in members.enumerated() {
            let elementPath = JSONPath.appending(path, index: position)
            locations[elementPath] = SourcePosition(
                file: file, line: member.keyLine, column: member.keyColumn)
            var element = FetchIndex.Element(property: "")
            guard
                let fields = fields(
                    of: member, at: elementPath, allowed: SchemaDecoder.indexElementKeys,
                    what: "an index element")
            else {
                placeholders.insert(elementPath)
                elements.append(element)
                continue
            }
            element.property =
                string(fields, "property", required: "an attribute or to-one relationship") ?? ""
            element.order = choice(fields, "order", as: FetchIndex.Order.self) ?? .ascending
            element.kind = choice(fields, "type", as: FetchIndex.Kind.self) ?? .binary
            elements.append(element)
        }
        return elements
    }

    /// One of the raw values of `T`; reports any other value, listing them.
    mutating func choice<T: RawRepresentable & CaseIterable>(
        _ fields: SchemaDecoder.Fields, _ key: String, as type: T.Type
    ) -> T? where T.RawValue == String {
        guard let node = fields.values[key] else { return nil }
        if case .text(let text) = node.value, let value = T(rawValue: text) { return value }
        let valid = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        report(
            "expected one of \(valid), found \(node.summary)", at: fields.path(key), node: node)
        return nil
    }

    /// `"userInfo": {"key": "value", …}`: an object of strings.
    mutating func userInfo(_ fields: SchemaDecoder.Fields) -> [String: String] {
        guard let node = fields.values["userInfo"] else { return [:] }
        return stringMap(node, at: fields.path("userInfo"), what: "user info")
    }
}
