/// How a delimited text file is written: its delimiter, its quote character,
/// whether it starts with a header row, and its encoding.
///
/// ```swift
/// let semicolons = CSVDialect(delimiter: UInt8(ascii: ";"))
/// let contacts = CSVDialect.lines(separatedBy: UInt8(ascii: ";"))  // txt lines
/// let guessed = CSVDialect.guess(headerLine: "name;email;phone")   // ";"
/// ```
public struct CSVDialect: Hashable, Sendable {
    /// The byte between fields (`,` `;` tab `|`), or nil when each line is
    /// one whole field.
    public var delimiter: UInt8?
    /// The byte that quotes fields (`"`), or nil when quotes are plain text:
    /// then a field ends at the first delimiter or line break, whatever it
    /// holds.
    public var quote: UInt8?
    /// Whether the first record names the fields.
    public var hasHeader: Bool
    /// The encoding when the file has no byte-order mark.
    public var encoding: TextEncoding

    /// Creates a dialect; the defaults are RFC 4180's (comma, double
    /// quote), with a header row, in UTF-8.
    public init(
        delimiter: UInt8? = UInt8(ascii: ","), quote: UInt8? = UInt8(ascii: "\""),
        hasHeader: Bool = true, encoding: TextEncoding = .utf8
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.hasHeader = hasHeader
        self.encoding = encoding
    }

    /// Comma-separated values with a header row (RFC 4180).
    public static let csv = CSVDialect()

    /// Tab-separated values with a header row; quotes as in CSV.
    public static let tsv = CSVDialect(delimiter: UInt8(ascii: "\t"))

    /// Each line is one field; no header, no quotes.
    public static let wholeLine = CSVDialect(delimiter: nil, quote: nil, hasHeader: false)

    /// txt lines: fields split by `delimiter`, no quotes, no header (the
    /// shape of a `contacts.txt` written with `;`).
    public static func lines(
        separatedBy delimiter: UInt8, encoding: TextEncoding = .utf8
    ) -> CSVDialect {
        CSVDialect(delimiter: delimiter, quote: nil, hasHeader: false, encoding: encoding)
    }

    /// The delimiters ``guess(headerLine:)`` chooses from, the tie-breaking
    /// order first: `,` `;` tab `|`.
    public static let guessableDelimiters: [UInt8] = [
        UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|"),
    ]

    /// The dialect of a file whose first line is `headerLine`: the most
    /// frequent of ``guessableDelimiters`` outside double quotes, a comma on
    /// a tie (or the earlier in that list), double quotes, a header row.
    ///
    /// Only the first line counts; the scan stops at a line break outside
    /// quotes.
    ///
    /// - Parameter headerLine: The first line's bytes (UTF-8 or ASCII).
    public static func guess<Bytes: Sequence<UInt8>>(headerLine: Bytes) -> CSVDialect {
        CSVDialect(delimiter: guessDelimiter(in: headerLine, quote: UInt8(ascii: "\"")))
    }

    /// The delimiter ``guess(headerLine:)-(Bytes)`` picks, counting outside
    /// `quote` (everywhere when nil).
    static func guessDelimiter<Bytes: Sequence<UInt8>>(in line: Bytes, quote: UInt8?) -> UInt8 {
        var counts = [Int](repeating: 0, count: guessableDelimiters.count)
        var quoted = false
        for byte in line {
            if byte == quote {
                quoted.toggle()
            } else if !quoted {
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
                if let index = guessableDelimiters.firstIndex(of: byte) { counts[index] += 1 }
            }
        }
        var best = 0
        for index in counts.indices where counts[index] > counts[best] { best = index }
        return guessableDelimiters[best]
    }

    /// The dialect of a file whose first line is `headerLine`; see
    /// ``guess(headerLine:)-(Bytes)``.
    public static func guess(headerLine: String) -> CSVDialect {
        guess(headerLine: headerLine.utf8)
    }
}
