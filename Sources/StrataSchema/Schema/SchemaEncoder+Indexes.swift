// MARK: - Fetch indexes and user info

extension SchemaEncoder.Writer {
    /// `{"name": …, "elements": [{"property": …}, …]}`, leaving out the
    /// default order (ascending) and type (binary).
    static func index(_ index: FetchIndex) -> String {
        let elements = index.elements.map { element in
            var fields = [("property", quote(element.property))]
            if element.order != .ascending {
                fields.append(("order", quote(element.order.rawValue)))
            }
            if element.kind != .binary { fields.append(("type", quote(element.kind.rawValue))) }
            return "{" + fields.map { "\(quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "{\"name\": \(quote(index.name)), \"elements\": ["
            + elements.joined(separator: ", ") + "]}"
    }

    /// An object of strings with its keys sorted, on one line.
    static func map(_ values: [String: String]) -> String {
        let members = values.keys.sorted().map { "\(quote($0)): \(quote(values[$0] ?? ""))" }
        return "{ " + members.joined(separator: ", ") + " }"
    }
}
