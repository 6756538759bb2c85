import Foundation
import StrataCore

/// Writes records to an XML property list as they come, for the importer's
/// rejects file: each record is a dict, with an extra `strata_error` string
/// saying why it was rejected, so the file can be fixed and imported again.
///
/// The root is an array of dicts, or, when the first record has a
/// ``ImportRecord/group``, a dict of arrays keyed by group (the shape the
/// records were read from); a new array starts whenever the group changes,
/// so records of one group must come together, as every reader hands them
/// out. Values are written as ``XMLPropertyListText`` writes them
/// (`<real>nan</real>`, dates as `2024-01-31T12:00:00Z`, data in base64); a
/// ``RecordValue/null`` field has no plist form and is left out.
///
/// Text is escaped (`&`, `<`, `>`, and carriage returns as `&#13;` so that
/// they survive XML's line-end normalization). Characters that XML 1.0 does
/// not allow at all (control characters other than tab, line feed and
/// carriage return, U+FFFE, U+FFFF) are replaced by U+FFFD: a rejects file
/// must stay readable, and the `strata_error` of such a record says what
/// was wrong with it.
///
/// ```swift
/// let rejects = try PropertyListRecordWriter(path: "rejects.plist")
/// try rejects.write(record, error: error.description)
/// try rejects.close()
/// ```
public final class PropertyListRecordWriter {
    /// The key of the reason a record was rejected.
    public static let errorKey = "strata_error"

    /// The size of the write buffer; it is written to the file when full.
    static let bufferSize = 64 * 1024

    /// The output's path as given.
    public let file: String
    private let handle: FileHandle
    private let maximumDepth: Int
    private var buffer: [UInt8] = []
    /// The group of the array being written, in a dict root.
    private var currentGroup: String?
    private var isDictionaryRoot = false
    private var hasStarted = false
    private var isClosed = false

    /// Creates (or truncates) the file at `path`; nothing is written until
    /// the first record or ``close()``.
    ///
    /// - Parameters:
    ///   - path: The output file's path.
    ///   - limits: Its ``ImportLimits/maximumDepth`` bounds the nesting
    ///     written.
    /// - Throws: ``ImportError`` `.unreadable` when the file cannot be created.
    public init(path: String, limits: ImportLimits = .init()) throws {
        file = path
        maximumDepth = limits.maximumDepth
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path),
                "cannot create the file (no such folder or no access)")
        }
        self.handle = handle
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        // An unclosed writer leaves an unfinished file; close() reports.
        try? handle.close()
    }

    /// Appends a record as a dict, with `error` under ``errorKey`` after
    /// its fields when given.
    ///
    /// - Throws: ``ImportError`` `.tooLarge` for nesting deeper than the
    ///   limit (nothing of the record is written), `.unreadable` when the
    ///   file cannot be written.
    public func write(_ record: ImportRecord, error: String? = nil) throws {
        precondition(!isClosed, "PropertyListRecordWriter used after close()")
        try checkDepth(record.fields, depth: 1, at: record.position)
        if !hasStarted {
            hasStarted = true
            isDictionaryRoot = record.group != nil
            append(XMLPropertyListText.header)
            append(isDictionaryRoot ? "<dict>\n" : "<array>\n")
        }
        var indent = 1
        if isDictionaryRoot {
            let group = record.group ?? ""
            if currentGroup != group {
                if currentGroup != nil { append("\t</array>\n") }
                append("\t<key>")
                appendEscaped(group)
                append("</key>\n\t<array>\n")
                currentGroup = group
            }
            indent = 2
        }
        var fields = record.fields
        if let error {
            fields.append(
                RecordField(key: Self.errorKey, value: .text(error), position: record.position))
        }
        appendDictionary(fields, indent: indent)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Ends the document and closes the file.
    ///
    /// - Throws: ``ImportError`` `.unreadable` when the file cannot be written.
    public func close() throws {
        guard !isClosed else { return }
        isClosed = true
        if !hasStarted {
            append(XMLPropertyListText.header)
            append("<array/>\n")
        } else if isDictionaryRoot {
            if currentGroup != nil { append("\t</array>\n") }
            append("</dict>\n")
        } else {
            append("</array>\n")
        }
        append("</plist>\n")
        try flush()
        do {
            try handle.close()
        } catch {
            throw ImportError(
                .unreadable, at: SourcePosition(file: file), "cannot write the file (\(error))")
        }
    }

    // MARK: - Bytes

    private func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    private func appendEscaped(_ text: String) {
        var plist = XMLPropertyListText()
        plist.appendEscaped(text)
        buffer += plist.bytes
    }

    private func appendDictionary(_ fields: [RecordField], indent: Int) {
        var plist = XMLPropertyListText()
        plist.appendDictionary(fields, indent: indent)
        buffer += plist.bytes
    }

    /// Writes the buffer to the file.
    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ImportError(
                .unreadable, at: SourcePosition(file: file), "cannot write the file (\(error))")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Throws when `fields` nest deeper than the limit.
    private func checkDepth(_ fields: [RecordField], depth: Int, at place: SourcePosition) throws {
        guard depth <= maximumDepth else {
            throw ImportError(
                .tooLarge, at: place, "arrays and dicts nested deeper than \(maximumDepth) levels")
        }
        for field in fields {
            switch field.value {
            case .array(let inner), .set(let inner), .dictionary(let inner):
                try checkDepth(inner, depth: depth + 1, at: field.position(or: place))
            default:
                break
            }
        }
    }
}
