import Foundation

/// The output formats the exporter writes; each is one the importer reads
/// back to the same values.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Comma-separated values, RFC 4180: a header row, CRLF line ends,
    /// fields quoted when they hold a comma, a quote or a line break, and
    /// the empty string as `""` (an empty unquoted field is no value).
    case csv
    /// Tab-separated values: CSV's rules with a tab between fields and LF
    /// line ends; the importer reads them as `tsv` (a header row, quotes
    /// as in CSV).
    case tsv
    /// txt lines: one record per line, the fields in order split by a
    /// delimiter (``ExportOptions/delimiter``; without one, the line is
    /// the one field), no header and no quoting: import them with
    /// `--format txt-lines`, the same `--delimiter`, and `--columns` naming
    /// the fields. A value holding the delimiter or a line break, or empty
    /// text, has no such form and is refused.
    case txtLines = "txt-lines"
    /// An XML property list (Apple's plist DTD): an array of dicts.
    case plist
    /// txt blocks: `Key: value` header lines, then the body, blocks
    /// separated by a blank line.
    case txtBlocks = "txt-blocks"
    /// txt files: a folder with one `.txt` file per object — header lines
    /// for the other fields, the title line, a blank line, the body — as
    /// the txt-files importer reads them (see ``ExportOptions/titleField``).
    case txtFiles = "txt-files"
    /// A JSON array of objects.
    case json
    /// One JSON object per line (JSON Lines).
    case ndjson

    /// The format an output path names by its extension (`.csv`, `.tsv`,
    /// `.plist`, `.txt`, `.json`, `.ndjson`/`.jsonl`); nil when it names
    /// none.
    public static func guess(path: String) -> ExportFormat? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "plist": return .plist
        case "txt": return .txtBlocks
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        default: return nil
        }
    }
}
