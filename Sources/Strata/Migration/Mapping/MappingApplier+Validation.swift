import Foundation

// MARK: - Validating mapped values

extension MappingApplier {
    /// Checks a value about to be written against the rules its attribute
    /// declares beyond its type: `minLength`/`maxLength` and `pattern` for
    /// text, `minValue`/`maxValue` for numbers and dates. A nil value passes
    /// (required values are the stage's checks' business).
    ///
    /// Written with SQL, mapped values skip the validation a context's save
    /// does, so a value that breaks a rule would otherwise land in the store.
    /// The message names the rule, not the value.
    ///
    /// - Throws: ``ExpressionError`` (column 1) naming the broken rule.
    func checkRules(
        _ value: AttributeValue?, of attribute: Attribute
    ) throws(ExpressionError) {
        func refuse(_ message: String) -> ExpressionError {
            ExpressionError(column: 1, message: message)
        }
        switch value {
        case nil:
            return
        case .string(let text):
            if attribute.minLength != nil || attribute.maxLength != nil {
                let length = text.count
                if let maximum = attribute.maxLength, length > maximum {
                    throw refuse(
                        "the text has \(length) characters; \(attribute.name) allows at most "
                            + "\(maximum)")
                }
                if let minimum = attribute.minLength, length < minimum {
                    throw refuse(
                        "the text has \(length) characters; \(attribute.name) needs at least "
                            + "\(minimum)")
                }
            }
            if let pattern = attribute.pattern {
                let matched: Bool
                do {
                    if patterns[pattern] == nil {
                        patterns[pattern] = try AttributePattern(pattern: pattern)
                    }
                    matched = try patterns[pattern]?.matchesWhole(text) == true
                } catch {
                    throw refuse("the pattern of \(attribute.name) could not be checked: \(error)")
                }
                if !matched {
                    throw refuse("the text does not match the pattern of \(attribute.name)")
                }
            }
        case let value?:
            // As a context's validation: numbers, booleans and dates.
            guard let number = value.numericValue else { return }
            if let minimum = attribute.minValue, number < minimum {
                throw refuse("the value is below the minimum of \(attribute.name)")
            }
            if let maximum = attribute.maxValue, number > maximum {
                throw refuse("the value is above the maximum of \(attribute.name)")
            }
        }
    }

    /// `value` as `attribute` stores it, checked against its rules.
    func storable(
        _ value: MappingValue, for attribute: Attribute
    ) throws(ExpressionError) -> AttributeValue? {
        let converted = try value.attributeValue(for: attribute)
        try checkRules(converted, of: attribute)
        return converted
    }
}
