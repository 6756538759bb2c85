import Foundation

// MARK: - Validation

extension Context {
    /// Every rule broken by the inserted and updated objects: required
    /// values, string lengths, patterns, number and date bounds, relationship
    /// counts, and the entities' save rules.
    func validationFailures() throws -> [ValidationError.Failure] {
        var failures: [ValidationError.Failure] = []
        let objects = ((savingInserted ?? inserted.values) + Array(updated.values)).filter {
            !$0.isDeleted
        }
        for object in objects {
            failures += try validate(object)
            if !saveHooks.isEmpty,
                let rule = saveHooks[object.entityName]
                    ?? inheritedSaveRule(for: object.entityName),
                let message = rule(object)
            {
                failures.append(
                    .init(
                        object: object.objectID, property: nil, rule: "saveRule", message: message))
            }
        }
        guard !failures.isEmpty else { return failures }
        // Reported in a stable order: by entity, then by insertion (temporary
        // ids) or key order, each object's failures as found.
        let order = Dictionary(
            objects.map { ($0.objectID, ($0.entityName, $0.objectID.key.magnitude)) }
        ) {
            first, _ in first
        }
        return failures.enumerated().sorted { lhs, rhs in
            let left = order[lhs.element.object] ?? ("", 0)
            let right = order[rhs.element.object] ?? ("", 0)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    private func inheritedSaveRule(for entityName: String) -> ((ManagedObject) -> String?)? {
        model.ancestors(of: entityName).lazy.compactMap { self.saveHooks[$0.name] }.first
    }

    private func validate(_ object: ManagedObject) throws -> [ValidationError.Failure] {
        var failures: [ValidationError.Failure] = []
        let description = object.description_
        func fail(_ property: String, _ rule: String, _ message: String) {
            failures.append(
                .init(object: object.objectID, property: property, rule: rule, message: message))
        }
        let values = object.state.values  // one read of the array, not one per rule
        for rule in description.validationRules {
            let index = rule.index
            guard let value = values[index] else {
                if !rule.isOptional {
                    fail(description.attributeNames[index], "required", "a value is required")
                }
                continue
            }
            switch value {
            case .string(let text):
                if rule.minLength != nil || rule.maxLength != nil {
                    let length = text.count
                    if let minimum = rule.minLength, length < minimum {
                        fail(
                            description.attributeNames[index], "minLength",
                            "\(length) characters, at least \(minimum) required")
                    }
                    if let maximum = rule.maxLength, length > maximum {
                        fail(
                            description.attributeNames[index], "maxLength",
                            "\(length) characters, at most \(maximum) allowed")
                    }
                }
                if rule.hasPattern, let pattern = description.patterns[index] {
                    let attribute = description.attributes[index]
                    do {
                        if try !pattern.matchesWhole(text) {
                            fail(attribute.name, "pattern", "does not match \(pattern.pattern)")
                        }
                    } catch let error as RegexError {
                        // Neither accepted nor refused: the save stops.
                        fail(attribute.name, "pattern", "could not be checked: \(error)")
                    }
                }
            default:
                if rule.minValue != nil || rule.maxValue != nil, let number = value.numericValue {
                    let attribute = description.attributes[index]
                    if let minimum = rule.minValue, number < minimum {
                        fail(
                            attribute.name, "minValue",
                            "\(describe(value)) is below the minimum \(describe(minimum, attribute))"
                        )
                    }
                    if let maximum = rule.maxValue, number > maximum {
                        fail(
                            attribute.name, "maxValue",
                            "\(describe(value)) is above the maximum \(describe(maximum, attribute))"
                        )
                    }
                }
            }
        }
        for (index, relationship) in description.relationships.enumerated()
        where !relationship.isTransient {
            if relationship.isToMany {
                let count = try toManyIDs(of: object, index).filter {
                    registered($0)?.isDeleted != true
                }.count
                if count == 0 {
                    if !relationship.isOptional {
                        fail(relationship.name, "required", "at least one object is required")
                    }
                    continue
                }
                if relationship.minCount > 0, count < relationship.minCount {
                    fail(
                        relationship.name, "minCount",
                        "\(count) objects, at least \(relationship.minCount) required")
                }
                if relationship.maxCount > 0, count > relationship.maxCount {
                    fail(
                        relationship.name, "maxCount",
                        "\(count) objects, at most \(relationship.maxCount) allowed")
                }
            } else if !relationship.isOptional {
                let isPresent =
                    object.state.toOne[index].map { registered($0)?.isDeleted != true } ?? false
                if !isPresent {
                    fail(relationship.name, "required", "a destination object is required")
                }
            }
        }
        return failures
    }

    private func describe(_ value: AttributeValue) -> String {
        switch value {
        case .date(let seconds):
            ISO8601DateFormatter().string(from: Date(timeIntervalSinceReferenceDate: seconds))
        case .integer(let number): String(number)
        case .real(let number): String(number)
        default: "\(value)"
        }
    }

    private func describe(_ bound: Double, _ attribute: Attribute) -> String {
        attribute.type == .date
            ? describe(.date(bound))
            : (attribute.type.isInteger ? String(Int64(bound)) : String(bound))
    }
}
