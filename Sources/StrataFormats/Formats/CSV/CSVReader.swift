import Foundation
import StrataCore

/// A streaming reader of delimited text: CSV (RFC 4180), TSV, txt lines and
/// whole lines.
///
/// It reads the file in large chunks and hands out each field as UTF-8 bytes
/// inside its own buffer, so a record costs no allocation: only a quoted
/// field with doubled quotes is copied (undoubled) aside.
///
/// What it accepts beyond RFC 4180, as most readers do:
/// - Line endings CRLF, LF and CR, mixed in one file; a quoted field may hold
///   any of them. Lines are physical lines: a line break inside a quoted
///   field counts.
/// - A blank line (nothing between two line breaks) is skipped, not read as
///   a record with one empty field.
/// - A quote inside an unquoted field (`ab"c`) is kept as a plain character;
///   only a quote at the very start of a field opens a quoted field.
/// - The last record needs no line break.
///
/// What it refuses, each with an ``ImportError`` at the offending place:
/// - Text between a closing quote and the next delimiter (`"a"b,`):
///   `.syntax`, at the text.
/// - A quoted field still open at the end of the file: `.syntax`, at the
///   field's opening quote.
/// - Invalid or overlong UTF-8, UTF-16 surrogates encoded in UTF-8, NUL
///   bytes: `.encoding`, at the bad byte.
/// - A record whose field count differs from the header's (or, without a
///   header, from the first record's): `.structure`, at the record. Field
///   names declared with ``declareFieldCount(_:)`` replace that shape.
/// - A field, record or field count over the ``ImportLimits``: `.tooLarge`.
///   Memory stays bounded: the buffer holds at most one record, up to the
///   record limit.
///
/// After any of these but the unclosed quote (which ends the file), the
/// next ``nextRecord()`` goes on with the following record; ``recordText()``
/// gives the bad record for a rejects file (empty for one over the size
/// limits, which is not kept). A file that cannot be read, or UTF-16 with an
/// unpaired surrogate, fails every call from there on (the records before
/// the bad place come first).
///
/// Input other than UTF-8 goes through `TextInput`: a UTF-8 byte-order
/// mark is skipped, a UTF-16 one (either byte order) decodes UTF-16, and
/// ``TextEncoding/latin1`` is decoded on request; fields, ``header`` and
/// ``recordText()`` are UTF-8 in every case, and byte offsets count bytes of
/// the file as it is.
///
/// ```swift
/// let reader = try CSVReader(path: "contacts.csv")
/// var names: [String] = []
/// while try reader.nextRecord() {
///     names.append(String(decoding: reader.field(0), as: UTF8.self))
/// }
/// ```
public final class CSVReader: FieldRecordReader {
    /// What was guessed of the input's encoding, when it was not UTF-8.
    public var notes: [String] { input.guessNote.map { [$0] } ?? [] }

    /// The input's path as given.
    public let file: String
    /// The dialect in force: the one given, or the one guessed from the
    /// first line.
    public private(set) var dialect: CSVDialect
    /// The field names of the header row (without a byte-order mark), or nil
    /// when the dialect has no header or the file is empty.
    public private(set) var header: [String]?

    let limits: ImportLimits
    let input: TextInput

    // MARK: The buffer

    /// The decoded text; `0..<end` holds bytes, `position..<end` unread ones.
    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    /// The capacity to come back to after a record larger than it.
    let initialCapacity: Int
    var end = 0
    /// Where the next record (or blank line) starts.
    var position = 0
    /// Whether the input has nothing more after `end`.
    var reachedEnd = false
    /// The last line ended with a CR at the buffer's end: a LF right after it
    /// belongs to the same line break.
    var skipsLineFeed = false
    /// The line of `position`, from 1.
    var line = 1
    /// The file offset of `position`.
    var sourceOffset: Int64

    // MARK: The current record

    var recordStart = 0
    /// The end of the record's text, before its line break.
    var recordEnd = 0
    var recordLine = 1
    var recordOffset: Int64 = 0
    /// The fields kept (at most the field-count limit).
    var spans: UnsafeMutablePointer<FieldSpan>
    var spanCapacity: Int
    var spanCount = 0
    /// The fields counted, kept or not.
    var fieldTotal = 0
    /// Whether the record holds a NUL or a byte from 0x80, and so needs the
    /// UTF-8 check.
    var recordNeedsCheck = false
    /// Where text follows a closing quote in the record, if it does.
    var strayTextOffset: Int?
    /// The fields copied out of the buffer: quoted ones with doubled quotes.
    var side: UnsafeMutablePointer<UInt8>
    var sideCapacity: Int
    var sideCount = 0
    /// The field count every record must have: the header's, or the first
    /// record's.
    var expectedFieldCount: Int?
    /// The field count declared by ``declareFieldCount(_:)``: records may
    /// have fewer fields or more, which the importer checks.
    var declaredFieldCount: Int?
    /// The last record was refused for its size before its end was found:
    /// the next call skips the rest of it first.
    var skipsOversizedRecord = false

    // MARK: The dialect as tables

    /// For each byte, ``CSVReader/stopClass`` when it ends an unquoted field
    /// (delimiter, CR, LF) and ``CSVReader/checkClass`` when it needs the
    /// UTF-8 check (NUL, 0x80 and above).
    let unquotedClasses: UnsafeMutablePointer<UInt8>
    /// The same inside quotes, where the quote, CR and LF stop the scan.
    let quotedClasses: UnsafeMutablePointer<UInt8>
    /// The scanners of unquoted and quoted fields, made from the dialect.
    var unquotedScanner: StopByteScanner
    var quotedScanner: StopByteScanner
    /// The delimiter and quote as `Int`, -1 when there is none.
    var delimiterValue: Int
    var quoteValue: Int

    static let stopClass: UInt8 = 1
    static let checkClass: UInt8 = 2
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    /// Where one field of the current record is.
    struct FieldSpan {
        /// The buffer offset of the field's first byte (its opening quote
        /// when quoted).
        var rawStart: Int
        /// The content: offsets in `side` when ``copied``, else in `buffer`.
        var start: Int
        var end: Int
        var flags: Int

        static let quoted = 1
        static let copied = 2
    }

    /// Opens a delimited text file and reads its header row.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - dialect: How the file is written; nil guesses the delimiter from
    ///     the first line (see ``CSVDialect/guess(headerLine:)-(Bytes)``), with
    ///     double quotes, a header row and UTF-8.
    ///   - limits: The largest field, record and field count accepted.
    /// - Throws: ``ImportError`` when the file cannot be read, the dialect
    ///   cannot be used (delimiter or quote a line break, a non-ASCII byte,
    ///   or both the same), or the header row is malformed.
    public convenience init(
        path: String, dialect: CSVDialect? = nil, limits: ImportLimits = .init()
    ) throws {
        try self.init(path: path, dialect: dialect, limits: limits, bufferSize: 1 << 20)
    }

    /// Opens a delimited text file whose delimiter is guessed from its first
    /// line, the rest of the dialect given, and reads its header row when
    /// the dialect has one.
    ///
    /// The guess is ``CSVDialect/guess(headerLine:)-(Bytes)``'s, counting
    /// outside the dialect's own quote.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - dialect: The quote, header and encoding; its delimiter is ignored.
    ///   - limits: The largest field, record and field count accepted.
    /// - Throws: ``ImportError`` as ``init(path:dialect:limits:)`` does.
    public convenience init(
        path: String, guessingDelimiterWith dialect: CSVDialect, limits: ImportLimits = .init()
    ) throws {
        try self.init(
            path: path, dialect: dialect, guessesDelimiter: true, limits: limits,
            bufferSize: 1 << 20)
    }

    /// Opens a file with a buffer of `bufferSize` bytes to start with (tests
    /// use tiny ones to cross buffer boundaries everywhere); a nil dialect
    /// is guessed as in ``init(path:dialect:limits:)``.
    convenience init(
        path: String, dialect: CSVDialect?, limits: ImportLimits, bufferSize: Int
    ) throws {
        try self.init(
            path: path, dialect: dialect ?? CSVDialect(), guessesDelimiter: dialect == nil,
            limits: limits, bufferSize: bufferSize)
    }

    /// Opens a file: the designated initializer behind the others.
    init(
        path: String, dialect given: CSVDialect, guessesDelimiter: Bool, limits: ImportLimits,
        bufferSize: Int
    ) throws {
        var checked = given
        if guessesDelimiter { checked.delimiter = nil }
        try Self.check(checked, file: path)
        input = try TextInput(path: path, encoding: given.encoding, chunkSize: bufferSize)
        file = path
        self.limits = limits
        initialCapacity = max(bufferSize, 1)
        capacity = initialCapacity
        buffer = .allocate(capacity: capacity)
        sourceOffset = Int64(input.byteOrderMarkLength)
        spanCapacity = 16
        spans = .allocate(capacity: spanCapacity)
        sideCapacity = 256
        side = .allocate(capacity: sideCapacity)
        unquotedClasses = .allocate(capacity: 256)
        quotedClasses = .allocate(capacity: 256)
        self.dialect = given
        delimiterValue = given.delimiter.map(Int.init) ?? -1
        quoteValue = given.quote.map(Int.init) ?? -1
        // Set up in fillClassTables(), once the delimiter is known.
        let lineFeed = Self.lineFeed
        unquotedScanner = StopByteScanner(
            stoppingAt: lineFeed, lineFeed, lineFeed, classes: unquotedClasses)
        quotedScanner = unquotedScanner
        if guessesDelimiter {
            let delimiter = CSVDialect.guessDelimiter(in: try firstLine(), quote: given.quote)
            self.dialect.delimiter = delimiter
            delimiterValue = Int(delimiter)
            try Self.check(self.dialect, file: path)  // An odd quote may be a guessable byte.
        }
        fillClassTables()
        if self.dialect.hasHeader, try nextRecord() {
            var names = (0..<spanCount).map { String(decoding: field($0), as: UTF8.self) }
            if let first = names.first, first.hasPrefix("\u{FEFF}") {
                names[0] = String(first.dropFirst())
            }
            header = names
        }
    }

    deinit {
        buffer.deallocate()
        spans.deallocate()
        side.deallocate()
        unquotedClasses.deallocate()
        quotedClasses.deallocate()
    }

    /// Refuses a dialect the scanner cannot work with.
    private static func check(_ dialect: CSVDialect, file: String) throws {
        let special = [Self.lineFeed, Self.carriageReturn]
        for (name, byte) in [("delimiter", dialect.delimiter), ("quote", dialect.quote)] {
            guard let byte else { continue }
            if special.contains(byte) || byte >= 0x80 {
                throw ImportError(
                    .syntax, at: SourcePosition(file: file),
                    "the \(name) must be an ASCII character other than a line break")
            }
        }
        if dialect.delimiter != nil, dialect.delimiter == dialect.quote {
            throw ImportError(
                .syntax, at: SourcePosition(file: file),
                "the delimiter and the quote must be different characters")
        }
    }

    /// Sets the byte classes and the scanners from the dialect.
    private func fillClassTables() {
        for byte in 0..<256 {
            let check = byte == 0 || byte >= 0x80 ? Self.checkClass : 0
            unquotedClasses[byte] = check
            quotedClasses[byte] = check
        }
        for stop in [Int(Self.lineFeed), Int(Self.carriageReturn)] {
            unquotedClasses[stop] = Self.stopClass
            quotedClasses[stop] = Self.stopClass
        }
        if delimiterValue >= 0 { unquotedClasses[delimiterValue] = Self.stopClass }
        if quoteValue >= 0 { quotedClasses[quoteValue] = Self.stopClass }
        // Without a delimiter or quote, the line feed stands in for it.
        let (lineFeed, carriageReturn) = (Self.lineFeed, Self.carriageReturn)
        unquotedScanner = StopByteScanner(
            stoppingAt: dialect.delimiter ?? lineFeed, lineFeed, carriageReturn,
            classes: unquotedClasses)
        quotedScanner = StopByteScanner(
            stoppingAt: dialect.quote ?? lineFeed, lineFeed, carriageReturn,
            classes: quotedClasses)
    }

    // MARK: - The current record

    /// The number of fields of the current record.
    public var fieldCount: Int { spanCount }

    /// The UTF-8 bytes of field `index` of the current record, quotes
    /// removed and doubled quotes undoubled; valid until the next
    /// ``nextRecord()``.
    public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < spanCount, "field index out of range")
        let span = spans[index]
        let base = span.flags & FieldSpan.copied != 0 ? side : buffer
        return UnsafeBufferPointer(start: base + span.start, count: span.end - span.start)
    }

    /// Whether field `index` was quoted: `""` is an empty string, while an
    /// empty unquoted field is no value at all.
    public func isQuoted(_ index: Int) -> Bool {
        precondition(index >= 0 && index < spanCount, "field index out of range")
        return spans[index].flags & FieldSpan.quoted != 0
    }

    /// Where the current record starts: its first line, column 1.
    public var recordPosition: SourcePosition {
        SourcePosition(file: file, line: recordLine, column: 1, byteOffset: recordOffset)
    }

    /// Where field `index` of the current record starts (its opening quote
    /// when quoted), the column counted in characters.
    public func position(ofField index: Int) -> SourcePosition {
        precondition(index >= 0 && index < spanCount, "field index out of range")
        return locate(spans[index].rawStart)
    }

    /// The current record as it is in the input, without its line break, in
    /// UTF-8; empty for a record refused for its size.
    public func recordText() -> Data {
        Data(bytes: buffer + recordStart, count: recordEnd - recordStart)
    }

    /// Makes `count` declared field names the shape of the records read
    /// from here on, in place of the header's or the first record's field
    /// count: a shorter record is accepted (its missing trailing fields give
    /// no value), and a longer one is left to the importer, which refuses or
    /// ignores the fields beyond the declared ones.
    public func declareFieldCount(_ count: Int) {
        declaredFieldCount = count
    }

    /// Bytes of the file read so far.
    public var bytesRead: Int64 { input.bytesRead }

    /// The size of the file.
    public var totalBytes: Int64? { input.totalBytes }

    /// The position of buffer offset `offset` inside the current record:
    /// line and column counted from the record's start.
    func locate(_ offset: Int) -> SourcePosition {
        var line = recordLine
        var lineStart = recordStart
        var index = recordStart
        while index < offset {
            let byte = buffer[index]
            if byte == Self.carriageReturn {
                line += 1
                lineStart = index + 1
            } else if byte == Self.lineFeed {
                if index == recordStart || buffer[index - 1] != Self.carriageReturn { line += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        var column = 1
        for index in lineStart..<max(lineStart, offset) where buffer[index] & 0xC0 != 0x80 {
            column += 1
        }
        let before = UnsafeBufferPointer(start: buffer + recordStart, count: offset - recordStart)
        return SourcePosition(
            file: file, line: line, column: column,
            byteOffset: recordOffset + Int64(input.inputByteCount(of: before)))
    }
}
