import Foundation

/// What the "no header row" error of a headerless input (txt lines, a
/// `.txt` file guessed to be one) adds when its first line looks like the
/// header of a CSV: a line of names split by the delimiter it uses most, at
/// least half of them names of the model's properties (folded as fields
/// are matched), so that a line of data is not taken for one.
enum HeaderLineHint {
    /// The delimiters a header line may use, in the order ties go.
    private static let delimiters: [(byte: UInt8, option: String)] = [
        (UInt8(ascii: ","), "--format csv"),
        (UInt8(ascii: ";"), "--format csv --delimiter ';'"),
        (UInt8(ascii: "\t"), "--format tsv"),
        (UInt8(ascii: "|"), "--format csv --delimiter '|'"),
    ]

    /// "; its first line looks like a header …: give --format csv …", or
    /// "" when the first record does not look like one (or cannot be read).
    /// Reads the first record: only for an error that ends the import.
    static func hint(
        forFirstRecordOf reader: some FieldRecordReader, propertyNames: Set<String>
    ) -> String {
        guard (try? reader.nextRecord()) == true else { return "" }
        let line = Array(reader.recordText())
        guard
            let best = delimiters.max(by: { count($0.byte, in: line) < count($1.byte, in: line) }),
            count(best.byte, in: line) > 0
        else { return "" }
        let fields = line.split(separator: best.byte, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        let known = fields.filter { propertyNames.contains(FieldNameFolding.fold($0)) }
        guard fields.allSatisfy(looksLikeName), known.count * 2 >= fields.count else { return "" }
        let shown = fields.prefix(4).joined(separator: String(UnicodeScalar(best.byte)))
        return "; its first line looks like a header (\(shown)\(fields.count > 4 ? "…" : "")): "
            + "give \(best.option)"
    }

    private static func count(_ byte: UInt8, in line: [UInt8]) -> Int {
        line.reduce(0) { $0 + ($1 == byte ? 1 : 0) }
    }

    /// A field name: starts with a letter (perhaps inside quotes), at most
    /// 64 characters, and is no value such as a number or a date.
    private static func looksLikeName(_ field: String) -> Bool {
        let bare = field.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        guard let first = bare.first, first.isLetter, bare.count <= 64 else { return false }
        return !bare.contains("@") && !bare.contains("://")
    }
}
