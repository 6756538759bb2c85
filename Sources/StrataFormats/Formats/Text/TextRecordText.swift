import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// The exact bytes of one txt record (a block, or a whole file) with where
/// they start, and the parsing the block and file readers share: header
/// lines, line splitting and located fields.
///
/// The lines of a record are consecutive in the file, so a line's number and
/// offset follow from its place in ``bytes``: no table per line is kept.
struct TextRecordText {
    /// The record's lines, each with its line ending, as in the file.
    var bytes: [UInt8] = []
    /// The number of the first line.
    var firstLine = 1
    /// The file offset of the first byte.
    var firstOffset: Int64 = 0
    /// Whether every line ending but the last is a plain LF, so that a run
    /// of lines is already its `\n`-joined text.
    var endingsAreLF = true
    /// How the last line ends.
    var lastEnding = LineReader.Terminator.none
    /// Whether a line ends with CR or CRLF.
    var hasCR = false

    /// The length of the last line's ending (0 at the end of a file).
    var lastEndingLength: Int { lastEnding.length }

    /// Empties it, keeping the storage.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        firstLine = 1
        firstOffset = 0
        endingsAreLF = true
        hasCR = false
        lastEnding = .none
    }

    /// Appends `line`; the first line appended sets where the record starts.
    package mutating func append(_ line: LineReader.Line) {
        if bytes.isEmpty {
            firstLine = line.number
            firstOffset = line.byteOffset
        } else if lastEnding != .lf {
            endingsAreLF = false
        }
        bytes.append(contentsOf: line.bytesWithTerminator)
        lastEnding = line.terminator
        if line.terminator == .cr || line.terminator == .crlf { hasCR = true }
    }

    /// The text without the last line ending, for ``ImportRecord/originalText``.
    var originalText: Data {
        bytes.withUnsafeBufferPointer {
            Data(buffer: UnsafeBufferPointer(rebasing: $0.dropLast(lastEndingLength)))
        }
    }
}

/// Reading a ``TextRecordText``'s bytes.
struct TextRecordCursor {
    /// The record's bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The record.
    let text: TextRecordText
    /// The path shown in positions.
    let file: String

    /// The end of the content of the line starting at `start`, and the start
    /// of the next line.
    func lineEnd(from start: Int) -> (contentEnd: Int, next: Int) {
        let count = bytes.count
        guard start < count, let base = bytes.baseAddress else { return (count, count) }
        if !text.hasCR {
            // Content never holds a CR (it would have ended the line), so
            // without CR endings an LF is the only line end.
            guard let lf = memchr(base + start, 0x0A, count - start) else { return (count, count) }
            let index = UnsafeRawPointer(lf) - UnsafeRawPointer(base)
            return (index, index + 1)
        }
        var index = start
        while index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        return (index, nextLine(afterContentEnd: index))
    }

    /// The start of the line after the one whose content ends at `index`.
    func nextLine(afterContentEnd index: Int) -> Int {
        guard index < bytes.count else { return index }
        if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
            return index + 2
        }
        return index + 1
    }

    /// The bytes in `range`.
    func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The text in `range` (already valid UTF-8).
    package func string(_ range: Range<Int>) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }

    /// The position of byte `index`, on line `line` that starts at `lineStart`.
    func position(line: Int, lineStart: Int, index: Int) -> SourcePosition {
        let column = 1 + UTF8Validator.scalarCount(slice(lineStart..<index))
        return SourcePosition(
            file: file, line: line, column: column, byteOffset: text.firstOffset + Int64(index))
    }

    /// Whether the key in `range` is `name`, ignoring ASCII case.
    func key(_ range: Range<Int>, is name: String) -> Bool {
        var index = range.lowerBound
        for byte in name.utf8 {
            guard index < range.upperBound, fold(bytes[index]) == fold(byte) else { return false }
            index += 1
        }
        return index == range.upperBound
    }

    /// Whether two keys in the record are the same, ignoring ASCII case.
    func sameKey(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        guard first.count == second.count else { return false }
        for offset in 0..<first.count
        where fold(bytes[first.lowerBound + offset]) != fold(bytes[second.lowerBound + offset]) {
            return false
        }
        return true
    }

    /// The lines from `start` to `end` (a line start and a content end)
    /// joined with `\n`, whatever their endings were.
    func joinedLines(from start: Int, to end: Int, scratch: inout [UInt8]) -> String {
        guard start < end else { return "" }
        if text.endingsAreLF { return string(start..<end) }
        joinLines(from: start, to: end, into: &scratch)
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Puts the lines of `start..<end` into `scratch`, joined with LF.
    func joinLines(from start: Int, to end: Int, into scratch: inout [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        var lineStart = start
        while lineStart < end {
            let (contentEnd, next) = lineEnd(from: lineStart)
            if lineStart > start { scratch.append(0x0A) }
            scratch.append(contentsOf: slice(lineStart..<min(contentEnd, end)))
            lineStart = next
        }
    }

    func foldedString(_ range: Range<Int>) -> String {
        String(decoding: slice(range).lazy.map(fold), as: UTF8.self)
    }

    private func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

/// The header lines at the top of a record, read as fields.
///
/// One value is kept by each reader and reused, so that reading a record
/// allocates only its fields.
struct TextHeaders {
    /// Each header's key bytes in the record, for finding duplicates.
    private(set) var keys: [Range<Int>] = []
    /// Each header's value bytes in the record (trimmed).
    private(set) var values: [Range<Int>] = []
    /// Each header's line: its number and where it starts in the record,
    /// for the value's position.
    private(set) var lines: [(number: Int, start: Int)] = []
    /// The keys folded to lower case, once a record has many headers:
    /// comparing each key with every other would take quadratic time.
    private var foldedKeys = Set<String>()
    /// Where the line after the headers starts.
    private(set) var end = 0
    /// The number of the line after the headers.
    private(set) var endLine = 0

    /// Reads the header lines at the start of `cursor`'s record into
    /// `fields`.
    ///
    /// - Throws: ``ImportError/Code/structure`` for a key given twice
    ///   (ignoring case, since mapping folds case: `Date` and `date` would
    ///   fill one attribute), ``ImportError/Code/tooLarge`` for a value over
    ///   the field limit or more headers than the field count limit.
    package mutating func read(
        _ cursor: TextRecordCursor, limits: ImportLimits, into fields: inout [RecordField]
    ) throws {
        try read(cursor, limits: limits, makingFields: true, into: &fields)
    }

    /// Reads the header lines into ``keys``, ``values`` and ``lines`` only
    /// (the importer's flat path reads them as bytes).
    package mutating func read(_ cursor: TextRecordCursor, limits: ImportLimits) throws {
        var none: [RecordField] = []
        try read(cursor, limits: limits, makingFields: false, into: &none)
    }

    /// The position of header `index`'s value.
    func position(ofValue index: Int, in cursor: TextRecordCursor) -> SourcePosition {
        cursor.position(
            line: lines[index].number, lineStart: lines[index].start,
            index: values[index].lowerBound)
    }

    private mutating func read(
        _ cursor: TextRecordCursor, limits: ImportLimits, makingFields: Bool,
        into fields: inout [RecordField]
    ) throws {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        foldedKeys.removeAll(keepingCapacity: true)
        var lineStart = 0
        var line = cursor.text.firstLine
        let count = cursor.bytes.count
        while lineStart < count,
            let header = TextHeaderLine.parse(cursor.slice(lineStart..<count))
        {
            let key = (header.key.lowerBound + lineStart)..<(header.key.upperBound + lineStart)
            let value =
                (header.value.lowerBound + lineStart)..<(header.value.upperBound + lineStart)
            func position() -> SourcePosition {
                cursor.position(line: line, lineStart: lineStart, index: value.lowerBound)
            }
            if isRepeated(key, cursor) {
                throw ImportError(
                    .structure, at: position(),
                    "the header \(cursor.string(key)) is given twice in this record")
            }
            if keys.count >= limits.maximumFieldCount {
                throw ImportError(
                    .tooLarge, at: position(),
                    "more than \(limits.maximumFieldCount) header lines in one record")
            }
            if value.count > limits.maximumFieldBytes {
                throw ImportError(
                    .tooLarge, at: position(),
                    "the value of \(cursor.string(key)) is \(value.count) bytes, over the "
                        + "limit of \(limits.maximumFieldBytes)")
            }
            keys.append(key)
            values.append(value)
            lines.append((line, lineStart))
            if makingFields {
                fields.append(
                    RecordField(
                        key: cursor.string(key), value: .text(cursor.string(value)),
                        position: position()))
            }
            lineStart = cursor.nextLine(afterContentEnd: header.lineEnd + lineStart)
            line += 1
        }
        end = lineStart
        endLine = line
    }

    /// Whether `key` repeats an earlier key of the record, ignoring ASCII
    /// case. Few keys are compared one by one; many go through a set.
    private mutating func isRepeated(_ key: Range<Int>, _ cursor: TextRecordCursor) -> Bool {
        let few = 16
        if keys.count < few { return keys.contains { cursor.sameKey($0, key) } }
        if foldedKeys.isEmpty {
            for earlier in keys { foldedKeys.insert(cursor.foldedString(earlier)) }
        }
        return !foldedKeys.insert(cursor.foldedString(key)).inserted
    }

    /// Forgets the last record's headers (for a file read without them).
    mutating func clear(firstLine: Int) {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        end = 0
        endLine = firstLine
    }

    /// The index of the header whose key is `name` (ignoring ASCII case).
    func index(of name: String, in cursor: TextRecordCursor) -> Int? {
        keys.firstIndex { cursor.key($0, is: name) }
    }
}
