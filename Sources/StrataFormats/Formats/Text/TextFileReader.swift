import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a folder of `.txt` files, one record per file, as a notes app's
/// export is written: the first line is the title, the rest the body.
///
/// ```text
/// Date: 2024-05-01T08:30:00Z        optional header lines, as in blocks
/// Shopping list                     the title
///
/// Milk, eggs and flour.             the body (blank lines inside kept)
/// ```
///
/// The rules:
/// - The files are the folder's entries whose names end in `.txt` (any
///   case), sorted by their UTF-8 bytes so every run sees the same order.
///   Hidden files (a name starting with `.`), other names and subfolders
///   are skipped; subfolders are not descended into.
/// - A symbolic link is never followed, wherever it points: reaching one
///   throws ``ImportError/Code/unsafePath`` (the import can skip it as a
///   bad record) rather than passing it over unseen. Other entries that
///   are not regular files (a FIFO named `x.txt`) are
///   ``ImportError/Code/unreadable``.
/// - When ``parsesHeaders`` is true, the `Key: Value` lines at the very top
///   of a file become `.text` fields, by the rules of ``TextBlockReader``; a title like `Recipe: lemon cake` reads as a
///   header then, so turn it off for such notes.
/// - Blank lines before the title are skipped. The title is the first
///   other line, trimmed of spaces, unless a header is named ``titleKey``:
///   then every line after the headers is body. The body is the rest of the
///   file, without its leading and trailing blank lines, lines joined with
///   `\n`. A file with neither title nor body has no such fields.
/// - Every record gets a ``modifiedKey`` field: the file's modification time
///   as `.date`, so a mapping can date a note that has no `Date:` header;
///   a header of that name replaces it.
/// - With a ``fileNameKey``, every record also gets a field of that name:
///   the file's name within the folder, extension kept, as on disk
///   (`2024-05-01 Market.txt`: the name tells notes with the same title
///   apart, and the extension's case is the file's). A header or title of
///   that name is an ``ImportError/Code/structure`` error at its place.
/// - A file with nothing but blank lines (or no bytes) is a
///   ``ImportError/Code/structure`` error: a note without text is more
///   likely a mistake than a record.
/// - Text in ``encoding`` (UTF-8 by default; a byte-order mark decides
///   first, see ``TextInput``); bad UTF-8 and NUL are
///   ``ImportError/Code/encoding`` errors at line and column; a file over
///   ``ImportLimits/maximumRecordBytes`` is ``ImportError/Code/tooLarge``
///   and is not read.
///
/// Positions name the file's path (the folder path joined with the name);
/// a record is at line 1, column 1; fields at the line and column where
/// their value starts; the modification time has no line. Each record's
/// ``ImportRecord/originalText`` is the file's text (after a byte-order
/// mark). An error in one file leaves the reader ready for the next file.
public final class TextFileReader: TreeRecordReader {
    /// The folder's path as given.
    public let file: String
    /// The names of the files read, in reading order.
    public let fileNames: [String]
    /// The field name of the title.
    public let titleKey: String
    /// The field name of the body.
    public let bodyKey: String
    /// The field name of the modification time.
    public let modifiedKey: String
    /// The field name of the file's name within the folder; nil for none.
    public let fileNameKey: String?
    /// Whether `Key: Value` lines at the top of a file are read as fields.
    public let parsesHeaders: Bool
    /// The limits the reader keeps to.
    public let limits: ImportLimits
    /// The files' encoding when one starts with no byte-order mark.
    public let encoding: TextEncoding

    /// The sum of the sizes of the files, as listed when the reader was made.
    public let totalBytes: Int64?
    /// The sizes of the files read so far.
    public private(set) var bytesRead: Int64 = 0
    /// The notes of the files whose encoding was guessed not to be UTF-8.
    private var guessNotes: [String] = []

    /// What was guessed of the files' encodings: the file's own note for
    /// one, a count and the first for several.
    public var notes: [String] {
        guard let first = guessNotes.first else { return [] }
        if guessNotes.count == 1 { return [first] }
        return [
            "\(guessNotes.count) files were not UTF-8 and were read as Windows-1252; "
                + "the first: \(first)"
        ]
    }

    private var nextIndex = 0
    private var text = TextRecordText()
    private var scratch: [UInt8] = []
    private var headers = TextHeaders()

    /// Lists the `.txt` files of `folder`.
    ///
    /// - Parameters:
    ///   - folder: The folder; positions name its files as `folder/name`.
    ///   - limits: The largest file (``ImportLimits/maximumRecordBytes``),
    ///     value and header count.
    ///   - titleKey: The field name of the title.
    ///   - bodyKey: The field name of the body.
    ///   - modifiedKey: The field name of the modification time.
    ///   - fileNameKey: The field name of each file's name (extension
    ///     kept); nil for none.
    ///   - parsesHeaders: Whether header lines at the top become fields.
    ///   - encoding: The files' encoding when one starts with no byte-order
    ///     mark (``TextInput``).
    /// - Throws: ``ImportError/Code/unreadable`` when the folder cannot be
    ///   listed.
    public init(
        folder: String, limits: ImportLimits = ImportLimits(), titleKey: String = "title",
        bodyKey: String = "body", modifiedKey: String = "modified", fileNameKey: String? = nil,
        parsesHeaders: Bool = true, encoding: TextEncoding = .utf8
    ) throws {
        file = folder
        self.limits = limits
        self.encoding = encoding
        self.titleKey = titleKey
        self.bodyKey = bodyKey
        self.modifiedKey = modifiedKey
        self.fileNameKey = fileNameKey
        self.parsesHeaders = parsesHeaders
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw ImportError(
                .unreadable, at: SourcePosition(file: folder), "cannot list the folder")
        }
        var chosen: [String] = []
        var total: Int64 = 0
        for name in names where !name.hasPrefix(".") && name.lowercased().hasSuffix(".txt") {
            var status = stat()
            guard lstat(Self.join(folder, name), &status) == 0 else { continue }  // Gone.
            if status.st_mode & S_IFMT == S_IFDIR { continue }
            if status.st_mode & S_IFMT == S_IFREG { total += Int64(status.st_size) }
            chosen.append(name)
        }
        fileNames = chosen.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        totalBytes = total
    }

    /// The next file's record, or nil after the last file.
    ///
    /// - Throws: ``ImportError`` located in the file; the next call reads
    ///   the next file.
    public func nextRecord() throws -> ImportRecord? {
        guard nextIndex < fileNames.count else { return nil }
        let name = fileNames[nextIndex]
        let path = Self.join(file, name)
        nextIndex += 1
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP {
                throw ImportError(
                    .unsafePath, at: SourcePosition(file: path),
                    "is a symbolic link; links are not followed")
            }
            throw ImportError(
                .unreadable, at: SourcePosition(file: path),
                "cannot open: \(String(cString: strerror(code)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            _ = close(descriptor)  // Read-only; nothing to lose.
            throw ImportError(
                .unreadable, at: SourcePosition(file: path), "is not a regular file")
        }
        let size = Int64(status.st_size)
        bytesRead += size
        let modified = Date(
            timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec)
                / 1_000_000_000)
        guard size <= limits.maximumRecordBytes else {
            _ = close(descriptor)
            throw ImportError(
                .tooLarge, at: SourcePosition(file: path),
                "the file is \(size) bytes, over the limit of \(limits.maximumRecordBytes)")
        }
        let lines = try LineReader(
            descriptor: descriptor, path: path, encoding: encoding,
            chunkSize: Int(min(size + 1, 64 * 1024)), maximumLineBytes: limits.maximumRecordBytes)
        if let note = lines.guessNote { guessNotes.append(note) }
        try collect(lines, path: path)
        return try parse(path: path, name: name, modified: modified)
    }

    /// Reads every line of the file into ``text``.
    private func collect(_ lines: LineReader, path: String) throws {
        text.reset()
        var size = 0
        while let line = try lines.next() {
            size += line.length + line.terminator.length
            if size > limits.maximumRecordBytes || line.problem == .tooLong {
                throw ImportError(
                    .tooLarge, at: SourcePosition(file: path),
                    "the file grew over the limit of \(limits.maximumRecordBytes) bytes")
            }
            if case .encoding(let found) = line.problem { throw line.error(found, file: path) }
            text.append(line)
        }
    }

    /// Turns the file's text into a record.
    private func parse(path: String, name: String, modified: Date) throws -> ImportRecord {
        let recordPosition = SourcePosition(
            file: path, line: 1, column: 1, byteOffset: text.firstOffset)
        return try text.bytes.withUnsafeBufferPointer { bytes in
            let cursor = TextRecordCursor(bytes: bytes, text: text, file: path)
            var fields: [RecordField] = []
            if parsesHeaders {
                try headers.read(cursor, limits: limits, into: &fields)
            } else {
                headers.clear(firstLine: 1)
            }
            var lineStart = headers.end
            var line = headers.endLine
            let end = bytes.count

            // Skips blank lines; returns the content end of the first other line.
            func skipBlankLines() -> Int {
                while lineStart < end {
                    let (contentEnd, next) = cursor.lineEnd(from: lineStart)
                    if !TextHeaderLine.isBlank(cursor.slice(lineStart..<contentEnd)) {
                        return contentEnd
                    }
                    lineStart = next
                    line += 1
                }
                return end
            }

            let contentEnd = skipBlankLines()
            if lineStart < end && headers.index(of: titleKey, in: cursor) == nil {
                var titleStart = lineStart
                var titleEnd = contentEnd
                while TextHeaderLine.isSpace(bytes[titleStart]) { titleStart += 1 }
                while TextHeaderLine.isSpace(bytes[titleEnd - 1]) { titleEnd -= 1 }
                try checkFieldSize(titleEnd - titleStart, titleKey, path: path, line: line)
                fields.append(
                    RecordField(
                        key: titleKey, value: .text(cursor.string(titleStart..<titleEnd)),
                        position: cursor.position(
                            line: line, lineStart: lineStart, index: titleStart)))
                lineStart = cursor.lineEnd(from: lineStart).next
                line += 1
                _ = skipBlankLines()
            }
            if lineStart < end {
                let bodyEnd = lastContentEnd(cursor, from: lineStart)
                if let index = headers.index(of: bodyKey, in: cursor) {
                    throw ImportError(
                        .structure, at: fields[index].position(or: recordPosition),
                        "the file has both a \(fields[index].key) header and body text")
                }
                try checkFieldSize(bodyEnd - lineStart, bodyKey, path: path, line: line)
                fields.append(
                    RecordField(
                        key: bodyKey,
                        value: .text(
                            cursor.joinedLines(from: lineStart, to: bodyEnd, scratch: &scratch)),
                        position: cursor.position(
                            line: line, lineStart: lineStart, index: lineStart)))
            }
            if fields.isEmpty {
                throw ImportError(.structure, at: recordPosition, "the file is empty")
            }
            if let fileNameKey {
                if let clash = fields.first(where: { $0.key == fileNameKey }) {
                    throw ImportError(
                        .structure, at: clash.position(or: recordPosition),
                        "the file has a \(clash.key) field of its own, and the file's name was "
                            + "to go into '\(fileNameKey)'; choose another attribute")
                }
                fields.append(
                    RecordField(
                        key: fileNameKey, value: .text(name),
                        position: SourcePosition(file: path)))
            }
            if headers.index(of: modifiedKey, in: cursor) == nil, fileNameKey != modifiedKey {
                fields.append(
                    RecordField(
                        key: modifiedKey, value: .date(modified),
                        position: SourcePosition(file: path)))
            }
            return ImportRecord(
                fields: fields, position: recordPosition, originalText: Data(bytes))
        }
    }

    /// The end of the last line that is not blank, from `start` on.
    private func lastContentEnd(_ cursor: TextRecordCursor, from start: Int) -> Int {
        var lineStart = start
        var last = start
        while lineStart < cursor.bytes.count {
            let (contentEnd, next) = cursor.lineEnd(from: lineStart)
            if !TextHeaderLine.isBlank(cursor.slice(lineStart..<contentEnd)) { last = contentEnd }
            lineStart = next
        }
        return last
    }

    private func checkFieldSize(_ size: Int, _ key: String, path: String, line: Int) throws {
        guard size > limits.maximumFieldBytes else { return }
        throw ImportError(
            .tooLarge, at: SourcePosition(file: path, line: line, column: 1),
            "the \(key) is \(size) bytes, over the limit of \(limits.maximumFieldBytes)")
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
