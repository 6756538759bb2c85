/// Text from stores and files made safe to show on a terminal.
///
/// A store's strings are data, not terminal commands: an ESC, BEL or CR
/// printed raw can recolour, retitle or overwrite what the user sees. Table
/// output therefore writes every control character — C0 (U+0000–U+001F, tab
/// and newline included, since they would break the columns), DEL (U+007F)
/// and C1 (U+0080–U+009F) — as a Swift string escape: `\t`, `\n`, `\r`, and
/// `\u{1B}` for the others. A backslash is left as it is (doubling it would
/// garble every regular expression a table shows), so `\n` in a cell may
/// also be those two characters. JSON output needs none of this (its encoder escapes C0;
/// DEL and C1 are plain characters to a JSON reader), and CSV output is
/// data for other programs, quoted by RFC 4180 instead.
enum TerminalText {
    /// `text` with its control characters escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case _ where isControl(scalar):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Diagnostics keep their line breaks but lose every other control
    /// character, since messages quote names and values from files.
    static func escapedKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                line.unicodeScalars.contains(where: isControl)
                    ? escaped(String(line)) : String(line)
            }
            .joined(separator: "\n")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
