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
    /// Dotted paths into a JSON document (`--path components`,
    /// `--path metadata.tools`) whose arrays of objects are the records; the
    /// document's other members are passed over. Empty: the document is an
    /// array of records, an object of such arrays, or an object with exactly
    /// one such array beside other members (taken, with a note).
    public var paths: [String] = []

    /// The defaults.
    public init() {}
}
