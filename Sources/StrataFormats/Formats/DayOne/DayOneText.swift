import Foundation

/// How Day One's Markdown text and the Diary's title and body meet.
///
/// Day One has no title: its text's first line is one by convention
/// (`# Paris`). An imported entry keeps the text as its body, word for
/// word, and gets the first line that says something (not an image
/// reference) as its title, without the `#` marks, cut to 120 characters.
/// An exported entry whose title is not its body's first line (one written
/// in Strata) gets `# <title>`, its subtitle, and a blank line before the
/// body.
enum DayOneText {
    /// The longest title the Diary accepts.
    static let titleLimit = 120

    /// The title of an entry whose text is `text`.
    static func title(of text: String?) -> String {
        guard let text else { return "" }
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("![") { continue }
            while trimmed.hasPrefix("#") { trimmed.removeFirst() }
            trimmed = trimmed.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            return String(trimmed.prefix(titleLimit))
        }
        return ""
    }

    /// The number of words (runs of non-space characters) in `text`.
    static func wordCount(of text: String?) -> Int64 {
        guard let text else { return 0 }
        return Int64(text.split(whereSeparator: { $0.isWhitespace }).count)
    }

    /// The Day One text of an entry with these title, subtitle and body.
    package static func text(title: String, subtitle: String?, body: String?) -> String {
        let body = body ?? ""
        if subtitle == nil, Self.title(of: body) == title { return body }
        var heading = title.isEmpty ? "" : "# \(title)\n"
        if let subtitle, !subtitle.isEmpty { heading += "\(subtitle)\n" }
        if heading.isEmpty { return body }
        return body.isEmpty ? heading : heading + "\n" + body
    }

    /// The Markdown Day One writes where a medium appears in the text.
    static func moment(_ kind: DayOneMediaKind, identifier: String) -> String {
        "![](\(kind.momentPrefix)\(identifier))"
    }
}
