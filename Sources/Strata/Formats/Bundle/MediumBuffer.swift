/// Memory a small media file is read into whole, to be bound to its row in
/// place (no zero-filled room written first, then written again); reused
/// from file to file, so it grows to the largest small medium and no more.
final class MediumBuffer {
    /// The largest medium read whole; larger ones stream into their row.
    static let limit = 1 << 20

    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    deinit {
        storage.deallocate()
    }

    /// Reads `entry` of `reader` into the buffer, after a marker byte when
    /// `marker` is given.
    ///
    /// - Returns: The bytes, valid until the next read.
    /// - Throws: ``ArchiveError`` from the read (a damaged entry).
    func read(_ entry: ZipEntry, of reader: ZipReader, marker: UInt8?) throws
        -> UnsafeRawBufferPointer
    {
        let count = Int(entry.size) + (marker == nil ? 0 : 1)
        if storage.count < count {
            storage.deallocate()
            storage = .allocate(byteCount: max(count, 64 << 10), alignment: 16)
        }
        var offset = 0
        if let marker {
            storage[0] = marker
            offset = 1
        }
        try reader.read(entry) { chunk in
            // The reader stops an entry that inflates beyond its size; this
            // only keeps a wrong size from writing past the buffer.
            guard offset + chunk.count <= count else {
                throw ArchiveError(
                    .sizeMismatch, path: reader.path, entry: entry.path,
                    message: "more bytes than the entry's declared \(entry.size)")
            }
            storage.baseAddress.map {
                UnsafeMutableRawBufferPointer(start: $0 + offset, count: chunk.count)
                    .copyMemory(from: chunk)
            }
            offset += chunk.count
        }
        return UnsafeRawBufferPointer(rebasing: storage[0..<offset])
    }
}
