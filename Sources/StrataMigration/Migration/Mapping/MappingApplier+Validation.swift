import Foundation
import StrataQuery
import StrataSchema

// MARK: - Validating mapped values

extension MappingApplier {
    /// Checks a value about to be written against the rules its attribute
    /// declares beyond its type (``AttributeCheck``, the check every writer
    /// uses): `minLength`/`maxLength` and `pattern` for text,
    /// `minValue`/`maxValue` for numbers and dates. A nil value passes
    /// (required values are the stage's checks' business).
    ///
    /// Written with SQL, mapped values skip the validation a context's save
    /// does, so a value that breaks a rule would otherwise land in the store.
    /// The message names the rule, not the value.
    ///
    /// - Throws: ``ExpressionError`` (column 1) naming the broken rule.
    package func checkRules(
        _ value: AttributeValue?, of attribute: Attribute
    ) throws(ExpressionError) {
        func refuse(_ message: String) -> ExpressionError {
            ExpressionError(column: 1, message: message)
        }
        guard let value,
            attribute.minLength != nil || attribute.maxLength != nil || attribute.pattern != nil
                || attribute.minValue != nil || attribute.maxValue != nil,
            let check = try ruleCheck(of: attribute)
        else { return }
        // As a context's validation: text, numbers, booleans and dates.
        guard let violation = check.check(value) else { return }
        let name = attribute.name
        // The message names the rule, not the value: it is said of a
        // mapping's expression, for every row it runs on.
        switch violation.rule {
        case .maxLength, .minLength:
            guard case .string(let text) = value else { return }
            throw refuse(
                "the text has \(text.count) characters; \(name) "
                    + (violation.rule == .maxLength
                        ? "allows at most \(check.maxLength ?? 0)"
                        : "needs at least \(check.minLength ?? 0)"))
        case .pattern:
            throw refuse(
                violation.mismatchedPattern != nil
                    ? "the text does not match the pattern of \(name)"
                    : "the pattern of \(name) \(violation.detail)")
        case .minValue: throw refuse("the value is below the minimum of \(name)")
        case .maxValue: throw refuse("the value is above the maximum of \(name)")
        case .required, .type: return  // The stage's checks' business; any date is stored.
        }
    }

    /// The compiled rules of `attribute` (``AttributeCheck``), once per
    /// attribute of a run; nil when it has none a value can break.
    private func ruleCheck(of attribute: Attribute) throws(ExpressionError) -> AttributeCheck? {
        // By name first: hashing a whole attribute for every value costs more
        // than comparing the few of one name.
        if let known = checks[attribute.name]?.first(where: { $0.attribute == attribute }) {
            return known.check
        }
        let check: AttributeCheck?
        do {
            check = try AttributeCheck(attribute)
        } catch {
            throw ExpressionError(
                column: 1,
                message: "the pattern of \(attribute.name) could not be checked: \(error)")
        }
        checks[attribute.name, default: []].append((attribute, check))
        return check
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
