import Foundation
import StrataCore

/// Writes records as txt blocks, each after a `#strata-error: <reason>`
/// line: the importer's rejects file for txt-block input, which
/// ``TextBlockReader`` reads again once fixed (it skips the reason lines).
///
/// ```swift
/// let rejects = try TextBlockWriter(path: "diary.rejects.txt")
/// try rejects.write(record, reason: "line 12: Date: not an ISO 8601 date")
/// try rejects.close()
/// ```
///
/// A record that carries its ``ImportRecord/originalText`` (every record of
/// ``TextBlockReader`` does) is written as that exact text, which reads back
/// as the same block. Otherwise the block is built from the fields: one
/// `Key: value` line per field, then the field named ``bodyKey`` as the body.
///
/// Not every record can be a block, since blocks have no escapes. The
/// writer never writes a block that would read back differently (silently
/// changing a rejected record is worse than not writing it); it throws an
/// ``ImportError/Code/structure`` error naming the reason instead, and the
/// caller decides (report the record by position only, for instance). What
/// cannot be written: a blank line inside the body (it would end the block);
/// a body whose first line reads as a header (`Note: x` would become a
/// field); a body line starting with `#strata-error:`; a carriage return, a
/// line break or a NUL in a value; a header value with leading or trailing
/// spaces (they are trimmed on reading); a key that is not a header name;
/// two keys equal but for case; nested arrays and dictionaries. Null fields
/// are left out (they read back as absent), an empty body likewise; data is
/// written as base64 and dates as ISO 8601, which the importer converts back.
public final class TextBlockWriter {
    /// The start of a reason line.
    public static let reasonPrefix = "#strata-error:"

    /// The field written as the body.
    public let bodyKey: String
    /// The file's path.
    public let path: String
    private var handle: FileHandle?

    /// Creates (or empties) the file at `path`.
    ///
    /// - Parameters:
    ///   - path: The rejects file.
    ///   - bodyKey: The field written as the body, as the reader was given.
    /// - Throws: ``ImportError/Code/unreadable`` when the file cannot be
    ///   created.
    public init(path: String, bodyKey: String = "body") throws {
        self.path = path
        self.bodyKey = bodyKey
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ImportError(.unreadable, at: SourcePosition(file: path), "cannot create the file")
        }
        self.handle = handle
    }

    deinit { try? handle?.close() }  // close() reports errors; this is the fallback.

    /// Appends `record` as a block after a reason line, and a blank line.
    ///
    /// - Throws: ``ImportError/Code/structure`` when the record cannot be
    ///   written as a block (nothing is written then);
    ///   ``ImportError/Code/unreadable`` when writing fails.
    public func write(_ record: ImportRecord, reason: String) throws {
        let block = try Self.block(for: record, reason: reason, bodyKey: bodyKey)
        guard let handle else {
            throw ImportError(.unreadable, at: SourcePosition(file: path), "the file is closed")
        }
        do {
            try handle.write(contentsOf: block)
        } catch {
            throw ImportError(.unreadable, at: SourcePosition(file: path), "cannot write: \(error)")
        }
    }

    /// Flushes and closes the file.
    ///
    /// - Throws: ``ImportError/Code/unreadable`` when that fails.
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw ImportError(.unreadable, at: SourcePosition(file: path), "cannot close: \(error)")
        }
    }

    /// The text ``write(_:reason:)`` appends for `record`: the reason line,
    /// the block, a blank line.
    ///
    /// - Throws: ``ImportError/Code/structure`` when the record cannot be a
    ///   block.
    public static func block(for record: ImportRecord, reason: String, bodyKey: String = "body")
        throws -> Data
    {
        var output = Data((reasonPrefix + " " + oneLine(reason) + "\n").utf8)
        if let original = record.originalText, readsBackAsOneBlock(original) {
            // Its own last line ending is dropped: one LF ends the block's
            // last line, whatever it was (a lone CR then LF would be CRLF).
            var text = original[...]
            if text.last == 0x0A { text = text.dropLast() }
            if text.last == 0x0D { text = text.dropLast() }
            output.append(contentsOf: text)
            output.append(0x0A)
        } else {
            output.append(contentsOf: try blockText(of: record, bodyKey: bodyKey).utf8)
        }
        output.append(0x0A)
        return output
    }

    /// Whether `line` starts with ``reasonPrefix``.
    static func isReasonLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix = reasonPrefix.utf8
        guard line.count >= prefix.count else { return false }
        return zip(line, prefix).allSatisfy { $0 == $1 }
    }

    // MARK: - Building from the fields

    static func blockText(of record: ImportRecord, bodyKey: String) throws -> String {
        var text = ""
        var keys = Set<String>()
        var body: RecordField?
        for field in record.fields {
            func refuse(_ why: String) -> ImportError {
                ImportError(
                    .structure, at: field.position(or: record.position),
                    "the field \(field.key) cannot be written as a txt block: \(why)")
            }
            guard keys.insert(field.key.lowercased()).inserted else {
                throw refuse("another field has the same name but for case")
            }
            if field.key.lowercased() == bodyKey.lowercased() {
                body = field
                continue
            }
            guard let value = try written(field.value, refuse) else { continue }
            let line = field.key + ":" + (value.isEmpty ? "" : " " + value)
            guard !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw refuse("its value has a line break or a NUL")
            }
            guard let header = parsedHeader(line), header.key == field.key, header.value == value
            else {
                throw refuse(
                    "it would not read back the same (a header name is letters, digits, "
                        + "spaces, _, - and ., and values lose their outer spaces)")
            }
            text += line + "\n"
        }
        if let body, let value = try written(body.value, { refuse(body, record, $0) }),
            !value.isEmpty
        {
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0 }) {
                throw refuse(body, record, "it has a carriage return or a NUL")
            }
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let what = "line \(number + 1) of the body"
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    throw refuse(body, record, "\(what) is blank, and a blank line ends a block")
                }
                if line.hasPrefix(reasonPrefix) {
                    throw refuse(body, record, "\(what) starts with \(reasonPrefix)")
                }
            }
            if parsedHeader(String(lines[0])) != nil {
                throw refuse(body, record, "its first line would read as a header line")
            }
            text += value + "\n"
        }
        guard !text.isEmpty else {
            throw ImportError(
                .structure, at: record.position,
                "the record has no field that can be written as a txt block")
        }
        return text
    }

    private static func refuse(
        _ field: RecordField, _ record: ImportRecord, _ why: String
    ) -> ImportError {
        ImportError(
            .structure, at: field.position(or: record.position),
            "the field \(field.key) cannot be written as a txt block: \(why)")
    }

    /// The text of a scalar value, nil for null.
    private static func written(
        _ value: RecordValue, _ refuse: (String) -> ImportError
    ) throws -> String? {
        switch value {
        case .null: return nil
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .unsignedInteger(let number), .uid(let number): return String(number)
        case .real(let number): return String(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .data(let bytes): return bytes.base64EncodedString()
        case .date(let date):
            guard let text = ISO8601Date.string(from: date.timeIntervalSinceReferenceDate) else {
                throw refuse("the date has no ISO 8601 form")
            }
            return text
        case .array, .set, .dictionary:
            throw refuse("nested values have no txt form")
        }
    }

    /// The key and value `line` reads back as, when it is a header line.
    static func parsedHeader(_ line: String) -> (key: String, value: String)? {
        var line = line
        return line.withUTF8 { bytes in
            guard UTF8Validator.firstProblem(in: bytes) == nil,
                let header = TextHeaderLine.parse(bytes)
            else { return nil }
            return (
                String(decoding: UnsafeBufferPointer(rebasing: bytes[header.key]), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: bytes[header.value]), as: UTF8.self)
            )
        }
    }

    /// Whether `text` reads back as exactly one block: UTF-8 without NUL, no
    /// byte-order mark, and no blank or reason line.
    private static func readsBackAsOneBlock(_ text: Data) -> Bool {
        text.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !bytes.isEmpty, UTF8Validator.firstProblem(in: bytes) == nil,
                !(bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF)
            else { return false }
            var lineStart = 0
            var index = 0
            while index <= bytes.count {
                let atEnd = index == bytes.count
                if atEnd || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
                    let isLastEmpty = atEnd && line.isEmpty && lineStart > 0
                    if !isLastEmpty, TextHeaderLine.isBlank(line) || isReasonLine(line) {
                        return false
                    }
                    if !atEnd, bytes[index] == 0x0D, index + 1 < bytes.count,
                        bytes[index + 1] == 0x0A
                    {
                        index += 1
                    }
                    lineStart = index + 1
                }
                index += 1
            }
            return true
        }
    }

    /// `text` on one line: line breaks become spaces.
    private static func oneLine(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                scalar == "\n" || scalar == "\r" || scalar == "\0" ? " " : Character(scalar)
            })
    }
}
