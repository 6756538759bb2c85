/// Text made safe as XML content or a quoted attribute value — and so as
/// HTML: the web view's pages and Graphviz's HTML-like labels both write
/// through it.
package enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, and NUL (which
    /// neither XML nor HTML allows) as U+FFFD.
    package static func escaped(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\0": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
