import Foundation

/// The input formats the importer reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Comma-separated values (RFC 4180 and its dialects; the delimiter is
    /// guessed from the header when not given).
    case csv
    /// Tab-separated values.
    case tsv
    /// One record per line, fields split by a delimiter (no quoting), or
    /// the whole line as one field.
    case txtLines = "txt-lines"
    /// Records separated by blank lines: `Key: Value` headers, then body text.
    case txtBlocks = "txt-blocks"
    /// A folder of `.txt` files, one record each.
    case txtFiles = "txt-files"
    /// An XML or binary property list.
    case plist
    /// A JSON array of objects (or an object of such arrays).
    case json
    /// One JSON object per line.
    case ndjson

    /// The format of the input at `path`: a folder is `txt-files`; otherwise
    /// by extension, then by the first bytes (`bplist`, `<?xml`, `[`/`{`,
    /// a `Key: Value` first line); nil when nothing tells.
    public static func guess(path: String) -> ImportFormat? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            return .txtFiles
        }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "plist": return .plist
        case "json": return .json
        case "ndjson", "jsonl": return .ndjson
        default: break
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }  // Only read.
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.starts(with: Array("bplist".utf8)) { return .plist }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<plist")
            || trimmed.hasPrefix("<!DOCTYPE plist")
        {
            return .plist
        }
        // A JSON reader tells an object of arrays from JSON lines itself.
        if trimmed.hasPrefix("[") || trimmed.hasPrefix("{") { return .json }
        let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
        // The txt readers' own rule for a `Key: Value` line.
        if Array(firstLine.utf8).withUnsafeBufferPointer({ TextHeaderLine.parse($0) != nil }) {
            return .txtBlocks
        }
        if firstLine.contains("\t") { return .tsv }
        if firstLine.contains(",") { return .csv }
        return .txtLines
    }

    /// Whether the format's records are flat text fields.
    public var hasFlatFields: Bool {
        switch self {
        case .csv, .tsv, .txtLines: true
        default: false
        }
    }
}
