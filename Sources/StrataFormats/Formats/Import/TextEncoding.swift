/// The character encoding of a text input.
///
/// Readers look for a byte-order mark first: a UTF-8 BOM is skipped, a UTF-16
/// BOM (either byte order) switches to UTF-16, whatever was asked.
public enum TextEncoding: String, Hashable, Sendable, CaseIterable {
    /// UTF-8, the default of the readers.
    case utf8 = "utf-8"
    /// UTF-16; the byte order comes from the BOM, which must be there.
    case utf16 = "utf-16"
    /// ISO 8859-1: every byte is the code point of the same number.
    case latin1 = "latin-1"
    /// Windows-1252 (cp1252): Latin-1 with printable characters (`€`, `‘`,
    /// `’`, `“`, `”`, `–`, `—`, `…`, `™`, …) in place of the C1 controls
    /// 0x80–0x9F; the five bytes it leaves undefined are those controls.
    case windows1252 = "windows-1252"
    /// Guessed, as an import does by default: UTF-8, unless the file has no
    /// byte-order mark and its first ``guessWindow`` bytes are not UTF-8 —
    /// then Windows-1252, by far the most common encoding of text that is
    /// not UTF-8 (and a superset of Latin-1's printable characters). The
    /// reader says what it guessed (``ImportSummary/notes``).
    case automatic = "auto"

    /// How many bytes the guess of ``automatic`` looks at.
    public static let guessWindow = 1 << 16

    /// What an error about undecodable text adds: how to name the encoding.
    static let hint =
        "the file must be UTF-8, or name its encoding "
        + "(--encoding windows-1252, latin-1 or utf-16)"

    /// The character Windows-1252 byte `byte` (0x80–0x9F) stands for.
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        windows1252High[Int(byte & 0x1F)]
    }

    /// 0x80–0x9F of Windows-1252; undefined bytes keep their C1 control.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
