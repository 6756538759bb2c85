import Foundation
import StrataValues

// MARK: - Attributes

extension SchemaValidator.Run {
    mutating func checkAttribute(_ attribute: Attribute, of entity: Entity) {
        func path(_ key: String) -> String { Self.path(attribute: attribute, of: entity, key) }
        if let low = attribute.minValue, let high = attribute.maxValue, low > high {
            report(
                "minValue \(show(low, attribute)) is above maxValue \(show(high, attribute))",
                at: path("minValue"))
        }
        if let low = attribute.minLength, let high = attribute.maxLength, low > high {
            report("minLength \(low) is above maxLength \(high)", at: path("minLength"))
        }
        var regex: RegularExpression?
        if compilesPatterns, let pattern = attribute.pattern {
            do {
                regex = try RegularExpression(pattern)
            } catch {
                let place = error.column.map { " at column \($0)" } ?? ""
                report(
                    "pattern \"\(pattern)\" is not a valid regular expression\(place) "
                        + "(ICU syntax, as NSRegularExpression reads it): \(error.message)",
                    at: path("pattern"))
            }
        }
        checkDefault(of: attribute, regex: regex, at: path("default"))
    }

    /// A default the attribute's own rules refuse would make every new object
    /// invalid until the value is changed.
    mutating func checkDefault(
        of attribute: Attribute, regex: RegularExpression?, at path: String
    ) {
        guard case .literal(let value) = attribute.defaultValue else { return }
        switch value {
        case .integer(let integer): checkRange(Double(integer), attribute, at: path)
        case .real(let real), .date(let real): checkRange(real, attribute, at: path)
        case .string(let text) where attribute.type == .string:
            let length = text.count
            if let low = attribute.minLength, length < low {
                report("default is \(length) characters long, below minLength \(low)", at: path)
            } else if let high = attribute.maxLength, length > high {
                report("default is \(length) characters long, above maxLength \(high)", at: path)
            } else if let regex {
                do {
                    if try !regex.matchesWhole(text) {
                        report("default does not match pattern \"\(regex.pattern)\"", at: path)
                    }
                } catch {
                    report("default could not be checked: \(error)", at: path)
                }
            }
        default:
            break
        }
    }

    mutating func checkRange(_ value: Double, _ attribute: Attribute, at path: String) {
        if let low = attribute.minValue, value < low {
            report(
                "default \(show(value, attribute)) is below minValue \(show(low, attribute))",
                at: path)
        } else if let high = attribute.maxValue, value > high {
            report(
                "default \(show(value, attribute)) is above maxValue \(show(high, attribute))",
                at: path)
        }
    }

    func show(_ value: Double, _ attribute: Attribute) -> String {
        if attribute.type == .date, let text = ISO8601Date.string(from: value) { return text }
        if attribute.type.isInteger, let integer = Int64(exactly: value) { return "\(integer)" }
        return "\(value)"
    }

    // MARK: - Import keys

    /// Each import key (and each attribute name) must lead to one attribute.
    mutating func checkImportKeys(of entity: Entity) {
        // Only an entity's own keys are checked here (inherited ones were
        // checked with the ancestor), so one without keys has nothing to check.
        guard entity.attributes.contains(where: { !$0.importKeys.isEmpty }) else { return }
        var owners: [String: String] = [:]
        for attribute in model.allAttributes(of: entity.name) {
            owners[attribute.name] = attribute.name
        }
        // Keys of inherited attributes were checked with the ancestor.
        for ancestor in model.ancestors(of: entity.name).reversed() {
            for attribute in ancestor.attributes {
                for key in attribute.importKeys where owners[key] == nil {
                    owners[key] = attribute.name
                }
            }
        }
        for attribute in entity.attributes {
            var own: Set<String> = []
            let base = Self.path(attribute: attribute, of: entity, "importKeys")
            for (index, key) in attribute.importKeys.enumerated() {
                let path = JSONPath.appending(base, index: index)
                if !own.insert(key).inserted {
                    report("import key '\(key)' is listed twice", at: path)
                } else if let owner = owners[key], owner != attribute.name {
                    let what = owner == key ? "is the name of" : "is also an import key of"
                    report(
                        "import key '\(key)' \(what) attribute '\(owner)'; an imported field "
                            + "must lead to one attribute", at: path)
                } else {
                    owners[key] = attribute.name
                }
            }
        }
    }
}
