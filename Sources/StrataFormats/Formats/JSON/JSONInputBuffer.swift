import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

/// A file read in chunks into one growable buffer, addressed by absolute
/// byte offsets, that keeps only the bytes its owner still needs.
///
/// The owner moves ``keepFrom`` forward as it consumes input; ``fill()``
/// drops the bytes before it (counting their lines and columns first, so
/// positions stay exact) and reads the next chunk. The buffer grows only
/// while one record is larger than the space it has, which the readers
/// bound by ``ImportLimits/maximumRecordBytes``.
final class JSONInputBuffer {
    /// The path for error messages.
    let file: String
    /// How many bytes one `read(2)` asks for.
    let chunkSize: Int
    /// The size of the file when it is a regular file.
    let fileSize: Int64?
    private var descriptor: Int32
    /// The bytes from ``base`` to ``end``.
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The absolute offset of `storage[0]`.
    private(set) var base = 0
    /// The absolute offset one past the last byte read.
    private(set) var end = 0
    /// Whether `read(2)` has reported the end of the file.
    private(set) var reachedEnd = false
    /// Bytes before this absolute offset may be dropped by the next fill.
    var keepFrom = 0
    /// Lines and columns of every byte up to the tracker's mark.
    private(set) var tracker = JSONLineTracker()
    /// Whether dropped bytes are counted for ``lineAndColumn(at:)``; JSON
    /// Lines readers count their lines themselves and turn it off.
    var tracksLines = true

    /// Opens `path` for reading.
    ///
    /// - Throws: ``ImportError/Code/unreadable`` when the file cannot be
    ///   opened or is a directory.
    init(path: String, chunkSize: Int) throws(ImportError) {
        file = path
        self.chunkSize = max(1, chunkSize)
        descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw ImportError(.unreadable, at: SourcePosition(file: path), "cannot open: \(reason)")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            let type = status.st_mode & S_IFMT
            if type == S_IFDIR {
                Glibc.close(descriptor)
                throw ImportError(
                    .unreadable, at: SourcePosition(file: path),
                    "is a folder; expected a JSON or NDJSON file")
            }
            fileSize = type == S_IFREG ? Int64(status.st_size) : nil
        } else {
            fileSize = nil
        }
        capacity = max(2 * self.chunkSize, 4096)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// The byte at absolute offset `offset`, which must be buffered.
    @inline(__always)
    subscript(offset: Int) -> UInt8 { storage[offset - base] }

    /// The buffered bytes from `start` to `stop` (absolute offsets).
    func bytes(from start: Int, to stop: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + (start - base), count: stop - start)
    }

    /// Makes the byte at `offset` available, reading as needed.
    ///
    /// - Returns: false when the file ends before it.
    func ensure(_ offset: Int) throws(ImportError) -> Bool {
        while offset >= end {
            guard try fill() else { return false }
        }
        return true
    }

    /// Reads the next chunk, first dropping the bytes before ``keepFrom``
    /// when the space is needed.
    ///
    /// - Returns: false at the end of the file.
    func fill() throws(ImportError) -> Bool {
        if reachedEnd { return false }
        if capacity - (end - base) < chunkSize {
            compact()
            if capacity - (end - base) < chunkSize { grow() }
        }
        let room = min(chunkSize, capacity - (end - base))
        while true {
            let count = Glibc.read(descriptor, storage + (end - base), room)
            if count > 0 {
                end += count
                return true
            }
            if count == 0 {
                reachedEnd = true
                return false
            }
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            throw ImportError(
                .unreadable, at: SourcePosition(file: file, byteOffset: Int64(end)),
                "cannot read: \(reason)")
        }
    }

    /// The line and column of the byte at absolute `offset`, which must be
    /// at or after every offset asked before and still buffered.
    func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        if offset > tracker.mark {
            tracker.advance(over: bytes(from: tracker.mark, to: offset))
        }
        return (tracker.line, tracker.column)
    }

    /// Starts counting lines and columns at `offset` (after a byte order
    /// mark, which is not a character of the text).
    func startTracking(at offset: Int) {
        tracker.mark = offset
    }

    private func compact() {
        let drop = min(keepFrom, end) - base
        guard drop > 0 else { return }
        // Count the dropped bytes' lines first: positions need them later.
        if tracksLines && tracker.mark < base + drop {
            tracker.advance(over: bytes(from: max(tracker.mark, base), to: base + drop))
        }
        let kept = end - base - drop
        if kept > 0 { storage.update(from: storage + drop, count: kept) }
        base += drop
    }

    private func grow() {
        let used = end - base
        let newCapacity = max(capacity * 2, used + chunkSize)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.initialize(from: storage, count: used)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }
}

/// Counts lines and columns over bytes as they go by, as an editor shows
/// them: LF, CR and CRLF each end a line; columns count Unicode scalars
/// from 1.
struct JSONLineTracker {
    /// The absolute offset of the next byte to count.
    var mark = 0
    /// The line of the byte at ``mark``.
    var line = 1
    /// The column of the byte at ``mark``.
    var column = 1
    private var previousWasCR = false

    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var line = line
        var column = column
        var previousWasCR = previousWasCR
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes without a line break are eight columns.
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & SWAR.high == 0 && !SWAR.hasByte(word, 0x0A)
                    && !SWAR.hasByte(word, 0x0D)
                {
                    column += 8
                    previousWasCR = false
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            index += 1
            if byte == 0x0A {
                if !previousWasCR { line += 1 }
                column = 1
                previousWasCR = false
            } else if byte == 0x0D {
                line += 1
                column = 1
                previousWasCR = true
            } else {
                // Continuation bytes (10xxxxxx) do not start a scalar.
                if byte & 0xC0 != 0x80 { column += 1 }
                previousWasCR = false
            }
        }
        self.line = line
        self.column = column
        self.previousWasCR = previousWasCR
        mark += count
    }
}

/// Tests on eight bytes at once (SIMD within a register).
enum SWAR {
    /// The high bit of every byte.
    static let high: UInt64 = 0x8080_8080_8080_8080
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// Whether one of the bytes of `word` is `byte`.
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let folded = word ^ (ones &* UInt64(byte))
        return (folded &- ones) & ~folded & high != 0
    }
}
