import Foundation

/// Where a closure writes an entry's content for
/// ``ZipWriter/add(path:compression:writing:)``: bytes are gathered into
/// chunks before they reach the archive, so many small writes cost little.
public final class ZipEntrySink {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private var open = true
    /// Where full chunks go when a second thread writes them.
    private let pipeline: ZipChunkPipeline?
    /// The bytes written so far.
    public private(set) var count: Int64 = 0

    /// A sink handing chunks of `capacity` bytes to `output`: on the
    /// caller's thread, or with `inBackground` on a second one.
    init(
        capacity: Int, inBackground: Bool = false,
        output: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.capacity = capacity
        self.output = output
        pipeline = inBackground ? ZipChunkPipeline(output: output) : nil
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
                guard pipeline != nil else {
                    try output(bytes)
                    return
                }
                // The writer thread needs bytes it owns: in chunks.
                var rest = bytes[...]
                while rest.count >= capacity {
                    buffer.append(contentsOf: rest.prefix(capacity))
                    try flush()
                    rest = rest.dropFirst(capacity)
                }
                buffer.append(contentsOf: rest)
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
        if let pipeline {
            try pipeline.submit(&buffer)
            return
        }
        try buffer.withUnsafeBytes { try output($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes what is buffered and waits for the writer thread; no write
    /// may follow.
    func close() throws {
        open = false
        do {
            try flush()
        } catch {
            pipeline?.cancel()
            throw error
        }
        try pipeline?.finish()
    }

    /// Drops what is buffered after a failure.
    func abandon() {
        pipeline?.cancel()
        buffer = []
        open = false
    }
}
