/// A regular expression that does not compile, or a match that hit its
/// ``RegexLimits``.
///
/// The message names the pattern and, when the caller said what was being
/// matched, the object (``subject``, such as `DiaryEntry p3`). It never
/// holds the matched text, which comes from a store.
///
/// ```swift
/// do {
///     _ = try RegularExpression("(a+)+$").matchesWhole(text)
/// } catch RegexError.timeLimit {
///     // the pattern backtracks too much on this text
/// }
/// ```
public struct RegexError: Error, Hashable, Sendable {
    /// The kinds of regular expression error.
    public enum Code: String, Hashable, Sendable {
        /// The pattern is not a valid ICU regular expression.
        case invalidPattern
        /// A match took more than ``RegexLimits/timeLimit``.
        case timeLimit
        /// A match needed more backtracking memory than
        /// ``RegexLimits/stackLimit``.
        case stackLimit
        /// The text is longer than ICU can take (2^31 - 1 UTF-16 units).
        case textTooLong
        /// ICU failed otherwise (out of memory, …); the message has ICU's
        /// error name.
        case failed
    }

    /// What kind of error this is.
    public var code: Code
    /// The pattern, as written.
    public var pattern: String
    /// For ``Code/invalidPattern``: the 1-based line of the pattern ICU
    /// reports (patterns are one line unless they hold line breaks).
    public var line: Int?
    /// For ``Code/invalidPattern``: the 1-based column, in characters of
    /// that line, where ICU found the problem.
    public var column: Int?
    /// What was being matched, such as `DiaryEntry p3`; nil when unknown.
    public var subject: String?
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(
        _ code: Code, pattern: String, line: Int? = nil, column: Int? = nil,
        subject: String? = nil, message: String
    ) {
        self.code = code
        self.pattern = pattern
        self.line = line
        self.column = column
        self.subject = subject
        self.message = message
    }

    /// The error with ``subject`` set, unless it already names one.
    public func matching(_ subject: String) -> RegexError {
        var copy = self
        if copy.subject == nil { copy.subject = subject }
        return copy
    }
}

extension RegexError: CustomStringConvertible {
    /// `regular expression "PATTERN": MESSAGE`, with the place in the
    /// pattern (`is not valid at column N`) or the object matched
    /// (`on Entity/pN`).
    public var description: String {
        var text = "regular expression \"\(pattern)\""
        if code == .invalidPattern {
            text += " is not valid"
            if let column {
                if let line, line > 1 {
                    text += " at line \(line), column \(column)"
                } else {
                    text += " at column \(column)"
                }
            }
        }
        if let subject { text += " on \(subject)" }
        return text + ": " + message
    }
}

// MARK: - Matching

extension RegexError {
    /// Matches an error of code ``Code/invalidPattern``: `catch RegexError.invalidPattern`.
    public static let invalidPattern = Code.invalidPattern
    /// Matches an error of code ``Code/timeLimit``: `catch RegexError.timeLimit`.
    public static let timeLimit = Code.timeLimit
    /// Matches an error of code ``Code/stackLimit``: `catch RegexError.stackLimit`.
    public static let stackLimit = Code.stackLimit
    /// Matches an error of code ``Code/textTooLong``: `catch RegexError.textTooLong`.
    public static let textTooLong = Code.textTooLong
    /// Matches an error of code ``Code/failed``: `catch RegexError.failed`.
    public static let failed = Code.failed
}

extension RegexError.Code {
    /// Whether `error` is a ``RegexError`` of this code, so that
    /// `catch RegexError.invalidPattern` (or `case RegexError.invalidPattern`) compiles.
    public static func ~= (pattern: RegexError.Code, error: any Error) -> Bool {
        (error as? RegexError)?.code == pattern
    }
}
