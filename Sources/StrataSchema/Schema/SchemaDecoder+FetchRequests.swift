import StrataValues

// MARK: - Stored fetch requests and configurations

extension SchemaDecoder {
    static let fetchRequestKeys = ["entity", "predicate", "options"]
    static let configurationKeys = ["entities", "usedWithCloudKit"]
}

extension SchemaDecoder.State {
    /// `"fetchRequests": {"<name>": {"entity": …, "predicate": …, "options": {…}}}`.
    mutating func decodeFetchRequests(_ node: RecordField, at path: String)
        -> [FetchRequestTemplate]
    {
        namedMembers(of: node, at: path, what: "fetch requests").map { member in
            var request = FetchRequestTemplate(name: member.name, entity: "")
            guard
                let fields = fields(
                    of: member.node, at: member.path, allowed: SchemaDecoder.fetchRequestKeys,
                    what: "fetch request '\(member.name)'")
            else {
                placeholders.insert(member.path)
                return request
            }
            request.entity =
                string(fields, "entity", required: "the name of the entity it fetches") ?? ""
            request.predicate = string(fields, "predicate")
            if let options = fields.values["options"] {
                request.options = stringMap(
                    options, at: fields.path("options"), what: "fetch request options")
            }
            return request
        }
    }

    /// `"configurations": {"<name>": {"entities": […], "usedWithCloudKit": true}}`.
    mutating func decodeConfigurations(_ node: RecordField, at path: String) -> [ModelConfiguration]
    {
        namedMembers(of: node, at: path, what: "configurations").map { member in
            var configuration = ModelConfiguration(name: member.name, entities: [])
            guard
                let fields = fields(
                    of: member.node, at: member.path, allowed: SchemaDecoder.configurationKeys,
                    what: "configuration '\(member.name)'")
            else {
                placeholders.insert(member.path)
                return configuration
            }
            configuration.entities =
                stringList(fields, "entities", what: "entity names") ?? []
            configuration.isUsedWithCloudKit = bool(fields, "usedWithCloudKit") ?? false
            return configuration
        }
    }

    /// An object whose values are all strings.
    mutating func stringMap(_ node: RecordField, at path: String, what: String) -> [String: String]
    {
        var result: [String: String] = [:]
        for member in namedMembers(of: node, at: path, what: what) {
            guard case .text(let text) = member.node.value else {
                report(
                    "expected a string value, found \(member.node.summary)", at: member.path,
                    node: member.node)
                continue
            }
            result[member.name] = text
        }
        return result
    }
}
