import Foundation
import StrataCore
import StrataSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Writes rejected records as JSON Lines, each with the reason it was
/// rejected under the key `"strata_error"`: the importer's rejects file
/// for JSON and NDJSON inputs, ready to be fixed and imported again.
///
/// With `asArray` (a rejects file named `.json`) the file holds the same
/// lines as the elements of one JSON array (`[` first, a `,` after each line but the last, `]` at the end),
/// so that it reads back as the JSON its name says — a single reject on
/// one line would otherwise read as a document, not a record.
///
/// A record whose original text is a JSON object is written verbatim (its
/// key order, number forms and escapes kept; line breaks between tokens
/// become spaces so it fits on one line) with `"strata_error"` inserted as
/// its first key. A record without original text is serialized from its
/// fields. Text that is not a JSON object (a line with a syntax error) is
/// kept as a string under `"strata_text"`. A reject with neither text nor
/// fields (an error the reader could not tie to a record's text) is a line
/// with the reason alone.
///
/// ```swift
/// let rejects = try JSONRecordWriter(path: "rejects.ndjson")
/// try rejects.write(record, error: error)
/// try rejects.close()
/// ```
public final class JSONRecordWriter {
    /// The key that holds the reason a record was rejected.
    public static let errorKey = "strata_error"
    /// The key that holds the text of a record that is not a JSON object.
    public static let textKey = "strata_text"
    /// The file's path as given.
    public let path: String
    private var descriptor: Int32
    private var pending: [UInt8] = []
    private static let flushSize = 64 * 1024
    /// Whether the lines are the elements of one array (a `.json` name).
    private let isArray: Bool
    /// Whether a record has been written (the array's separators).
    private var hasRecords = false

    /// Creates (or empties) the file at `path`; `asArray` writes the lines
    /// as the elements of one JSON array.
    ///
    /// - Throws: ``ImportError`` with ``ImportError/Code/unreadable`` when
    ///   the file cannot be created.
    public init(path: String, asArray: Bool = false) throws {
        self.path = path
        isArray = asArray
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ImportError(
                .unreadable, at: SourcePosition(file: path), "cannot create: \(reason)")
        }
        pending.reserveCapacity(Self.flushSize)
    }

    deinit {
        if descriptor >= 0 {
            // close() was not called: keep what was written, as far as the disk lets us.
            if isArray { pending += Array((hasRecords ? "]\n" : "[]\n").utf8) }
            if (try? flush()) == nil {
                FileHandle.standardError.write(Data("strata: cannot write \(path)\n".utf8))
            }
            Glibc.close(descriptor)
        }
    }

    /// Appends `record` with the reason `error`, as one line.
    ///
    /// - Throws: ``ImportError`` when the file cannot be written.
    public func write(_ record: ImportRecord, error: ImportError) throws {
        try write(error: error, text: record.originalText, record: record)
    }

    /// Appends a record that could not be read as a JSON object (such as a
    /// line with a syntax error), keeping its text as a string under
    /// ``textKey``.
    ///
    /// - Throws: ``ImportError`` when the file cannot be written.
    public func write(text: Data, error: ImportError) throws {
        try write(error: error, text: text, record: nil)
    }

    /// One line for a rejected record: its text verbatim when it is a JSON
    /// object, else its fields, else its text as a string; with neither,
    /// the reason alone.
    package func write(error: ImportError, text: Data?, record: ImportRecord?) throws(ImportError) {
        if isArray { pending += hasRecords ? Array(",\n".utf8) : [UInt8(ascii: "[")] }
        hasRecords = true
        if let text, Self.isObject(text) {
            appendVerbatim(text, reason: error.description)
        } else {
            var encoder = JSONWriter()
            encoder.openObject(withReason: error.description)
            if let text {
                encoder.member(Self.textKey, .text(String(decoding: text, as: UTF8.self)))
            } else if let record {
                for field in record.fields { encoder.member(field.key, field.value) }
            }
            encoder.closeObject()
            pending += encoder.bytes
        }
        if !isArray { pending.append(0x0A) }
        if pending.count >= Self.flushSize { try flush() }
    }

    /// Writes what is pending and closes the file.
    ///
    /// - Throws: ``ImportError`` when the file cannot be written.
    public func close() throws {
        guard descriptor >= 0 else { return }
        defer {
            Glibc.close(descriptor)
            descriptor = -1
        }
        if isArray { pending += Array((hasRecords ? "]\n" : "[]\n").utf8) }
        try flush()
    }

    private func flush() throws(ImportError) {
        if let code = pending.withUnsafeBytes({ FileDescriptorOutput.writeAll($0, to: descriptor) })
        {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path),
                "cannot write: \(FileDescriptorOutput.reason(code))")
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Whether `text` parses as one JSON object.
    private static func isObject(_ text: Data) -> Bool {
        guard let node = try? JSONReader.parse(text), case .dictionary = node.value else {
            return false
        }
        return true
    }

    /// `text` (a JSON object) on one line with the reason as its first member.
    private func appendVerbatim(_ text: Data, reason: String) {
        var encoder = JSONWriter()
        encoder.openObject(withReason: reason)
        pending += encoder.bytes
        let bytes = [UInt8](text)
        var index = 0
        while index < bytes.count && bytes[index] != UInt8(ascii: "{") { index += 1 }
        index += 1
        var rest = index
        while rest < bytes.count && JSONRecordReader.isWhitespace(bytes[rest]) { rest += 1 }
        if rest < bytes.count && bytes[rest] != UInt8(ascii: "}") {
            pending.append(UInt8(ascii: ","))
        }
        // In valid JSON, CR and LF occur only between tokens, never inside strings.
        for byte in bytes[index...] {
            pending.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte)
        }
    }
}
