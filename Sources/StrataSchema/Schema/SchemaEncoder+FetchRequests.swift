// MARK: - Stored fetch requests and configurations

extension SchemaEncoder.Writer {
    /// `"name": { "entity": …, "predicate": …, "options": { … } }`.
    static func fetchRequestLine(_ request: FetchRequestTemplate) -> String {
        var fields = [("entity", quote(request.entity))]
        if let predicate = request.predicate { fields.append(("predicate", quote(predicate))) }
        if !request.options.isEmpty { fields.append(("options", map(request.options))) }
        return member(request.name, fields)
    }

    /// `"name": { "entities": [ … ], "usedWithCloudKit": true }`.
    static func configurationLine(_ configuration: ModelConfiguration) -> String {
        var fields = [("entities", list(configuration.entities))]
        if configuration.isUsedWithCloudKit { fields.append(("usedWithCloudKit", "true")) }
        return member(configuration.name, fields)
    }
}
