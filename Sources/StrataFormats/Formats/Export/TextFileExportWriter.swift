import Foundation
import StrataCore

/// txt files: one file per record in an ``ExportFolder``, in the form
/// ``TextFileReader`` reads back — `Key: value` header lines for the fields
/// other than the title and the body, then the title line, a blank line and
/// the body.
///
/// Files are named `<number> <title>.txt`: the record's place in the
/// export, six digits or more (so the reader, which sorts names, sees the
/// export's order), then the title with path separators, control and other
/// characters file systems refuse turned into `-`, cut to 60 characters.
/// A record that would not read back the same is refused, naming it: a
/// title with a line break, outer spaces, or the shape of a header line; a
/// body with a carriage return or blank first or last lines; a body without
/// a title (its first line would become the title).
final class TextFileExportWriter: ExportRecordWriter {
    private let folder: ExportFolder
    private let titleKey: String
    private let bodyKey: String
    private var count = 0

    init(folder: ExportFolder, titleKey: String, bodyKey: String) {
        self.folder = folder
        self.titleKey = titleKey
        self.bodyKey = bodyKey
    }

    package func write(_ record: ImportRecord, id: String) throws {
        func refuse(_ why: String) -> ExportError {
            ExportError(.unwritableValue, path: folder.path, "\(id): \(why)")
        }
        var headers: [RecordField] = []
        var title: String?
        var body: String?
        for field in record.fields {
            if field.key == titleKey {
                title = try Self.text(field, refuse)
            } else if field.key == bodyKey {
                body = try Self.text(field, refuse)
            } else if field.value != .null {
                let key = field.key.lowercased()
                guard key != "title", key != "body" else {
                    throw refuse(
                        "a \(field.key) header would read back as the file's \(key); "
                            + "leave the field out or make it the title or body")
                }
                headers.append(field)
            }
        }
        var text = ""
        if !headers.isEmpty {
            do {
                text = try TextBlockWriter.blockText(
                    of: ImportRecord(fields: headers, position: record.position), bodyKey: "")
            } catch let error as ImportError {
                throw refuse(error.message)
            }
        }
        if let title {
            try Self.checkTitle(title, key: titleKey, refuse)
            text += title + "\n"
        }
        if let body, !body.isEmpty {
            guard title != nil else {
                throw refuse(
                    "it has a \(bodyKey) but no \(titleKey): the first line of a txt file is "
                        + "read as its title")
            }
            try Self.checkBody(body, key: bodyKey, refuse)
            text += "\n" + body + "\n"
        }
        guard !text.isEmpty else { throw refuse("it has no value to write") }
        count += 1
        try folder.write(name: Self.fileName(number: count, title: title), bytes: Array(text.utf8))
    }

    package func finish() throws {}

    /// The text of a title or body field, nil for no value.
    private static func text(
        _ field: RecordField, _ refuse: (String) -> ExportError
    ) throws -> String? {
        switch field.value {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        default:
            throw refuse("the \(field.key) is not text; a txt file's title and body are text")
        }
    }

    private static func checkTitle(
        _ title: String, key: String, _ refuse: (String) -> ExportError
    ) throws {
        if title.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
            throw refuse("the \(key) has a line break or a NUL; a title is one line")
        }
        let trimmed = title.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if trimmed.isEmpty || trimmed != title {
            throw refuse("the \(key) is empty or has outer spaces, which reading trims")
        }
        if TextBlockWriter.parsedHeader(title) != nil {
            throw refuse("the \(key) '\(title)' would read back as a header line (Key: value)")
        }
    }

    private static func checkBody(
        _ body: String, key: String, _ refuse: (String) -> ExportError
    ) throws {
        if body.utf8.contains(where: { $0 == 0x0D || $0 == 0 }) {
            throw refuse("the \(key) has a carriage return or a NUL")
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        func isBlank(_ line: Substring?) -> Bool {
            line.map { $0.allSatisfy { $0 == " " || $0 == "\t" } } ?? false
        }
        if isBlank(lines.first) || isBlank(lines.last) {
            throw refuse("the \(key) starts or ends with a blank line, which reading drops")
        }
    }

    /// `<number> <title>.txt`, or `<number>.txt` without a title.
    static func fileName(number: Int, title: String?) -> String {
        var digits = String(number)
        if digits.count < 6 { digits = String(repeating: "0", count: 6 - digits.count) + digits }
        var slug = ""
        for scalar in (title ?? "").unicodeScalars {
            if slug.unicodeScalars.count >= 60 { break }
            let refused =
                scalar.value < 0x20 || scalar.value == 0x7F
                || "/\\:*?\"<>|".unicodeScalars.contains(scalar)
            slug.unicodeScalars.append(refused ? "-" : scalar)
        }
        slug = slug.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        return slug.isEmpty ? digits + ".txt" : digits + " " + slug + ".txt"
    }
}
