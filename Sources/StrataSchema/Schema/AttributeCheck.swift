import StrataValues

/// Every rule of the schema one stored attribute's values must keep —
/// required, lengths, pattern, bounds, and the range of its type — compiled
/// once (the pattern, which rules there are), so checking a value costs a
/// few comparisons.
///
/// The one check of stored values that importing, unarchiving and merging a
/// bundle and `strata check` share; a value is checked as the store keeps it
/// (text as UTF-8, numbers, booleans and dates as numbers).
package struct AttributeCheck: Sendable {
    /// A rule a value can break.
    package enum Rule: String, Sendable {
        case required, minLength, maxLength, pattern, minValue, maxValue, type
    }

    /// A broken rule, with what is wrong (lengths and numbers, never text).
    package struct Violation: Error, Hashable, Sendable {
        /// The rule broken.
        package let rule: Rule
        /// `title has 500 characters, at most 120 allowed`
        package let message: String
        /// The same without the attribute's name, as a save's validation
        /// failure words it: `500 characters, at most 120 allowed`.
        package let detail: String
        /// The pattern a text did not match (not set when it could not be
        /// checked): a caller that may show the text names it beside.
        package var mismatchedPattern: String? = nil
    }

    /// The attribute's name.
    package let name: String
    let type: AttributeType
    let isOptional: Bool
    package let minLength: Int?
    package let maxLength: Int?
    let minValue: Double?
    let maxValue: Double?
    let pattern: AttributePattern?
    /// The same rules as plain numbers: what a caller checking many values
    /// holds per value, with no reference to retain (``Bounds``).
    package let bounds: Bounds

    /// The rules of an ``AttributeCheck`` as plain numbers, to accept the
    /// common value in a comparison or two; a value they do not accept is
    /// checked in full (``AttributeCheck/check(utf8:)``,
    /// ``AttributeCheck/check(number:)``), which says what is wrong.
    ///
    /// Never accepts a value the full check refuses.
    package struct Bounds: Sendable {
        /// Whether NULL is accepted.
        package let isOptional: Bool
        /// The most UTF-8 bytes a text is accepted with unseen: its maximum
        /// length (a text has at most as many characters as bytes); -1 when
        /// every text must be looked at (a pattern).
        let maxBytes: Int
        /// The fewest bytes a text is accepted with unseen: 0, or 1 when a
        /// length of at least 1 is required; more when more is, for the
        /// full check to count characters.
        let minBytes: Int
        /// The numbers accepted unseen, inclusive (dates: within 0000–9999).
        let lowest: Double
        let highest: Double

        /// Whether `byteCount` bytes of text keep the rules unseen.
        @inline(__always)
        package func accepts(textOfBytes byteCount: Int) -> Bool {
            byteCount <= maxBytes && byteCount >= minBytes
        }

        /// Whether `number` keeps the rules (false for NaN: checked in full).
        @inline(__always)
        package func accepts(number: Double) -> Bool {
            number >= lowest && number <= highest
        }
    }

    /// The seconds since 2001 of the years 0000–9999: the dates ISO 8601
    /// text (a bundle, an export) can hold, so the only ones stored.
    static let dates: Range<Double> = -63_145_526_400..<252_423_993_600

    /// The check of `attribute`, or nil when no value of it can break a
    /// rule (an optional attribute without rules, of a type whose every
    /// value is in range).
    ///
    /// - Throws: ``ContextError`` (`invalidSchema`) for a pattern that does
    ///   not compile.
    package init?(_ attribute: Attribute) throws {
        let typeRanged = attribute.type == .date
        guard !attribute.isTransient,
            !attribute.isOptional || typeRanged || attribute.minLength != nil
                || attribute.maxLength != nil || attribute.pattern != nil
                || attribute.minValue != nil || attribute.maxValue != nil
        else { return nil }
        name = attribute.name
        type = attribute.type
        isOptional = attribute.isOptional
        minLength = attribute.minLength
        maxLength = attribute.maxLength
        minValue = attribute.minValue
        maxValue = attribute.maxValue
        pattern = try attribute.pattern.map { try AttributePattern(pattern: $0) }
        let minimum = attribute.minLength ?? 0
        var lowest = attribute.minValue ?? -.infinity
        var highest = attribute.maxValue ?? .infinity
        if attribute.type == .date {
            lowest = max(lowest, Self.dates.lowerBound)
            highest = min(highest, Self.dates.upperBound.nextDown)
        }
        bounds = Bounds(
            isOptional: attribute.isOptional,
            maxBytes: attribute.pattern != nil ? -1 : attribute.maxLength ?? .max,
            // A text of at least one byte has at least one character.
            minBytes: minimum <= 0 ? 0 : minimum == 1 ? 1 : .max,
            lowest: lowest, highest: highest)
    }

    /// Whether a save or an import checks `attribute`'s values: it is
    /// stored and required, or has a length, pattern or bound. The range of
    /// dates is not a rule of theirs (Core Data stores any date), only of
    /// the text formats that cannot hold the others.
    package static func hasRules(_ attribute: Attribute) -> Bool {
        !attribute.isTransient
            && (!attribute.isOptional || attribute.minLength != nil || attribute.maxLength != nil
                || attribute.pattern != nil || attribute.minValue != nil
                || attribute.maxValue != nil)
    }

    /// Whether numbers have bounds of the schema's (not only the range of
    /// dates).
    package var hasValueBounds: Bool { minValue != nil || maxValue != nil }

    /// Whether text values have rules beyond being present.
    package var checksText: Bool { minLength != nil || maxLength != nil || pattern != nil }

    /// Whether number values have rules beyond being present.
    var checksNumbers: Bool { minValue != nil || maxValue != nil || type == .date }

    /// The violation of a missing value (NULL): `required` unless optional.
    package func checkMissing() -> Violation? {
        isOptional
            ? nil
            : Violation(
                rule: .required, message: "\(name) is required", detail: "a value is required")
    }

    /// The first rule the text `utf8` breaks: its length in characters,
    /// then its pattern.
    package func check(utf8: UnsafeBufferPointer<UInt8>) -> Violation? {
        guard checksText else { return nil }
        // A text has at most as many characters as UTF-8 bytes and, when
        // not empty, at least one: most lengths are settled without counting
        // characters (the costly part).
        let bytes = utf8.count
        let withinMaximum = maxLength.map { bytes <= $0 } ?? true
        let withinMinimum = minLength.map { $0 <= min(bytes, 1) } ?? true
        if withinMaximum, withinMinimum, pattern == nil { return nil }
        let text = String(decoding: utf8, as: UTF8.self)
        let length = withinMaximum && withinMinimum ? bytes : text.count
        if let minimum = minLength, length < minimum {
            let detail = "\(length) characters, at least \(minimum) required"
            return Violation(rule: .minLength, message: "\(name) has \(detail)", detail: detail)
        }
        if let maximum = maxLength, length > maximum {
            let detail = "\(length) characters, at most \(maximum) allowed"
            return Violation(rule: .maxLength, message: "\(name) has \(detail)", detail: detail)
        }
        if let pattern {
            do {
                if try !pattern.matchesWhole(text) {
                    let detail = "does not match \(pattern.pattern)"
                    return Violation(
                        rule: .pattern, message: "\(name) \(detail)", detail: detail,
                        mismatchedPattern: pattern.pattern)
                }
            } catch {
                // Neither accepted nor refused: not written.
                return Violation(
                    rule: .pattern,
                    message: "\(name) could not be checked against \(pattern.pattern): \(error)",
                    detail: "could not be checked: \(error)")
            }
        }
        return nil
    }

    /// The first rule `value` breaks: a missing one's (``checkMissing()``),
    /// text's (``check(text:)``) or a number's, date's or boolean's
    /// (``check(number:)``); UUIDs and bytes have none.
    package func check(_ value: AttributeValue?) -> Violation? {
        switch value {
        case nil: checkMissing()
        case .string(let text)?: check(text: text)
        case let value?: value.numericValue.flatMap { check(number: $0) }
        }
    }

    /// The first rule the text `text` breaks (``check(utf8:)``).
    package func check(text: String) -> Violation? {
        guard checksText else { return nil }
        var text = text
        return text.withUTF8 { check(utf8: $0) }
    }

    /// The first rule the number `number` breaks: a date's range, then the
    /// bounds (dates as seconds since 2001, booleans as 0 or 1).
    package func check(number: Double) -> Violation? {
        guard checksNumbers else { return nil }
        if type == .date, !Self.dates.contains(number) {
            let detail = "\(number) is no date of the years 0000–9999"
            return Violation(rule: .type, message: "\(name) \(detail)", detail: detail)
        }
        if let minimum = minValue, number < minimum {
            let detail = "\(show(number)) is below the minimum \(show(minimum))"
            return Violation(rule: .minValue, message: "\(name) \(detail)", detail: detail)
        }
        if let maximum = maxValue, number > maximum {
            let detail = "\(show(number)) is above the maximum \(show(maximum))"
            return Violation(rule: .maxValue, message: "\(name) \(detail)", detail: detail)
        }
        return nil
    }

    private func show(_ value: Double) -> String {
        if type == .date { return ISO8601Date.string(from: value) ?? String(value) }
        if type.isInteger || type == .boolean, let exact = Int64(exactly: value) {
            return String(exact)
        }
        return String(value)
    }
}
