import Foundation

/// Reads and checks a zip's central directory: the table of contents that
/// Info-ZIP `unzip`, Python's `zipfile` and Strata all trust over the local
/// headers.
///
/// Every limit and every name rule is checked here, before any entry's bytes
/// are read, so a hostile archive is refused before anything is extracted.
enum ZipCentralDirectory {
    /// Signatures of the records, as little-endian numbers.
    static let endSignature: UInt32 = 0x0605_4b50
    static let end64Signature: UInt32 = 0x0606_4b50
    static let end64LocatorSignature: UInt32 = 0x0706_4b50
    static let entrySignature: UInt32 = 0x0201_4b50
    static let localSignature: UInt32 = 0x0403_4b50
    /// The fixed part of a local header, before the name and extra field.
    static let localHeaderSize: Int64 = 30

    /// Where the directory is and how many entries it lists.
    struct Location {
        var offset: Int64
        var size: Int64
        var count: Int64
        /// Where the records after the directory start (zip64 end or end).
        var end: Int64
    }

    /// Reads and checks every entry.
    ///
    /// - Returns: The entries in directory order, with the offset each
    ///   entry's data must end before.
    /// - Throws: ``ArchiveError`` for a structural fault, an unsafe or
    ///   duplicate name, a link or device, overlapping entries, or a limit.
    static func entries(of file: ZipInputFile, limits: ZipLimits) throws -> [ZipEntry] {
        let location = try locate(in: file)
        guard location.count <= Int64(limits.maxEntries) else {
            throw ArchiveError(
                .tooManyEntries, path: file.path,
                message:
                    "the archive lists \(location.count) entries; the limit is \(limits.maxEntries)"
            )
        }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(location.count))
        var names = ZipNameSet()
        var total: Int64 = 0
        var position = location.offset
        var buffer = ZipBufferedInput(file: file, start: location.offset, end: location.end)
        for index in 0..<Int(location.count) {
            let entry = try readEntry(
                &buffer, index: index, file: file, limits: limits, names: &names)
            total += entry.size
            if total > limits.maxTotalSize {
                throw ArchiveError(
                    .totalTooLarge, path: file.path, entry: entry.path,
                    message:
                        "the entries so far inflate to \(total) bytes; "
                        + "the limit is \(limits.maxTotalSize)")
            }
            entries.append(entry)
            position = buffer.position
        }
        guard position == location.offset + location.size else {
            throw ArchiveError(
                .corrupt, path: file.path,
                message:
                    "the central directory is \(position - location.offset) bytes, "
                    + "but the end record says \(location.size)")
        }
        return try bounded(entries, directoryOffset: location.offset, file: file)
    }

    // MARK: - End of central directory

    /// Finds the end record (and the zip64 one when the end record points to
    /// it) and checks the directory's place in the file.
    static func locate(in file: ZipInputFile) throws -> Location {
        // The end record is 22 bytes plus a comment of up to 65,535.
        let tailLength = Int(min(file.size, 22 + 65_535))
        let tailStart = file.size - Int64(tailLength)
        let tail = try file.bytes(at: tailStart, count: tailLength, entry: nil, what: "end record")
        var found: Int?
        var candidate = tail.count - 22
        while candidate >= 0 {
            var fields = ByteFields(tail, at: candidate)
            if fields.uint32() == endSignature {
                fields.position = candidate + 20
                // The comment must run exactly to the end of the file: one
                // reading of the archive, the same one unzip makes.
                if candidate + 22 + Int(fields.uint16()) == tail.count {
                    found = candidate
                    break
                }
            }
            candidate -= 1
        }
        guard let found else {
            throw ArchiveError(
                .truncated, path: file.path,
                message: "no end of central directory record: the file is truncated or not a zip")
        }
        var fields = ByteFields(tail, at: found + 4)
        let disk = fields.uint16()
        let directoryDisk = fields.uint16()
        let countOnDisk = fields.uint16()
        let count = fields.uint16()
        let size = fields.uint32()
        let offset = fields.uint32()
        let endOffset = tailStart + Int64(found)
        if disk == 0xffff || directoryDisk == 0xffff || countOnDisk == 0xffff || count == 0xffff
            || size == 0xffff_ffff || offset == 0xffff_ffff
        {
            return try locate64(in: file, endOffset: endOffset)
        }
        guard disk == 0, directoryDisk == 0, countOnDisk == count else {
            throw ArchiveError(
                .unsupported, path: file.path, message: "a multi-disk archive is not supported")
        }
        return try checked(
            Location(offset: Int64(offset), size: Int64(size), count: Int64(count), end: endOffset),
            file: file)
    }

    /// Reads the zip64 end record through its locator, 20 bytes before the
    /// end record.
    static func locate64(in file: ZipInputFile, endOffset: Int64) throws -> Location {
        let locator = try file.bytes(
            at: endOffset - 20, count: 20, entry: nil, what: "zip64 end locator")
        var fields = ByteFields(locator)
        guard fields.uint32() == end64LocatorSignature else {
            throw ArchiveError(
                .corrupt, path: file.path, message: "the zip64 end record's locator is missing")
        }
        let disk = fields.uint32()
        let recordOffset = fields.uint64()
        let disks = fields.uint32()
        guard disk == 0, disks <= 1 else {
            throw ArchiveError(
                .unsupported, path: file.path, message: "a multi-disk archive is not supported")
        }
        guard recordOffset <= UInt64(endOffset - 20) else {
            throw ArchiveError(
                .corrupt, path: file.path, message: "the zip64 end record is out of place")
        }
        let record = try file.bytes(
            at: Int64(recordOffset), count: 56, entry: nil, what: "zip64 end record")
        var end = ByteFields(record)
        guard end.uint32() == end64Signature else {
            throw ArchiveError(
                .corrupt, path: file.path, message: "the zip64 end record is missing")
        }
        _ = end.uint64()  // The record's size: its extensible data is not used.
        _ = end.uint32()  // Versions made by and needed.
        let recordDisk = end.uint32()
        let directoryDisk = end.uint32()
        let countOnDisk = end.uint64()
        let count = end.uint64()
        let size = end.uint64()
        let offset = end.uint64()
        guard recordDisk == 0, directoryDisk == 0, countOnDisk == count else {
            throw ArchiveError(
                .unsupported, path: file.path, message: "a multi-disk archive is not supported")
        }
        guard count <= UInt64(Int64.max), size <= UInt64(Int64.max), offset <= UInt64(Int64.max)
        else {
            throw ArchiveError(
                .corrupt, path: file.path, message: "the zip64 end record is corrupt")
        }
        return try checked(
            Location(
                offset: Int64(offset), size: Int64(size), count: Int64(count),
                end: Int64(recordOffset)), file: file)
    }

    /// The directory must end where the end records start: no gap where
    /// something could hide, no overlap.
    static func checked(_ location: Location, file: ZipInputFile) throws -> Location {
        guard location.offset <= location.end, location.size == location.end - location.offset
        else {
            throw ArchiveError(
                .corrupt, path: file.path,
                message:
                    "the central directory (\(location.size) bytes at \(location.offset)) "
                    + "does not end where the end record starts (\(location.end)); "
                    + "the file is truncated or has data prepended")
        }
        // Each directory record is at least 46 bytes.
        guard location.count <= location.size / 46 else {
            throw ArchiveError(
                .corrupt, path: file.path,
                message:
                    "the end record lists \(location.count) entries, more than its "
                    + "\(location.size)-byte directory can hold")
        }
        return location
    }
}
