/// How a ``RegularExpression`` reads its pattern.
public struct RegexOptions: OptionSet, Hashable, Sendable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Letters match without regard to case (ICU's
    /// `UREGEX_CASE_INSENSITIVE`, as `MATCHES[c]`).
    public static let caseInsensitive = RegexOptions(rawValue: 1 << 0)
}
