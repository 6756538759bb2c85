import Foundation

/// How Day One's Markdown text and the Diary's title and body meet.
///
/// Day One has no title: its text's first line is one by convention
/// (`# Paris`). An imported entry keeps the text as its body, word for
/// word, and gets the first line that says something (not an image
/// reference) as its title, without the `#` marks and with Markdown's
/// backslash escapes undone (Day One writes `Market day\. Apples`), cut
/// to 120 characters: the cut falls between characters of the text as
/// shown, so it never splits an escape. An exported entry whose title is
/// not its body's first line (one written in Strata) gets `# <title>`
/// (escaped, so that an import gives back the same title), its subtitle,
/// and a blank line before the body.
enum DayOneText {
    /// The longest title the Diary accepts.
    static let titleLimit = 120

    /// The title of an entry whose text is `text`.
    static func title(of text: String?) -> String {
        guard let line = text.flatMap(titleLine) else { return "" }
        return String(unescaped(line).prefix(titleLimit))
    }

    /// The title the importer derived before it undid escapes: the line cut
    /// at 120 characters as written. A store imported then holds these, and
    /// its entries still count as titled by their body.
    private static func titleAsWritten(of text: String) -> String? {
        titleLine(of: text).map { String($0.prefix(titleLimit)) }
    }

    /// The first line of `text` that says something (not an image
    /// reference), without its `#` marks and surrounding spaces.
    private static func titleLine(of text: String) -> String? {
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            var trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("![") { continue }
            while trimmed.hasPrefix("#") { trimmed.removeFirst() }
            trimmed = trimmed.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return trimmed }
        }
        return nil
    }

    /// The ASCII punctuation Markdown lets a backslash escape.
    private static let escapable = Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    /// `text` with Markdown's backslash escapes undone (`\.` is `.`); a
    /// backslash before anything else stays.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var pending = false
        for character in text {
            if pending {
                if !escapable.contains(character) { result.append("\\") }
                result.append(character)
                pending = false
            } else if character == "\\" {
                pending = true
            } else {
                result.append(character)
            }
        }
        if pending { result.append("\\") }
        return result
    }

    /// `title` escaped for a `# ` heading: backslashes and the characters
    /// Markdown would read as markup, so that ``title(of:)`` gives `title`
    /// back.
    static func escaped(_ title: String) -> String {
        var result = ""
        for character in title {
            if "\\`*_[]<>#".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// The number of words (runs of non-space characters) in `text`.
    static func wordCount(of text: String?) -> Int64 {
        guard let text else { return 0 }
        return Int64(text.split(whereSeparator: { $0.isWhitespace }).count)
    }

    /// The Day One text of an entry with these title, subtitle and body.
    package static func text(title: String, subtitle: String?, body: String?) -> String {
        let body = body ?? ""
        if subtitle == nil, Self.title(of: body) == title || titleAsWritten(of: body) == title {
            return body
        }
        var heading = title.isEmpty ? "" : "# \(escaped(title))\n"
        if let subtitle, !subtitle.isEmpty { heading += "\(subtitle)\n" }
        if heading.isEmpty { return body }
        return body.isEmpty ? heading : heading + "\n" + body
    }

    /// The Markdown Day One writes where a medium appears in the text.
    static func moment(_ kind: DayOneMediaKind, identifier: String) -> String {
        "![](\(kind.momentPrefix)\(identifier))"
    }
}
