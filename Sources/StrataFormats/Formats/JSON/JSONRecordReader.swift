import Foundation
import StrataCore
import StrataSchema

/// A streaming reader of JSON records: a JSON document (RFC 8259) whose
/// root is an array of objects or an object of such arrays, or JSON Lines
/// (NDJSON, one object per line).
///
/// The file is read in chunks; each record's bytes are found by a scanner
/// that follows strings and brackets, then parsed alone by ``JSONReader``.
/// Memory holds one record at a time, whatever the size of the file, and
/// ``bytesRead`` advances record by record.
///
/// ```swift
/// let reader = try JSONRecordReader(path: "recipes.json")
/// while let record = try reader.nextRecord() {
///     print(record.position, record.group ?? "", record.fields.map(\.key))
/// }
/// ```
///
/// **Shapes.** In a document, `[{…}, {…}]` gives one record per element,
/// with key paths `[0]`, `[1]`…; `{"recipes": [{…}], "types": [{…}]}`
/// gives one record per element of each array, with
/// ``ImportRecord/group`` set to the array's key and key paths such as
/// `recipes[0]`. In JSON Lines, each non-blank line is one record, with key
/// path `[n]`: `n` counts records from 0, blank lines not included, so it
/// is the record's index as in an array. Lines end with LF or CRLF.
///
/// **Which shape.** When `lines` is nil, the extensions `.ndjson` and
/// `.jsonl` mean JSON Lines. Otherwise the file is a document unless its
/// first value is an object that ends on the line it starts on and is
/// followed, on a later line, by another `{`; a file holding one object is
/// a document (an object of arrays).
///
/// **Values.** Strings become ``RecordValue/text(_:)``; numbers without
/// fraction or exponent that fit in `Int64` become
/// ``RecordValue/integer(_:)`` (`-0` is the integer 0), those up to 2⁶⁴−1
/// ``RecordValue/unsignedInteger(_:)``; every other number is
/// ``RecordValue/real(_:)`` (so an integer beyond 64 bits loses digits, and
/// the importer refuses it for an integer attribute), and a number beyond a
/// Double's range (`1e400`) is an ``ImportError/Code/invalidValue`` error. A
/// key repeated in one object is an ``ImportError/Code/structure`` error at
/// its second occurrence. Depth counts from the record's own object (depth
/// 1) and is capped at ``JSONReader/maximumDepth``.
///
/// **Errors.** Errors are ``ImportError``s located by line, column, byte
/// offset and key path. The reader goes on with the next record after an
/// error confined to one record: any error in a JSON line; in a document, an
/// element that is not an object, one over the size or depth limit, bad
/// UTF-8 or a bad `\u` escape in it, a number out of range, a repeated key.
/// A syntax error in a document, or one in its structure around the
/// records, ends the reading: every later call throws it again.
public final class JSONRecordReader: TreeRecordReader {
    /// The input's path as given.
    public let file: String
    /// Whether the input is read as JSON Lines (one object per line) rather
    /// than as one JSON document.
    public let isLines: Bool
    /// Bytes of the input consumed so far: up to the end of the last record
    /// handed out (or skipped by an error).
    public var bytesRead: Int64 { Int64(consumed) }
    /// The size of the file, when it is a regular file.
    public var totalBytes: Int64? { input.fileSize }
    /// The exact text of the record that the last call's error is about,
    /// when the reader could cut it out (a bad line, a bad element under the
    /// size limit), for the rejects file; nil otherwise.
    public private(set) var lastErrorText: Data?

    let limits: ImportLimits
    let input: JSONInputBuffer
    var scanner: JSONElementScanner
    /// The absolute offset of the next byte to look at.
    var offset = 0
    var consumed = 0
    /// Where a document reader is in the shape around its records.
    var state = DocumentState.start
    /// The index of the next record in its array, or among the lines.
    var recordIndex = 0
    /// The number of the last line read, in JSON Lines.
    var lineNumber = 0
    /// The error that ended the reading, thrown again by every later call.
    var failure: ImportError?
    /// Whether members of a root object whose values are not arrays are
    /// read and kept (in ``nonArrayMembers``) rather than refused: a Day One
    /// export has `"metadata": {…}` beside its `"entries": […]`.
    var keepsNonArrayMembers = false
    /// The members kept by ``keepsNonArrayMembers``, in document order.
    var nonArrayMembers: [(key: String, node: RecordField, position: SourcePosition)] = []
    /// The keys of the root object's arrays begun so far, empty ones too.
    var arrayMembers: [String] = []
    /// The dotted paths whose arrays are the records (``ImportReadingOptions/paths``);
    /// empty reads every array of the root object.
    public var selectedPaths: [String] = [] {
        didSet { selectedPrefixes = Set(selectedPaths.flatMap(Self.prefixes)) }
    }
    /// Every proper prefix of a selected path (`a`, `a.b` of `a.b.c`): the
    /// objects the reader goes into.
    var selectedPrefixes: Set<String> = []
    /// The keys of the objects the reader is inside, below the root object.
    var objectPath: [String] = []
    /// Members of the root object left out because they are not arrays of
    /// records, when no path is selected: named by the note or error at the end.
    var passedOverMembers: [String] = []
    /// What the reader says beside the summary (a document whose one array
    /// was taken).
    public private(set) var notes: [String] = []

    /// `a`, `a.b` for `a.b.c`.
    private static func prefixes(of path: String) -> [String] {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        return (1..<max(parts.count, 1)).map { parts[..<$0].joined(separator: ".") }
    }

    /// Records the note, or throws the error, the document's shape calls
    /// for once it has been read: a selected path that was not there; other
    /// members beside more than one array, or beside none.
    func finishDocument() throws(ImportError) {
        let end = position(at: offset)
        if !selectedPaths.isEmpty {
            let missing = selectedPaths.filter { !arrayMembers.contains($0) }
            guard missing.isEmpty else {
                throw fail(
                    ImportError(
                        .structure, at: end,
                        "the document has no array at "
                            + missing.map { "\"\($0)\"" }.joined(separator: ", ")
                            + " (--path is a dotted path of keys to an array of objects)"))
            }
            return
        }
        guard !passedOverMembers.isEmpty else { return }
        let others =
            passedOverMembers.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
            + (passedOverMembers.count > 8 ? ", …" : "")
        switch arrayMembers.count {
        case 1:
            notes.append(
                "\(file): read the document's one array, \"\(arrayMembers[0])\", and left out "
                    + "its other members (\(others)); --path chooses the arrays to read")
        case 0:
            throw fail(
                ImportError(
                    .structure, at: end,
                    "the document's root object holds no array of records (members: \(others)); "
                        + "give --path to the array to read (a dotted path of keys)"))
        default:
            throw fail(
                ImportError(
                    .structure, at: end,
                    "the document holds several arrays ("
                        + arrayMembers.map { "\"\($0)\"" }.joined(separator: ", ")
                        + ") beside other members (\(others)); choose the arrays to read with "
                        + "--path \(arrayMembers[0])"))
        }
    }

    /// The size of one read from the file.
    static let defaultChunkSize = 1 << 20
    /// How far the shape detection may look for the end of the first object.
    static let detectionWindow = 1 << 20

    /// Opens `path` and decides its shape.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - lines: true for JSON Lines, false for a JSON document, nil to
    ///     decide from the extension and the first bytes (see the type's
    ///     documentation).
    ///   - limits: The bounds on record size, string size, values per
    ///     object and nesting depth.
    /// - Throws: ``ImportError`` with ``ImportError/Code/unreadable`` when
    ///   the file cannot be read.
    public convenience init(
        path: String, lines: Bool? = nil, limits: ImportLimits = .init()
    ) throws {
        try self.init(path: path, lines: lines, limits: limits, chunkSize: Self.defaultChunkSize)
    }

    /// Opens `path`, reading `chunkSize` bytes at a time (tests use tiny
    /// chunks to put a chunk boundary at every byte).
    init(
        path: String, lines: Bool?, limits: ImportLimits, chunkSize: Int,
        displayName: String? = nil
    ) throws(ImportError) {
        file = displayName ?? path
        var limits = limits
        // The parser refuses deeper text anyway; the scanner keeps a bit per level.
        limits.maximumDepth = min(max(limits.maximumDepth, 0), JSONReader.maximumDepth)
        self.limits = limits
        input = try JSONInputBuffer(path: path, chunkSize: chunkSize)
        scanner = JSONElementScanner(maximumDepth: limits.maximumDepth)
        // A UTF-8 byte order mark is not part of the text (RFC 8259 §8.1).
        if try input.ensure(2), input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF {
            offset = 3
        }
        consumed = offset
        input.keepFrom = offset
        input.startTracking(at: offset)
        if let lines {
            isLines = lines
        } else {
            let suffix = (path as NSString).pathExtension.lowercased()
            if suffix == "ndjson" || suffix == "jsonl" {
                isLines = true
            } else {
                isLines = try Self.looksLikeLines(input, from: offset, limits: limits)
            }
        }
        input.tracksLines = !isLines
    }

    /// The next record, or nil after the last one.
    ///
    /// - Throws: ``ImportError`` located at the offending place. After an
    ///   error confined to one record the next call goes on with the next
    ///   record; after one in the structure of a document every call throws.
    public func nextRecord() throws -> ImportRecord? {
        if let failure { throw failure }
        lastErrorText = nil
        do throws(ImportError) {
            return isLines ? try nextLineRecord() : try nextDocumentRecord()
        } catch {
            if error.code == .unreadable { failure = error }
            throw error
        }
    }

    /// Runs `body` on the record whose text is `bytes`, keeping the text
    /// for ``lastErrorText`` when it throws.
    func keepingText<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: () throws(ImportError) -> Result
    ) throws(ImportError) -> Result {
        do {
            return try body()
        } catch {
            lastErrorText = Data(bytes)
            throw error
        }
    }

    /// Ends the reading with `error`: every later call throws it.
    package func fail(_ error: ImportError) -> ImportError {
        failure = error
        state = .finished
        return error
    }

    /// The position of the byte at absolute `offset` (at or after every
    /// position asked before).
    func position(at offset: Int, keyPath: String? = nil) -> SourcePosition {
        let place = input.lineAndColumn(at: offset)
        return SourcePosition(
            file: file, line: place.line, column: place.column, byteOffset: Int64(offset),
            keyPath: keyPath)
    }

    // MARK: - Shape detection

    /// Whether the text from `start` is JSON Lines: an object that ends on
    /// the line it starts on, then another `{` on a later line, all within
    /// the detection window. Reads ahead without consuming anything.
    static func looksLikeLines(
        _ input: JSONInputBuffer, from start: Int, limits: ImportLimits
    ) throws(ImportError) -> Bool {
        let window = min(detectionWindow, limits.maximumRecordBytes)
        var index = start
        while try input.ensure(index), isWhitespace(input[index]) { index += 1 }
        guard try input.ensure(index), input[index] == UInt8(ascii: "{") else { return false }
        let objectStart = index
        var scanner = JSONElementScanner(maximumDepth: limits.maximumDepth)
        var objectEnd: Int?
        var cursor = objectStart
        while objectEnd == nil {
            guard cursor - objectStart <= window else { return false }
            if cursor >= input.end {
                guard try input.fill() else { return false }
            }
            objectEnd = scanner.scan(input.bytes(from: cursor, to: input.end), base: cursor)
            cursor = input.end
        }
        guard let objectEnd else { return false }
        for byte in input.bytes(from: objectStart, to: objectEnd) where byte == 0x0A || byte == 0x0D
        {
            return false
        }
        var sawLineBreak = false
        index = objectEnd
        while index - objectStart <= window, try input.ensure(index) {
            switch input[index] {
            case 0x20, 0x09: break
            case 0x0A, 0x0D: sawLineBreak = true
            default: return sawLineBreak && input[index] == UInt8(ascii: "{")
            }
            index += 1
        }
        return false
    }

    /// JSON's whitespace: space, tab, LF, CR.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
