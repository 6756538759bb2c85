/// How much work one match of a ``RegularExpression`` may do before it fails
/// with ``RegexError`` instead of running on.
///
/// ICU's matcher backtracks, so a pattern such as `(a+)+$` takes time
/// exponential in the length of a text it does not match. The limits turn
/// such a match into an error naming the pattern, never into a silent
/// "no match" and never into a hang.
///
/// The defaults, ``standard``:
///
/// - ``timeLimit`` 5,000: ICU counts its match engine's work in units of
///   about 10,000 steps, so this is about 50 million steps, on the order of
///   a second on a current machine. A sane pattern on a text of a few
///   megabytes stays well below it.
/// - ``stackLimit`` 8 MiB: the heap ICU may use for its backtracking stack
///   (ICU's own default), enough for a loop such as `(a|b)*` over texts of
///   hundreds of thousands of characters.
///
/// The limits in force are ``current``, a task-local value, so a caller can
/// tighten or widen them for one piece of work:
///
/// ```swift
/// let tight = RegexLimits(timeLimit: 100, stackLimit: 1 << 20)
/// let rows = try RegexLimits.$current.withValue(tight) {
///     try context.fetch(request)
/// }
/// ```
public struct RegexLimits: Hashable, Sendable {
    /// The match time limit in ICU's units of match-engine work (about
    /// 10,000 steps each); must be positive.
    public var timeLimit: Int32
    /// The most memory, in bytes, the backtracking stack of one match may
    /// take; must be positive.
    public var stackLimit: Int32

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - timeLimit: ICU's match time limit (units of about 10,000 steps).
    ///   - stackLimit: The backtracking stack's limit in bytes.
    public init(timeLimit: Int32, stackLimit: Int32) {
        precondition(timeLimit > 0 && stackLimit > 0, "regular expression limits must be positive")
        self.timeLimit = timeLimit
        self.stackLimit = stackLimit
    }

    /// The defaults: a time limit of 5,000 units (about 50 million steps)
    /// and a stack of 8 MiB.
    public static let standard = RegexLimits(timeLimit: 5_000, stackLimit: 8 << 20)

    /// The limits matches use in the current task; ``standard`` unless a
    /// caller bound other limits with `RegexLimits.$current.withValue(_:)`.
    @TaskLocal public static var current = RegexLimits.standard
}
