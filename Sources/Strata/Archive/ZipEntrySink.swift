import Foundation

/// Where a closure writes an entry's content for
/// ``ZipWriter/add(path:compression:writing:)``: bytes are gathered into
/// chunks before they reach the archive, so many small writes cost little.
public final class ZipEntrySink {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private var open = true
    /// The bytes written so far.
    public private(set) var count: Int64 = 0

    init(capacity: Int, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.capacity = capacity
        self.output = output
        buffer.reserveCapacity(capacity)
    }

    /// Appends bytes to the entry.
    ///
    /// - Throws: ``ArchiveError`` when the archive cannot be written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(open, "ZipEntrySink: used after its entry ended")
        count += Int64(bytes.count)
        if buffer.count + bytes.count > capacity {
            try flush()
            if bytes.count >= capacity {
                try output(bytes)
                return
            }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes to the entry.
    public func write(_ data: some DataProtocol) throws {
        for region in data.regions {
            try region.withUnsafeBytes { try write($0) }
        }
    }

    /// Appends a string's UTF-8 bytes to the entry.
    public func write(_ string: String) throws {
        var string = string
        try string.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try output($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes what is buffered; no write may follow.
    func close() throws {
        try flush()
        open = false
    }

    /// Drops what is buffered after a failure.
    func abandon() {
        buffer = []
        open = false
    }
}
