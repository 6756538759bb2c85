import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file line by line through one fixed buffer, so memory stays
/// bounded by the buffer (or by the longest line, if one is longer).
///
/// Lines end at `\n`; a `\r` before it is dropped; a last line without a
/// newline is still delivered. Lines are handed out as bytes, valid only
/// during the callback, so nothing is copied unless the caller copies it.
///
/// ```swift
/// let reader = try LineReader(path: "contacts.txt")
/// try reader.forEachLine { bytes, number in print(number, bytes.count) }
/// ```
final class LineReader {
    /// The file, for messages.
    let path: String
    private let descriptor: CInt
    private var buffer: UnsafeMutableRawBufferPointer

    /// Opens `path` for reading.
    ///
    /// - Parameter bufferSize: The initial buffer; it grows only to hold a
    ///   line longer than itself.
    /// - Throws: ``BenchError`` (`input`) when the file cannot be opened.
    init(path: String, bufferSize: Int = 1 << 16) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BenchError(.input, "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        buffer = .allocate(byteCount: max(bufferSize, 16), alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)  // Read-only; a close error loses nothing.
    }

    /// Calls `body` with each line's bytes and its 1-based number.
    ///
    /// - Throws: What `body` throws, or ``BenchError`` (`input`) on a read error.
    func forEachLine(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        var start = 0  // First unconsumed byte.
        var end = 0  // One past the last byte read.
        var scanned = 0  // Bytes from `start` known to hold no newline.
        var number = 0
        var atEndOfFile = false
        while true {
            guard let base = buffer.baseAddress else { return }
            if let newline = memchr(base + start + scanned, 0x0A, end - start - scanned) {
                let stop = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
                number += 1
                try body(trimmed(base, from: start, to: stop), number)
                start = stop + 1
                scanned = 0
                continue
            }
            scanned = end - start
            if atEndOfFile {
                if end > start {
                    number += 1
                    try body(trimmed(base, from: start, to: end), number)
                }
                return
            }
            try refill(start: &start, end: &end, atEndOfFile: &atEndOfFile)
        }
    }

    /// Moves the unconsumed bytes to the front (growing the buffer when they
    /// fill it) and reads more after them.
    private func refill(start: inout Int, end: inout Int, atEndOfFile: inout Bool) throws {
        guard let base = buffer.baseAddress else { return }
        let pending = end - start
        if start > 0 {
            memmove(base, base + start, pending)
            start = 0
            end = pending
        }
        if end == buffer.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(
                byteCount: buffer.count * 2, alignment: 16)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
            buffer.deallocate()
            buffer = larger
        }
        guard let target = buffer.baseAddress else { return }
        while true {
            let count = read(descriptor, target + end, buffer.count - end)
            if count > 0 {
                end += count
                return
            }
            if count == 0 {
                atEndOfFile = true
                return
            }
            if errno != EINTR {
                throw BenchError(.input, "\(path): read error: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The bytes from `start` up to `stop`, without a final `\r`.
    private func trimmed(
        _ base: UnsafeMutableRawPointer, from start: Int, to stop: Int
    ) -> UnsafeRawBufferPointer {
        var stop = stop
        if stop > start && base.load(fromByteOffset: stop - 1, as: UInt8.self) == 0x0D {
            stop -= 1
        }
        return UnsafeRawBufferPointer(start: base + start, count: stop - start)
    }
}
