import Foundation

/// The output formats the exporter writes; each is one the importer reads
/// back to the same values.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Comma-separated values, RFC 4180: a header row, CRLF line ends,
    /// fields quoted when they hold a comma, a quote or a line break, and
    /// the empty string as `""` (an empty unquoted field is no value).
    case csv
    /// An XML property list (Apple's plist DTD): an array of dicts.
    case plist
    /// txt blocks: `Key: value` header lines, then the body, blocks
    /// separated by a blank line.
    case txtBlocks = "txt-blocks"
    /// A JSON array of objects.
    case json
    /// One JSON object per line (JSON Lines).
    case ndjson

    /// The format an output path names by its extension (`.csv`, `.plist`,
    /// `.txt`, `.json`, `.ndjson`/`.jsonl`); nil when it names none.
    public static func guess(path: String) -> ExportFormat? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return .csv
        case "plist": return .plist
        case "txt": return .txtBlocks
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        default: return nil
        }
    }
}
