import Foundation
import StrataContext
import StrataSchema

/// Fills a store with deterministic objects that satisfy a model version's
/// rules: every concrete entity gets `count` objects, attributes get values
/// of their type within their bounds (some optional ones nil), relationships
/// link objects round-robin, required ones always.
struct SampleDataGenerator {
    let model: Model
    let count: Int

    /// Inserts and saves the objects; the context's validation has the last
    /// word, so a value the generator cannot make (a `pattern` it cannot
    /// satisfy) fails the save with the attribute named.
    package func fill(_ context: Context) throws {
        var objects: [String: [ManagedObject]] = [:]
        for entity in model.entities where !entity.isAbstract {
            for index in 0..<count {
                let object = try context.insert(entity.name)
                for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient {
                    try object.setValue(value(for: attribute, index), forKey: attribute.name)
                }
                objects[entity.name, default: []].append(object)
            }
        }
        for entity in model.entities where !entity.isAbstract {
            for (index, object) in (objects[entity.name] ?? []).enumerated() {
                try link(object, index, of: entity.name, among: objects)
            }
        }
        try context.save()
    }

    /// Links `object` through each relationship it owns the choice of:
    /// to-ones, and to-manys whose inverse is to-many too (many-to-many).
    private func link(
        _ object: ManagedObject, _ index: Int, of entity: String,
        among objects: [String: [ManagedObject]]
    ) throws {
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            let destinations = family(of: relationship.destination).flatMap { objects[$0] ?? [] }
            guard !destinations.isEmpty else { continue }
            let inverse = model.allRelationships(of: relationship.destination)
                .first { $0.name == relationship.inverse }
            if !relationship.isToMany {
                if relationship.isOptional && index % 3 == 2 { continue }
                if inverse?.isToMany == false {
                    // One-to-one: a destination can hold one object only.
                    if index < destinations.count {
                        try object.setObject(destinations[index], forKey: relationship.name)
                    }
                } else {
                    try object.setObject(
                        destinations[index % destinations.count], forKey: relationship.name)
                }
            } else if inverse?.isToMany == true || inverse == nil {
                let wanted = max(relationship.minCount, relationship.isOptional ? 0 : 1, 2)
                for offset in 0..<min(wanted, destinations.count) {
                    try object.add(
                        destinations[(index + offset) % destinations.count], to: relationship.name)
                }
            }
        }
    }

    /// `entity` and every entity below it.
    private func family(of entity: String) -> [String] {
        [entity] + model.subentities(of: entity).flatMap { family(of: $0.name) }
    }

    /// A value for `attribute` of the `index`-th object.
    private func value(for attribute: Attribute, _ index: Int) -> AttributeValue? {
        if attribute.isOptional && index % 4 == 3 { return nil }
        if attribute.defaultValue != nil && index % 4 == 2 {
            if case .literal(let value)? = attribute.defaultValue { return value }
        }
        let low = attribute.minValue ?? -1_000_000
        let high = attribute.maxValue ?? 1_000_000
        func clamped(_ number: Double) -> Double { min(max(number, low), high) }
        switch attribute.type {
        case .string:
            return .string(text(for: attribute, index))
        case .integer16, .integer32, .integer64:
            let limit: Double = attribute.type == .integer16 ? 32_767 : 1_000_000
            return .integer(Int64(min(clamped(Double(index * 7 + 1)), limit)))
        case .decimal, .double, .float:
            return .real(clamped(Double(index) * 1.5 + 0.25))
        case .boolean:
            return .boolean(index % 2 == 0)
        case .date:
            return .date(clamped(Double(700_000_000 + index * 86_400)))
        case .binary, .transformable:
            return .data(Data("bytes \(index)".utf8))
        case .uuid:
            let hex = String(format: "%012X", index + 1)
            return UUID(uuidString: "00000000-0000-4000-8000-\(hex)").map { .uuid($0) }
        case .uri:
            return .string("https://example.com/\(index)")
        }
    }

    /// A string within the attribute's lengths; for a pattern that is a
    /// list of alternatives (`^(image|sound)$`), one of them.
    private func text(for attribute: Attribute, _ index: Int) -> String {
        if let pattern = attribute.pattern {
            let body = pattern.trimmingCharacters(in: CharacterSet(charactersIn: "^$()"))
            let choices = body.split(separator: "|").map(String.init)
            if !choices.isEmpty,
                choices.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber } })
            {
                return choices[index % choices.count]
            }
        }
        var text = "\(attribute.name) \(index)"
        if let minLength = attribute.minLength, text.count < minLength {
            text += String(repeating: "x", count: minLength - text.count)
        }
        if let maxLength = attribute.maxLength, text.count > maxLength {
            text = String(text.prefix(maxLength))
        }
        return text
    }
}
