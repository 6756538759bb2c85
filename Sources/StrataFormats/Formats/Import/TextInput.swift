import Foundation
import StrataCore

/// A text file read in chunks and handed out as UTF-8, whatever its encoding.
///
/// The first bytes decide the encoding: a UTF-8 byte-order mark is skipped,
/// a UTF-16 one (either byte order) switches to UTF-16, whatever was asked;
/// without a mark the asked ``TextEncoding`` holds. UTF-8 goes straight from
/// the file into the caller's buffer; UTF-16 and Latin-1 are transcoded
/// through a buffer of their own. UTF-8 is not validated here (the readers
/// validate their fields and locate the errors); the transcoded encodings
/// always give valid UTF-8, or an ``ImportError/Code/encoding`` error at an
/// unpaired surrogate.
///
/// ```swift
/// let input = try TextInput(path: "contacts.csv")
/// let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
/// while case let count = try input.read(into: buffer), count > 0 { print(count) }
/// ```
final class TextInput {
    /// The file's path as given.
    let path: String
    /// The encoding in force, after looking for a byte-order mark.
    private(set) var encoding: TextEncoding
    /// What was guessed of an ``TextEncoding/automatic`` input that is not
    /// UTF-8, said once; nil when nothing was.
    private(set) var guessNote: String?
    /// The length of the byte-order mark that was skipped: 0, 2 or 3.
    private(set) var byteOrderMarkLength = 0
    /// Bytes read from the file so far, byte-order mark included.
    private(set) var bytesRead: Int64 = 0
    /// The size of the file, when it is a regular file.
    let totalBytes: Int64?

    private let descriptor: Int32
    private var fileEnded = false
    /// The first error of the input; every later read throws it again.
    private var failure: ImportError?

    /// Decoded bytes that did not fit the caller's buffer, or the first bytes
    /// read to look for a byte-order mark; handed out before anything else.
    private var pending: [UInt8] = []
    private var pendingIndex = 0

    /// Raw bytes of a transcoded input, `rawStart..<rawEnd` not yet decoded.
    private var raw: UnsafeMutablePointer<UInt8>?
    private var rawCapacity: Int
    private var rawStart = 0
    private var rawEnd = 0
    private var bigEndian = false

    /// Where the UTF-16 decoder stands, to locate its errors.
    private var line = 1
    private var column = 1
    private var sourceOffset: Int64 = 0
    private var previousWasCarriageReturn = false

    /// Opens `path` and looks for a byte-order mark.
    ///
    /// - Parameters:
    ///   - path: The file to read.
    ///   - encoding: The encoding when the file has no byte-order mark.
    ///   - chunkSize: How many raw bytes a transcoded input reads at once.
    /// - Throws: ``ImportError`` `.unreadable` when the file cannot be
    ///   opened or read, `.encoding` for ``TextEncoding/utf16`` without a
    ///   byte-order mark.
    convenience init(path: String, encoding: TextEncoding = .utf8, chunkSize: Int = 1 << 20)
        throws
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path),
                "cannot open the file: \(String(cString: strerror(errno)))")
        }
        try self.init(descriptor: descriptor, path: path, encoding: encoding, chunkSize: chunkSize)
    }

    /// Reads from `descriptor`, open for reading, which the input closes
    /// (also when this throws); `path` names it in positions.
    ///
    /// - Throws: As ``init(path:encoding:chunkSize:)``.
    init(descriptor: Int32, path: String, encoding: TextEncoding, chunkSize: Int = 1 << 20)
        throws
    {
        self.path = path
        self.encoding = encoding
        rawCapacity = max(chunkSize, 4)
        self.descriptor = descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            throw ImportError(
                .unreadable, at: SourcePosition(file: path), "cannot read the file: it is a folder")
        }
        totalBytes = status.st_mode & S_IFMT == S_IFREG ? Int64(status.st_size) : nil
        try detectByteOrderMark()
    }

    deinit {
        close(descriptor)  // Read-only: nothing to flush, nothing to report.
        raw?.deallocate()
    }

    /// Fills `destination` with the next UTF-8 bytes of the text.
    ///
    /// - Returns: How many bytes were written: at least 1, or 0 at the end
    ///   of the file.
    /// - Throws: ``ImportError`` for a read failure or an unpaired UTF-16
    ///   surrogate. The bytes before a bad surrogate are handed out first;
    ///   the error comes with the next call, and every call after it.
    package func read(into destination: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        guard let base = destination.baseAddress, destination.count > 0 else { return 0 }
        if let failure { throw failure }
        var count = 0
        while pendingIndex < pending.count, count < destination.count {
            base[count] = pending[pendingIndex]
            count += 1
            pendingIndex += 1
        }
        if count == destination.count { return count }
        switch encoding {
        case .utf8:
            return count + (try readFile(into: base + count, count: destination.count - count))
        case .latin1, .windows1252, .automatic:
            return try transcodeLatin1(into: base, from: count, capacity: destination.count)
        case .utf16:
            return try transcodeUTF16(into: base, from: count, capacity: destination.count)
        }
    }

    /// How many bytes of the file `utf8`, a stretch of what ``read(into:)``
    /// gave that starts and ends on character boundaries, came from.
    func inputByteCount(of utf8: UnsafeBufferPointer<UInt8>) -> Int {
        switch encoding {
        case .utf8:
            return utf8.count
        case .latin1, .windows1252, .automatic:
            // One byte per character: count the bytes that start one.
            var count = 0
            for byte in utf8 where byte & 0xC0 != 0x80 { count += 1 }
            return count
        case .utf16:
            // Two bytes per character, four for one past the BMP (a 4-byte
            // UTF-8 sequence, lead byte 0xF0 and above).
            var count = 0
            for byte in utf8 where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 4 : 2 }
            return count
        }
    }

    // MARK: - Reading the file

    /// One `read(2)` into `buffer`, retried on EINTR; 0 at the end.
    private func readFile(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if fileEnded || count == 0 { return 0 }
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result > 0 {
                bytesRead += Int64(result)
                return result
            }
            if result == 0 {
                fileEnded = true
                return 0
            }
            if errno == EINTR { continue }
            let error = ImportError(
                .unreadable, at: SourcePosition(file: path, byteOffset: bytesRead),
                "cannot read the file: \(String(cString: strerror(errno)))")
            failure = error
            throw error
        }
    }

    /// Reads the first bytes and settles the encoding.
    private func detectByteOrderMark() throws {
        var head = [UInt8](repeating: 0, count: 3)
        var count = 0
        while count < 3 {
            let read = try head.withUnsafeMutableBufferPointer { buffer in
                // The buffer has 3 elements: never nil.
                try readFile(into: buffer.baseAddress.unsafelyUnwrapped + count, count: 3 - count)
            }
            if read == 0 { break }
            count += read
        }
        head.removeLast(3 - count)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) {
            encoding = .utf8
            byteOrderMarkLength = 3
            head.removeFirst(3)
        } else if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16
            bigEndian = head[0] == 0xFE
            byteOrderMarkLength = 2
            head.removeFirst(2)
        } else if encoding == .utf16 {
            let error = ImportError(
                .encoding, at: SourcePosition(file: path, line: 1, column: 1),
                "UTF-16 text must start with a byte-order mark (FF FE or FE FF)")
            failure = error
            throw error
        }
        sourceOffset = Int64(byteOrderMarkLength)
        if encoding == .automatic { try guessEncoding(&head) }
        if encoding == .utf8 {
            pending = head
            return
        }
        rawCapacity = max(rawCapacity, head.count)
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCapacity)
        self.raw = raw
        for (index, byte) in head.enumerated() { raw[index] = byte }
        rawEnd = head.count
    }

    /// Settles ``TextEncoding/automatic``: reads up to the guess window
    /// after `head` (the bytes after any byte-order mark) and keeps UTF-8
    /// when they are UTF-8 (a sequence cut by the window's end counts as
    /// UTF-8), else Windows-1252, with a note saying where the file stopped
    /// being UTF-8.
    private func guessEncoding(_ head: inout [UInt8]) throws {
        let wanted = TextEncoding.guessWindow
        var count = head.count
        head += [UInt8](repeating: 0, count: max(0, wanted - count))
        while count < wanted {
            let read = try head.withUnsafeMutableBufferPointer { buffer in
                // The buffer has `wanted` elements: never nil.
                try readFile(
                    into: buffer.baseAddress.unsafelyUnwrapped + count, count: wanted - count)
            }
            if read == 0 { break }
            count += read
        }
        head.removeLast(head.count - count)
        let problem = head.withUnsafeBufferPointer {
            UTF8Validator.firstProblem(in: $0, allowingNUL: true)
        }
        guard let problem, !(problem.index > count - 4 && !fileEnded) else {
            encoding = .utf8
            return
        }
        encoding = .windows1252
        let before = head[..<problem.index]
        let line = 1 + before.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guessNote =
            "\(path) is not UTF-8 (byte \(UTF8Validator.hex(problem.byte)) on line \(line)) "
            + "and has no byte-order mark: read as Windows-1252; give --encoding to choose another"
    }

    /// Moves the undecoded raw bytes to the front and reads more after them.
    /// Sets `fileEnded` when nothing more comes.
    private func refillRaw(_ raw: UnsafeMutablePointer<UInt8>) throws {
        let kept = rawEnd - rawStart
        if rawStart > 0 {
            if kept > 0 { raw.update(from: raw + rawStart, count: kept) }
            rawStart = 0
            rawEnd = kept
        }
        rawEnd += try readFile(into: raw + rawEnd, count: rawCapacity - rawEnd)
    }

    // MARK: - Transcoding

    /// Latin-1 (or Windows-1252) to UTF-8: bytes from 0x80 become two
    /// bytes (Windows-1252's 0x80–0x9F two or three).
    private func transcodeLatin1(
        into output: UnsafeMutablePointer<UInt8>, from start: Int, capacity: Int
    ) throws -> Int {
        guard let raw else { return start }
        var count = start
        while count < capacity {
            if rawStart == rawEnd {
                if fileEnded { break }
                try refillRaw(raw)
                continue
            }
            let byte = raw[rawStart]
            rawStart += 1
            if byte < 0x80 {
                output[count] = byte
                count += 1
                continue
            }
            if byte < 0xA0, encoding == .windows1252 {
                count = encode(
                    TextEncoding.windows1252Scalar(byte), into: output, at: count,
                    capacity: capacity)
                continue
            }
            output[count] = 0xC0 | byte >> 6
            count += 1
            let second = 0x80 | byte & 0x3F
            if count < capacity {
                output[count] = second
                count += 1
            } else {
                pending = [second]
                pendingIndex = 0
            }
        }
        return count
    }

    /// UTF-16 (the byte order of the BOM) to UTF-8.
    private func transcodeUTF16(
        into output: UnsafeMutablePointer<UInt8>, from start: Int, capacity: Int
    ) throws -> Int {
        guard let raw else { return start }
        var count = start
        while count < capacity {
            if rawEnd - rawStart < 4, !fileEnded {
                try refillRaw(raw)
                continue
            }
            let available = rawEnd - rawStart
            if available == 0 { break }
            if available == 1 {
                return try fail(
                    "the file ends in the middle of a UTF-16 code unit", written: count)
            }
            let unit = codeUnit(raw + rawStart)
            var scalar = UInt32(unit)
            var unitBytes = 2
            if unit & 0xFC00 == 0xD800 {
                guard available >= 4, codeUnit(raw + rawStart + 2) & 0xFC00 == 0xDC00 else {
                    return try fail("an unpaired UTF-16 high surrogate", written: count)
                }
                let low = UInt32(codeUnit(raw + rawStart + 2))
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                unitBytes = 4
            } else if unit & 0xFC00 == 0xDC00 {
                return try fail("an unpaired UTF-16 low surrogate", written: count)
            }
            count = encode(scalar, into: output, at: count, capacity: capacity)
            rawStart += unitBytes
            sourceOffset += Int64(unitBytes)
            advancePosition(over: scalar)
        }
        return count
    }

    /// The code unit at `pointer`, in the input's byte order.
    private func codeUnit(_ pointer: UnsafeMutablePointer<UInt8>) -> UInt16 {
        ByteFields.uint16(at: pointer, bigEndian: bigEndian)
    }

    /// Writes `scalar` as UTF-8 at `output[count]`; what does not fit before
    /// `capacity` waits in `pending`. Returns the new count.
    private func encode(
        _ scalar: UInt32, into output: UnsafeMutablePointer<UInt8>, at count: Int, capacity: Int
    ) -> Int {
        if scalar < 0x80 {
            output[count] = UInt8(scalar)
            return count + 1
        }
        let length = scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
        if count + length <= capacity {
            writeUTF8(scalar, length: length, to: output + count)
            return count + length
        }
        // The caller's buffer ends inside the character: the rest waits.
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.withUnsafeMutableBufferPointer { buffer in
            // The array has 4 elements: never nil.
            writeUTF8(scalar, length: length, to: buffer.baseAddress.unsafelyUnwrapped)
        }
        let fitting = capacity - count
        for index in 0..<fitting { output[count + index] = bytes[index] }
        pending = Array(bytes[fitting..<length])
        pendingIndex = 0
        return capacity
    }

    /// Writes the `length` UTF-8 bytes of a scalar from 0x80 on.
    private func writeUTF8(_ scalar: UInt32, length: Int, to output: UnsafeMutablePointer<UInt8>) {
        switch length {
        case 2:
            output[0] = 0xC0 | UInt8(scalar >> 6)
        case 3:
            output[0] = 0xE0 | UInt8(scalar >> 12)
            output[1] = 0x80 | UInt8(scalar >> 6 & 0x3F)
        default:
            output[0] = 0xF0 | UInt8(scalar >> 18)
            output[1] = 0x80 | UInt8(scalar >> 12 & 0x3F)
            output[2] = 0x80 | UInt8(scalar >> 6 & 0x3F)
        }
        output[length - 1] = 0x80 | UInt8(scalar & 0x3F)
    }

    /// Keeps the line and column of the decoder, counting CR, LF and CRLF
    /// as one line break each, as the readers do.
    private func advancePosition(over scalar: UInt32) {
        switch scalar {
        case 0x0A:
            if !previousWasCarriageReturn { line += 1 }
            column = 1
        case 0x0D:
            line += 1
            column = 1
        default:
            column += 1
        }
        previousWasCarriageReturn = scalar == 0x0D
    }

    /// Records a decoding error at the decoder's position. Throws it now when
    /// this call wrote nothing, else returns the count written and leaves the
    /// error for the next call.
    private func fail(_ message: String, written: Int) throws -> Int {
        let error = ImportError(
            .encoding,
            at: SourcePosition(file: path, line: line, column: column, byteOffset: sourceOffset),
            message)
        failure = error
        if written == 0 { throw error }
        return written
    }
}
