import Foundation
import StrataCore

/// Reads a txt file of *blocks*: records separated by blank lines, each
/// made of `Key: Value` header lines and then free body text, as a diary
/// export is written.
///
/// ```text
/// Date: 2024-05-01T08:30:00Z
/// Title: Morning walk
/// Tags: walk, river
/// Rain at first, then sun.
/// Note: this line is body text, since the body has started.
///
/// Date: 2024-05-02T09:00:00Z
/// A body-only entry would have no headers at all.
/// ```
///
/// The rules:
/// - One or more blank lines (empty, or only spaces and tabs) end a block;
///   LF, CRLF and lone CR line endings are all accepted, mixed too.
/// - A block starts with its header lines: `Key: Value`, where the key
///   starts with a letter or digit and holds letters, digits, spaces, `_`,
///   `-` and `.` (at most 64 characters), followed by a colon and a space, a
///   tab or the end of the line (`Tags:` is a header with an empty value;
///   `http://x`, `- item: x` and `10:30 meeting` are not headers). Each
///   becomes a `.text` field named by its key, trimmed, with its value
///   trimmed of spaces and tabs. The first line that is not a header starts the
///   body: every remaining line, joined with `\n`, becomes the field named
///   ``bodyKey``. A header-like line inside the body stays body text.
/// - A block of headers only has no body field; a block whose first line is
///   not a header has only the body field.
/// - A header key given twice in a block (ignoring case) is a
///   ``ImportError/Code/structure`` error, as is a header named like
///   ``bodyKey`` in a block that also has body lines: joining would hide
///   the duplicate from the user.
/// - Lines starting with `#strata-error:` are not data: they are the reason
///   lines of the importer's rejects file (``TextBlockWriter``), so a
///   rejects file can be fixed and imported again. They end a block like a
///   blank line.
/// - Text in the encoding asked for, UTF-8 by default (``TextInput``: a
///   byte-order mark decides first). Invalid UTF-8 and
///   NUL bytes are ``ImportError/Code/encoding`` errors at their line and
///   column.
///
/// Every record gives its block's exact text as
/// ``ImportRecord/originalText`` (without the last line ending). Positions:
/// a record is at its first line, column 1; a header field at the column
/// where its value starts; the body field at its first line, column 1.
///
/// An error inside a block (bad encoding, a duplicate key, a block over
/// ``ImportLimits/maximumRecordBytes``) is thrown once the whole block has
/// been read, so the next call goes on with the next block. A read failure
/// of the file is thrown by every later call.
public final class TextBlockReader: TreeRecordReader {
    /// The input's path as given.
    public let file: String
    /// The field name of a block's body text.
    public let bodyKey: String
    /// The limits the reader keeps to.
    public let limits: ImportLimits

    private let lines: LineReader
    private var text = TextRecordText()
    private var scratch: [UInt8] = []
    private var problem: ImportError?
    private var headers = TextHeaders()
    /// The most fields a record had so far: each record's array is made
    /// that large at once.
    private var fieldCapacity = 4
    /// Whether the next block is already collected (by ``peekFieldNames()``).
    private var isHoldingBlock = false

    /// Opens a txt file of blocks.
    ///
    /// - Parameters:
    ///   - path: The file; positions name it as given.
    ///   - limits: The largest block (``ImportLimits/maximumRecordBytes``,
    ///     counting its line endings), value and header count.
    ///   - bodyKey: The field name of the body text.
    ///   - encoding: The file's encoding when it starts with no byte-order
    ///     mark (``TextInput``).
    /// - Throws: ``ImportError/Code/unreadable`` when the file cannot be
    ///   opened.
    public init(
        path: String, limits: ImportLimits = ImportLimits(), bodyKey: String = "body",
        encoding: TextEncoding = .utf8
    ) throws {
        file = path
        self.bodyKey = bodyKey
        self.limits = limits
        lines = try LineReader(
            path: path, encoding: encoding, maximumLineBytes: limits.maximumRecordBytes)
    }

    /// Bytes of the file read so far, up to the end of the last block read.
    public var bytesRead: Int64 { lines.consumedBytes }

    /// What was guessed of the file's encoding, when it was not UTF-8.
    public var notes: [String] { lines.guessNote.map { [$0] } ?? [] }

    /// The file's size.
    public var totalBytes: Int64? { lines.totalBytes }

    /// The next block, or nil after the last one.
    ///
    /// - Throws: ``ImportError`` located in the block; the next call reads
    ///   the block after it. After ``ImportError/Code/unreadable`` (or a
    ///   UTF-16 file) every call throws.
    public func nextRecord() throws -> ImportRecord? {
        guard try collectBlock() else { return nil }
        if let problem { throw problem }
        return try parseBlock()
    }

    /// The field names of the next block, without consuming it: the next
    /// call reads that block again.
    ///
    /// - Returns: Nil at the end of the file.
    /// - Throws: What reading the block throws (the next call throws it too).
    func peekFieldNames() throws -> [String]? {
        guard try collectBlock() else { return nil }
        isHoldingBlock = true
        if let problem { throw problem }
        return try text.bytes.withUnsafeBufferPointer { bytes in
            let cursor = TextRecordCursor(bytes: bytes, text: text, file: file)
            try headers.read(cursor, limits: limits)
            var names = headers.keys.map(cursor.string)
            if headers.end < bytes.count - text.lastEndingLength { names.append(bodyKey) }
            return names
        }
    }

    /// Reads the next block and gives its fields to `body` as bytes in the
    /// reader's buffer, valid only during the call: the importer's fast path,
    /// which makes no strings of keys it has seen or of values it binds.
    ///
    /// - Returns: What `body` returned, or nil after the last block.
    /// - Throws: What ``nextRecord()`` throws for the block, or what `body`
    ///   throws.
    func withNextBlock<Result>(_ body: (TextBlockFields) throws -> Result) throws -> Result? {
        guard try collectBlock() else { return nil }
        if let problem { throw problem }
        return try text.bytes.withUnsafeBufferPointer { bytes in
            let cursor = TextRecordCursor(bytes: bytes, text: text, file: file)
            try headers.read(cursor, limits: limits)
            let bodyEnd = bytes.count - text.lastEndingLength
            var fields = TextBlockFields(
                cursor: cursor, headers: headers, body: nil, bodyKey: bodyKey,
                bodyLine: headers.endLine, bodyStart: headers.end)
            guard headers.end < bodyEnd else { return try body(fields) }
            if let index = headers.index(of: bodyKey, in: cursor) {
                throw ImportError(
                    .structure, at: headers.position(ofValue: index, in: cursor),
                    "the block has both a \(cursor.string(headers.keys[index])) header and body text"
                )
            }
            if bodyEnd - headers.end > limits.maximumFieldBytes {
                throw ImportError(
                    .tooLarge, at: fields.position(ofField: headers.keys.count),
                    "the body is over the limit of \(limits.maximumFieldBytes) bytes")
            }
            if text.endingsAreLF {
                fields.body = cursor.slice(headers.end..<bodyEnd)
                return try body(fields)
            }
            cursor.joinLines(from: headers.end, to: bodyEnd, into: &scratch)
            return try scratch.withUnsafeBufferPointer { joined in
                fields.body = joined
                return try body(fields)
            }
        }
    }

    /// Reads the next block's lines into ``text``, and its first problem
    /// (bad encoding, too large) into ``problem``.
    ///
    /// - Returns: false at the end of the file.
    private func collectBlock() throws -> Bool {
        if isHoldingBlock {
            isHoldingBlock = false
            return true
        }
        // Work on a local value (moved out and back, not copied): appending
        // to a property would check exclusive access on every line.
        var text = TextRecordText()
        swap(&text, &self.text)
        var problem: ImportError?
        defer {
            swap(&text, &self.text)
            self.problem = problem
        }
        text.reset()
        var started = false
        var size = 0
        while let line = try lines.next() {
            if line.problem == nil, isSeparator(line.bytes) {
                if started { break }
                continue
            }
            if !started {
                started = true
                text.firstLine = line.number
                text.firstOffset = line.byteOffset
            }
            size += line.length + line.terminator.length
            guard problem == nil else { continue }  // Only find the block's end.
            if size > limits.maximumRecordBytes {
                problem = ImportError(
                    .tooLarge,
                    at: SourcePosition(
                        file: file, line: text.firstLine, column: 1, byteOffset: text.firstOffset),
                    "the block is over the limit of \(limits.maximumRecordBytes) bytes")
            } else if case .encoding(let found) = line.problem {
                problem = line.error(found, file: file)
            } else {
                text.append(line)
            }
        }
        return started
    }

    /// Whether `line` ends a block: blank, or a rejects file's reason line.
    private func isSeparator(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = line.first else { return true }
        if first == UInt8(ascii: "#") { return TextBlockWriter.isReasonLine(line) }
        return TextHeaderLine.isSpace(first) && TextHeaderLine.isBlank(line)
    }

    /// Turns the collected block into a record.
    private func parseBlock() throws -> ImportRecord {
        try text.bytes.withUnsafeBufferPointer { bytes in
            let cursor = TextRecordCursor(bytes: bytes, text: text, file: file)
            var fields: [RecordField] = []
            fields.reserveCapacity(fieldCapacity)
            try headers.read(cursor, limits: limits, into: &fields)
            fieldCapacity = min(max(fieldCapacity, fields.count + 1), 64)
            let bodyEnd = bytes.count - text.lastEndingLength
            if headers.end < bodyEnd {
                let position = SourcePosition(
                    file: file, line: headers.endLine, column: 1,
                    byteOffset: text.firstOffset + Int64(headers.end))
                if let index = headers.index(of: bodyKey, in: cursor) {
                    throw ImportError(
                        .structure, at: fields[index].position(or: position),
                        "the block has both a \(fields[index].key) header and body text")
                }
                if bodyEnd - headers.end > limits.maximumFieldBytes {
                    throw ImportError(
                        .tooLarge, at: position,
                        "the body is over the limit of \(limits.maximumFieldBytes) bytes")
                }
                let body = cursor.joinedLines(from: headers.end, to: bodyEnd, scratch: &scratch)
                fields.append(RecordField(key: bodyKey, value: .text(body), position: position))
            }
            return ImportRecord(
                fields: fields,
                position: SourcePosition(
                    file: file, line: text.firstLine, column: 1, byteOffset: text.firstOffset),
                originalText: text.originalText)
        }
    }
}
