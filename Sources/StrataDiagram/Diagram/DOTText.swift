import StrataCore

/// Text from schema files made safe for a DOT file: quoted identifiers and
/// the text of HTML-like labels.
///
/// Names come from files, so none may end a string early, open a tag or
/// inject an attribute. Control characters are written as visible `\u{1B}`
/// escapes: they would make Graphviz's SVG output invalid XML.
enum DOTText {
    /// `text` as a quoted DOT identifier. DOT's only escape in a quoted
    /// string is `\"`, and a backslash before the closing quote would
    /// swallow it, so backslashes are doubled (the identifier is a key, not
    /// shown: labels carry the names).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in visible(text).unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` as the content of an HTML-like label: XML's five special
    /// characters as entities.
    static func html(_ text: String) -> String { XMLText.escaped(visible(text)) }

    /// `text` with C0, DEL and C1 control characters written as `\u{…}`.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
