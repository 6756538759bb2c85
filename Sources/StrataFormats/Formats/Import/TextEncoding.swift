/// The character encoding of a text input.
///
/// Readers look for a byte-order mark first: a UTF-8 BOM is skipped, a UTF-16
/// BOM (either byte order) switches to UTF-16, whatever was asked.
public enum TextEncoding: String, Hashable, Sendable, CaseIterable {
    /// UTF-8, the default.
    case utf8 = "utf-8"
    /// UTF-16; the byte order comes from the BOM, which must be there.
    case utf16 = "utf-16"
    /// ISO 8859-1: every byte is the code point of the same number.
    case latin1 = "latin-1"
}
