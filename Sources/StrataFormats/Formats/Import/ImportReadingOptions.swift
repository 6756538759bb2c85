/// How a text input is read, beyond what its format says: the CSV and
/// txt-lines dialect and the character encoding.
public struct ImportReadingOptions: Hashable, Sendable {
    /// The field delimiter; nil guesses it from the header (CSV) or takes
    /// the whole line as one field (txt lines).
    public var delimiter: UInt8?
    /// The quote character of CSV; nil turns quoting off.
    public var quote: UInt8? = UInt8(ascii: "\"")
    /// Whether the first CSV row names the fields; nil: yes for CSV and TSV,
    /// no for txt lines.
    public var hasHeader: Bool?
    /// The encoding when the input has no byte-order mark; guessed by
    /// default (``TextEncoding/automatic``).
    public var encoding: TextEncoding = .automatic

    /// The defaults.
    public init() {}
}
