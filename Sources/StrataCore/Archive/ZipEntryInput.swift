import CArchive
import Foundation

/// The bytes of one entry, read from its local header on: stored bytes
/// passed through or deflated bytes inflated, counted against the declared
/// size and checked against the declared CRC-32.
struct ZipEntryInput {
    /// Compressed bytes read per call.
    static let chunkSize = 256 * 1024

    let entry: ZipEntry
    let file: ZipInputFile

    private func fail(_ code: ArchiveError.Code, _ message: String) -> ArchiveError {
        ArchiveError(code, path: file.path, entry: entry.path, message: message)
    }

    /// Checks the local header against the directory and returns where the
    /// data starts.
    func dataOffset() throws -> Int64 {
        let header = try file.bytes(
            at: entry.headerOffset, count: Int(ZipCentralDirectory.localHeaderSize),
            entry: entry.path, what: "local header")
        var fields = ByteFields(header)
        guard fields.uint32() == ZipCentralDirectory.localSignature else {
            throw fail(.corrupt, "no local header where the central directory points")
        }
        _ = fields.uint16()  // Version needed.
        let flags = fields.uint16()
        let method = fields.uint16()
        _ = fields.uint32()  // DOS time and date.
        let crc = fields.uint32()
        let compressedSize = fields.uint32()
        let size = fields.uint32()
        let nameLength = Int64(fields.uint16())
        let extraLength = Int64(fields.uint16())
        let name = try file.bytes(
            at: entry.headerOffset + ZipCentralDirectory.localHeaderSize, count: Int(nameLength),
            entry: entry.path, what: "local header's name")
        // A local name that differs is how an archive shows one reader one
        // file and another reader another.
        guard name == entry.rawName else {
            throw fail(
                .corrupt,
                "the local header names \(ArchiveError.quoted(String(decoding: name, as: UTF8.self))), "
                    + "unlike the central directory")
        }
        let expectedMethod: UInt16 = entry.compression == .stored ? 0 : 8
        guard method == expectedMethod else {
            throw fail(
                .corrupt, "the local header's compression method differs from the directory's")
        }
        // Without a data descriptor (flag bit 3) the local header carries the
        // CRC and sizes; they must agree (0xffffffff defers to zip64).
        if flags & 0x0008 == 0 {
            func agrees(_ local: UInt32, _ central: Int64) -> Bool {
                local == 0xffff_ffff || Int64(local) == central
            }
            guard crc == entry.crc32, agrees(compressedSize, entry.compressedSize),
                agrees(size, entry.size)
            else {
                throw fail(.corrupt, "the local header's CRC or sizes differ from the directory's")
            }
        }
        let start =
            entry.headerOffset + ZipCentralDirectory.localHeaderSize + nameLength
            + extraLength
        guard start + entry.compressedSize <= entry.dataLimit else {
            throw fail(
                .overlappingEntries,
                "the entry's data runs into the next entry or the central directory")
        }
        return start
    }

    /// Streams the inflated bytes to `body`, then checks size and (unless
    /// the caller checks a stronger digest) CRC.
    func stream(checksCRC: Bool = true, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let start = try dataOffset()
        guard entry.kind == .file else { return }
        var crc: UInt = CArchive.crc32(0, nil, 0)
        var produced: Int64 = 0
        let input = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.chunkSize, alignment: 16)
        defer { input.deallocate() }
        let observe = { (chunk: UnsafeRawBufferPointer) throws in
            guard !chunk.isEmpty, let base = chunk.baseAddress else { return }
            produced += Int64(chunk.count)
            guard produced <= entry.size else {
                throw fail(
                    .sizeMismatch, "the entry inflates beyond the \(entry.size) bytes it declares")
            }
            if checksCRC {
                crc = CArchive.crc32(
                    crc, base.assumingMemoryBound(to: Bytef.self), uInt(chunk.count))
            }
            try body(chunk)
        }
        switch entry.compression {
        case .stored: try copyStored(from: start, buffer: input, observe)
        default: try inflate(from: start, buffer: input, observe)
        }
        guard produced == entry.size else {
            throw fail(
                .sizeMismatch,
                "the entry inflates to \(produced) bytes but declares \(entry.size)")
        }
        guard !checksCRC || UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw fail(
                .checksumMismatch,
                "the CRC-32 of the bytes is \(hex(UInt32(truncatingIfNeeded: crc))), "
                    + "the archive declares \(hex(entry.crc32))")
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Reads up to one chunk of the entry's compressed bytes.
    private func readChunk(
        at offset: Int64, remaining: Int64, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let count = Int(min(Int64(buffer.count), remaining))
        let got = try file.read(at: offset, into: buffer, count: count)
        guard got == count else {
            throw fail(.truncated, "the archive ends inside the entry's data")
        }
        return got
    }

    private func copyStored(
        from start: Int64, buffer: UnsafeMutableRawBufferPointer,
        _ observe: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var offset = start
        var remaining = entry.compressedSize
        while remaining > 0 {
            let got = try readChunk(at: offset, remaining: remaining, into: buffer)
            try observe(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            offset += Int64(got)
            remaining -= Int64(got)
        }
    }

    private func inflate(
        from start: Int64, buffer: UnsafeMutableRawBufferPointer,
        _ observe: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let zstream: ZStream
        do {
            zstream = try ZStream(.inflate)
        } catch {
            throw fail(.library, "zlib cannot start inflating: \(error)")
        }
        let stream = zstream.stream
        let output = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.chunkSize, alignment: 16)
        defer { output.deallocate() }
        var offset = start
        var remaining = entry.compressedSize
        while true {
            if stream.pointee.avail_in == 0, remaining > 0 {
                let got = try readChunk(at: offset, remaining: remaining, into: buffer)
                stream.pointee.next_in = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(got)
                offset += Int64(got)
                remaining -= Int64(got)
            }
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let code = CArchive.inflate(stream, Z_NO_FLUSH)
            let count = output.count - Int(stream.pointee.avail_out)
            try observe(UnsafeRawBufferPointer(rebasing: output[0..<count]))
            switch code {
            case Z_STREAM_END:
                guard remaining == 0, stream.pointee.avail_in == 0 else {
                    throw fail(
                        .corrupt, "the deflated data ends before the entry's compressed size")
                }
                return
            case Z_OK:
                continue
            case Z_BUF_ERROR where remaining == 0 && stream.pointee.avail_in == 0:
                throw fail(.corrupt, "the deflated data is cut short")
            case Z_BUF_ERROR:
                continue
            default:
                throw fail(
                    .corrupt,
                    "the deflated data is corrupt (\(ZStream.message(stream, code: code)))")
            }
        }
    }
}
