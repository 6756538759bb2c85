import CICU
import Foundation

/// The C handle of one compiled ICU pattern (`URegularExpression *`).
typealias ICURegexHandle = OpaquePointer

/// An ICU regular expression, the dialect of `NSRegularExpression` and of
/// `NSPredicate`'s `MATCHES`, run with ``RegexLimits`` so that a pattern that
/// backtracks without end fails with a ``RegexError`` instead of hanging.
///
/// It owns its ICU handle and a UTF-16 copy of the text it last matched
/// (ICU reads the text in place). A handle is not thread-safe: use one
/// instance per thread, ``copy()`` it for another, or go through
/// ``RegexCache``.
///
/// ```swift
/// let code = try RegularExpression("[A-Z]{3}", options: .caseInsensitive)
/// let whole = try code.matchesWhole("eur")                     // true
/// let first = try code.firstMatch(in: "from usd to eur")?.matchedText   // "fro"
/// ```
package final class RegularExpression {
    /// The pattern, as written.
    package let pattern: String
    /// The options it was compiled with.
    let options: RegexOptions
    private let handle: ICURegexHandle
    /// The UTF-16 text ICU holds a pointer to, grown as needed.
    private var buffer: UnsafeMutableBufferPointer<UInt16>
    /// The limits last given to ICU, so they are set again only on change.
    private var applied: RegexLimits?

    /// Compiles `pattern`.
    ///
    /// - Throws: ``RegexError`` (`invalidPattern`) with ICU's line and
    ///   column of the problem.
    package init(_ pattern: String, options: RegexOptions = []) throws(RegexError) {
        self.pattern = pattern
        self.options = options
        // NUL-terminated: ICU refuses a length of 0, so the empty pattern
        // is passed as a terminated string (-1).
        let units = Array(pattern.utf16) + [0]
        guard let length = Int32(exactly: units.count == 1 ? -1 : units.count - 1) else {
            throw RegexError(
                .textTooLong, pattern: String(pattern.prefix(40)) + "…",
                message: "the pattern is too long for ICU")
        }
        var result = strata_icu_result()
        let opened = units.withUnsafeBufferPointer {
            strata_icu_regex_open(
                $0.baseAddress, length, options.contains(.caseInsensitive) ? 1 : 0, &result)
        }
        guard let opened else {
            throw RegexError(
                .invalidPattern, pattern: pattern, line: result.line > 0 ? Int(result.line) : nil,
                column: Int(max(result.offset, 1)),
                message: Self.reason(result))
        }
        handle = opened
        buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    private init(pattern: String, options: RegexOptions, handle: ICURegexHandle) {
        self.pattern = pattern
        self.options = options
        self.handle = handle
        buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
    }

    deinit {
        strata_icu_regex_close(handle)
        buffer.deallocate()
    }

    /// A second handle on the same compiled pattern, for another thread
    /// (`uregex_clone`: cheaper than compiling again).
    ///
    /// - Throws: ``RegexError`` (`failed`) when ICU cannot allocate it.
    func copy() throws(RegexError) -> RegularExpression {
        var result = strata_icu_result()
        guard let cloned = strata_icu_regex_clone(handle, &result) else { throw error(result) }
        return RegularExpression(pattern: pattern, options: options, handle: cloned)
    }

    /// How many UTF-16 units the text buffer holds (it grows to the
    /// longest text matched).
    var bufferCapacity: Int { buffer.count }

    // MARK: - Matching

    /// Whether the pattern matches all of `text` (`uregex_matches`: every
    /// alternative is tried until one spans the whole text), as `MATCHES`.
    ///
    /// - Throws: ``RegexError`` when the match hits `limits`.
    package func matchesWhole(_ text: String, limits: RegexLimits = .current) throws(RegexError)
        -> Bool
    {
        try prepare(text, limits)
        var result = strata_icu_result()
        let matched = strata_icu_regex_matches(handle, &result)
        try check(result)
        return matched != 0
    }

    /// The first match of the pattern anywhere in `text`.
    ///
    /// - Throws: ``RegexError`` when the search hits `limits`.
    func firstMatch(in text: String, limits: RegexLimits = .current) throws(RegexError)
        -> RegexMatch?
    {
        try prepare(text, limits)
        var result = strata_icu_result()
        let found = strata_icu_regex_find(handle, 0, &result)
        try check(result)
        return found != 0 ? try match(in: text) : nil
    }

    /// Every match of the pattern in `text`, left to right, not
    /// overlapping. The limits apply to each search for the next match.
    ///
    /// - Throws: ``RegexError`` when a search hits `limits`.
    package func allMatches(in text: String, limits: RegexLimits = .current) throws(RegexError)
        -> [RegexMatch]
    {
        try prepare(text, limits)
        var matches: [RegexMatch] = []
        while true {
            var result = strata_icu_result()
            let found = strata_icu_regex_find(handle, -1, &result)
            try check(result)
            guard found != 0 else { return matches }
            matches.append(try match(in: text))
        }
    }

    // MARK: - ICU calls

    /// Copies `text` as UTF-16 into the buffer ICU reads, and sets the
    /// limits when they changed.
    private func prepare(_ text: String, _ limits: RegexLimits) throws(RegexError) {
        var result = strata_icu_result()
        if applied != limits {
            strata_icu_regex_set_limits(handle, limits.timeLimit, limits.stackLimit, &result)
            try check(result)
            applied = limits
        }
        let count = text.utf16.count
        guard let length = Int32(exactly: count) else {
            throw RegexError(
                .textTooLong, pattern: pattern,
                message: "the text has \(count) UTF-16 units; ICU takes at most \(Int32.max)")
        }
        // Never a nil pointer, even for empty text: ICU refuses one.
        if buffer.count < max(count, 1) {
            buffer.deallocate()
            buffer = .allocate(capacity: max(count, 2 * buffer.count, 64))
        }
        _ = buffer.initialize(from: text.utf16)
        strata_icu_regex_set_text(handle, buffer.baseAddress, length, &result)
        try check(result)
    }

    /// The current match and its groups as ranges of `text`.
    private func match(in text: String) throws(RegexError) -> RegexMatch {
        var result = strata_icu_result()
        let groups = strata_icu_regex_group_count(handle, &result)
        try check(result)
        var ranges: [Range<String.Index>?] = []
        for group in 0...max(groups, 0) {
            var start: Int32 = -1
            var end: Int32 = -1
            strata_icu_regex_group_range(handle, group, &start, &end, &result)
            try check(result)
            // -1: the group took no part in the match.
            guard start >= 0, end >= start else {
                ranges.append(nil)
                continue
            }
            let lower = String.Index(utf16Offset: Int(start), in: text)
            let upper = String.Index(utf16Offset: Int(end), in: text)
            ranges.append(lower..<upper)
        }
        return RegexMatch(text: text, ranges: ranges)
    }

    private func check(_ result: strata_icu_result) throws(RegexError) {
        if result.status != STRATA_ICU_OK { throw error(result) }
    }

    /// ICU's name of a compile error made readable:
    /// `mismatched paren (U_REGEX_MISMATCHED_PAREN)`.
    private static func reason(_ result: strata_icu_result) -> String {
        let name = Self.name(result)
        let words = name.replacingOccurrences(of: "U_REGEX_", with: "")
            .replacingOccurrences(of: "U_", with: "").replacingOccurrences(of: "_", with: " ")
            .lowercased()
        return "\(words) (\(name))"
    }

    private static func name(_ result: strata_icu_result) -> String {
        strata_icu_error_name(result.code).map { String(cString: $0) } ?? "error \(result.code)"
    }

    /// The error for a failed call.
    private func error(_ result: strata_icu_result) -> RegexError {
        switch result.status {
        case STRATA_ICU_TIME_OUT:
            RegexError(
                .timeLimit, pattern: pattern,
                message: "the match hit its time limit (\(applied?.timeLimit ?? 0), in ICU's "
                    + "units of about 10,000 steps); the pattern backtracks too much on this "
                    + "text (nested repetition such as (a+)+ is the usual cause)")
        case STRATA_ICU_STACK_OVERFLOW:
            RegexError(
                .stackLimit, pattern: pattern,
                message: "the match hit its backtracking stack limit "
                    + "(\(applied?.stackLimit ?? 0) bytes) on this text")
        default:
            RegexError(.failed, pattern: pattern, message: "ICU failed: \(Self.name(result))")
        }
    }
}
