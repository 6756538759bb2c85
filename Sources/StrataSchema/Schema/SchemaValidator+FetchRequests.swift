// MARK: - Stored fetch requests and configurations

extension SchemaValidator.Run {
    /// Each stored fetch request names an entity of the model.
    mutating func checkFetchRequests() {
        let base = JSONPath.appending(JSONPath.root, key: "fetchRequests")
        for request in model.fetchRequests where model.entity(named: request.entity) == nil {
            let path = JSONPath.appending(
                JSONPath.appending(base, key: request.name), key: "entity")
            report("entity '\(request.entity)' is not an entity of the model", at: path)
        }
    }

    /// Each configuration lists entities of the model, each once.
    mutating func checkConfigurations() {
        let base = JSONPath.appending(JSONPath.root, key: "configurations")
        for configuration in model.configurations {
            let entitiesPath = JSONPath.appending(
                JSONPath.appending(base, key: configuration.name), key: "entities")
            var seen: Set<String> = []
            for (position, name) in configuration.entities.enumerated() {
                let path = JSONPath.appending(entitiesPath, index: position)
                if !seen.insert(name).inserted {
                    report("'\(name)' is listed twice in this configuration", at: path)
                } else if model.entity(named: name) == nil {
                    report("'\(name)' is not an entity of the model", at: path)
                }
            }
        }
    }
}
