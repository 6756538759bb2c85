import Foundation
import StrataSchema

// MARK: - Validation

extension Context {
    /// Every rule broken by the inserted and updated objects: required
    /// values, string lengths, patterns, number and date bounds, relationship
    /// counts, and the entities' save rules.
    func validationFailures() throws -> [ValidationError.Failure] {
        var failures: [ValidationError.Failure] = []
        let insertedObjects = savingInserted ?? inserted.values
        // Inserted objects are never deleted (a deleted one is no longer
        // inserted): only updated ones need filtering, and a bulk insert has
        // none.
        let objects =
            updated.isEmpty
            ? insertedObjects : (insertedObjects + Array(updated.values)).filter { !$0.isDeleted }
        // Read once: no rule runs (and none can add one) while there are none.
        let hasSaveHooks = !saveHooks.isEmpty
        for object in objects {
            try validate(object, into: &failures)
            if hasSaveHooks,
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

    /// Appends the rules `object` breaks to `failures`.
    private func validate(_ object: ManagedObject, into failures: inout [ValidationError.Failure])
        throws
    {
        let description = object.description_
        func fail(_ property: String, _ rule: String, _ message: String) {
            failures.append(
                .init(object: object.objectID, property: property, rule: rule, message: message))
        }
        for (position, bounds) in description.attributeBounds.enumerated() {
            // The bounds settle the common value, read in place; only the
            // rest are checked in full (``AttributeCheck``, the rules every
            // writer keeps).
            let index = description.attributeChecks[position].index
            let violation: AttributeCheck.Violation?
            if let byteCount = object.state.values.textByteCount(at: index) {
                guard !bounds.accepts(textOfBytes: byteCount),
                    case .string(let text)? = object.state.values[index]
                else { continue }
                violation = description.attributeChecks[position].check.check(text: text)
            } else if let value = object.state.values[index] {
                guard let number = value.numericValue, !bounds.accepts(number: number) else {
                    continue
                }
                violation = description.attributeChecks[position].check.check(number: number)
            } else {
                guard !bounds.isOptional else { continue }
                violation = description.attributeChecks[position].check.checkMissing()
            }
            // A date beyond the years 0000–9999 is not a save's concern.
            if let violation, violation.rule != .type {
                fail(description.attributeNames[index], violation.rule.rawValue, violation.detail)
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
    }
}
