import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a text file line by line in large chunks, with each line's number
/// and byte offset, for the txt readers.
///
/// The bytes come through ``TextInput``, the one byte input of the text
/// formats: a UTF-8 byte-order mark is skipped, a UTF-16 one (or
/// ``TextEncoding/utf16``) and ``TextEncoding/latin1`` are transcoded to
/// UTF-8 (their lines' byte offsets then count UTF-8 bytes). Lines end at
/// LF, CRLF or a lone CR (mixed endings are fine). Each line's content is
/// checked to be UTF-8 without NUL; a bad line is still returned, with its
/// ``Line/problem``, so a caller can skip the record it belongs to and go
/// on.
///
/// Memory stays bounded: the buffer holds one chunk plus the line being
/// read, and a line longer than `maximumLineBytes` is skipped over without
/// being kept (it comes back with ``Problem/tooLong``).
final class LineReader {
    /// How a line ends.
    enum Terminator: Int {
        /// The last line of a file without a line ending.
        case none = 0
        /// `\n`.
        case lf = 1
        /// `\r\n`.
        case crlf = 2
        /// A lone `\r`.
        case cr = 3

        /// Its length in bytes.
        var length: Int { self == .crlf ? 2 : (self == .none ? 0 : 1) }
    }

    /// What is wrong with a line.
    enum Problem: Hashable {
        /// Bad UTF-8 or a NUL byte in the line's content.
        case encoding(UTF8Validator.Problem)
        /// Longer than the limit: its bytes were not kept.
        case tooLong
    }

    /// One line. Its bytes live in the reader's buffer until the next call
    /// to ``next()``.
    struct Line {
        /// The content, without the line ending (empty for a ``Problem/tooLong`` line).
        var bytes: UnsafeBufferPointer<UInt8>
        /// The content followed by its line ending, as in the file.
        var bytesWithTerminator: UnsafeBufferPointer<UInt8>
        /// The content's length in bytes (also for a line too long to keep).
        var length: Int
        /// How it ends.
        var terminator: Terminator
        /// Its number, from 1.
        var number: Int
        /// The offset of its first byte in the file (after a byte-order mark).
        var byteOffset: Int64
        /// Bad encoding or too long, when so.
        var problem: Problem?
    }

    /// The path shown in positions.
    let path: String
    /// The file's size, when it is a regular file.
    let totalBytes: Int64?
    /// What the input guessed of its encoding, when it was not UTF-8
    /// (``TextInput/guessNote``).
    let guessNote: String?
    /// The file's bytes as UTF-8; nil once closed.
    private var input: TextInput?
    /// The length of the byte-order mark the input skipped.
    private let byteOrderMarkLength: Int
    private let chunkSize: Int
    private let maximumLineBytes: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// The file offset of `buffer[0]`.
    private var bufferOffset: Int64 = 0
    private var atEndOfFile = false
    private var lineNumber = 0
    private var failure: ImportError?

    /// Opens `path` for reading, its text in `encoding` unless it starts
    /// with a byte-order mark.
    ///
    /// - Throws: ``ImportError/Code/unreadable`` when it cannot be opened;
    ///   ``ImportError/Code/encoding`` for UTF-16 without a byte-order mark.
    convenience init(
        path: String, encoding: TextEncoding = .utf8, chunkSize: Int = 1 << 20,
        maximumLineBytes: Int
    ) throws {
        try self.init(
            input: TextInput(path: path, encoding: encoding, chunkSize: chunkSize),
            chunkSize: chunkSize, maximumLineBytes: maximumLineBytes)
    }

    /// Reads from an open descriptor, which the reader closes.
    ///
    /// - Throws: As ``init(path:encoding:chunkSize:maximumLineBytes:)``.
    convenience init(
        descriptor: Int32, path: String, encoding: TextEncoding = .utf8,
        chunkSize: Int = 1 << 20, maximumLineBytes: Int
    ) throws {
        try self.init(
            input: TextInput(
                descriptor: descriptor, path: path, encoding: encoding, chunkSize: chunkSize),
            chunkSize: chunkSize, maximumLineBytes: maximumLineBytes)
    }

    /// Reads the lines of `input`.
    init(input: TextInput, chunkSize: Int, maximumLineBytes: Int) {
        self.input = input
        guessNote = input.guessNote
        path = input.path
        totalBytes = input.totalBytes
        byteOrderMarkLength = input.byteOrderMarkLength
        self.chunkSize = max(chunkSize, 16)
        self.maximumLineBytes = max(maximumLineBytes, 1)
        capacity = self.chunkSize * 2
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        close()
        buffer.deallocate()
    }

    /// Closes the file; later calls to ``next()`` return nil.
    package func close() {
        input = nil  // Read-only: closing loses nothing.
        atEndOfFile = true
    }

    /// Bytes of the file handed out as lines so far (with their endings).
    var consumedBytes: Int64 { Int64(byteOrderMarkLength) + bufferOffset + Int64(start) }

    /// The next line, or nil at the end of the file.
    ///
    /// - Throws: ``ImportError/Code/unreadable`` when reading fails, and
    ///   ``ImportError/Code/encoding`` for an unpaired UTF-16 surrogate;
    ///   every later call throws the same error.
    func next() throws -> Line? {
        if let failure { throw failure }
        do {
            return try readLine()
        } catch let error as ImportError {
            failure = error  // The file cannot be read on from here.
            throw error
        }
    }

    private func readLine() throws -> Line? {
        let lineOffset = consumedBytes
        var scanned = 0  // Bytes after `start` known to hold no CR or LF.
        var skipped = 0  // Bytes of a too-long line already dropped.
        while true {
            let from = buffer + start + scanned
            let available = end - start - scanned
            let lf = memchr(from, 0x0A, available)?.assumingMemoryBound(to: UInt8.self)
            let crLimit = lf.map { $0 - from } ?? available
            let cr = memchr(from, 0x0D, crLimit)?.assumingMemoryBound(to: UInt8.self)
            if let cr {
                let contentEnd = cr - buffer
                if contentEnd + 1 < end {
                    let ending: Terminator = buffer[contentEnd + 1] == 0x0A ? .crlf : .cr
                    return finish(contentEnd, ending, lineOffset, skipped)
                }
                if atEndOfFile { return finish(contentEnd, .cr, lineOffset, skipped) }
                scanned = contentEnd - start  // Is an LF next? Read on to see.
            } else if let lf {
                return finish(lf - buffer, .lf, lineOffset, skipped)
            } else if atEndOfFile {
                if start == end && skipped == 0 { return nil }
                return finish(end, .none, lineOffset, skipped)
            } else {
                scanned = end - start
            }
            if skipped + scanned > maximumLineBytes {
                // Too long to keep: drop what is read (but a final CR that
                // may pair with an LF) and only look for the line's end.
                let keep = (scanned < end - start) ? end - start - scanned : 0
                let drop = end - start - keep
                skipped += drop
                start += drop
                scanned = 0
            }
            try fill()
        }
    }

    /// Hands out `buffer[start..<contentEnd]` as a line ending with `ending`.
    private func finish(
        _ contentEnd: Int, _ ending: Terminator, _ lineOffset: Int64, _ skipped: Int
    ) -> Line {
        lineNumber += 1
        let content = UnsafeBufferPointer(start: buffer + start, count: contentEnd - start)
        let whole = UnsafeBufferPointer(
            start: buffer + start, count: contentEnd - start + ending.length)
        start = contentEnd + ending.length
        if skipped > 0 || content.count > maximumLineBytes {
            return Line(
                bytes: UnsafeBufferPointer(start: content.baseAddress, count: 0),
                bytesWithTerminator: UnsafeBufferPointer(start: content.baseAddress, count: 0),
                length: skipped + content.count, terminator: ending, number: lineNumber,
                byteOffset: lineOffset, problem: .tooLong)
        }
        var line = Line(
            bytes: content, bytesWithTerminator: whole, length: content.count,
            terminator: ending, number: lineNumber, byteOffset: lineOffset, problem: nil)
        if let problem = UTF8Validator.firstProblem(in: content) {
            line.problem = .encoding(problem)
        }
        return line
    }

    /// Reads the next chunk after the unread bytes, moving them to the front
    /// of the buffer first.
    private func fill() throws {
        if start > 0 {
            let unread = end - start
            if unread > 0 { memmove(buffer, buffer + start, unread) }
            bufferOffset += Int64(start)
            start = 0
            end = unread
        }
        if capacity - end < chunkSize {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: end + chunkSize * 2)
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity = end + chunkSize * 2
        }
        guard let input else {
            atEndOfFile = true
            return
        }
        let count = try input.read(
            into: UnsafeMutableBufferPointer(start: buffer + end, count: chunkSize))
        if count == 0 { atEndOfFile = true }
        end += count
    }
}

extension LineReader.Line {
    /// The located error for an encoding problem of this line.
    func error(_ problem: UTF8Validator.Problem, file: String) -> ImportError {
        let before = UnsafeBufferPointer(rebasing: bytes[0..<problem.index])
        return ImportError(
            .encoding,
            at: SourcePosition(
                file: file, line: number, column: 1 + UTF8Validator.scalarCount(before),
                byteOffset: byteOffset + Int64(problem.index)),
            "\(problem.message); \(TextEncoding.hint)")
    }
}
