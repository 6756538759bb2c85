import Foundation

extension ZipCentralDirectory {
    /// Unix file types in the high half of the external attributes.
    static let typeMask: UInt32 = 0o170000
    static let regularType: UInt32 = 0o100000
    static let directoryType: UInt32 = 0o040000
    static let symlinkType: UInt32 = 0o120000

    /// Reads one directory record and checks it.
    static func readEntry(
        _ input: inout ZipBufferedInput, index: Int, file: ZipInputFile, limits: ZipLimits,
        names: inout ZipNameSet
    ) throws -> ZipEntry {
        var fields = ByteFields(try input.take(46, entry: nil, what: "entry #\(index + 1)"))
        guard fields.uint32() == entrySignature else {
            throw ArchiveError(
                .corrupt, path: file.path,
                message: "entry #\(index + 1) of the central directory has no valid signature")
        }
        let madeBy = fields.uint16()
        _ = fields.uint16()  // Version needed: the method and flags say what matters.
        let flags = fields.uint16()
        let method = fields.uint16()
        _ = fields.uint32()  // DOS time and date: not used.
        let crc = fields.uint32()
        var compressedSize = UInt64(fields.uint32())
        var size = UInt64(fields.uint32())
        let nameLength = Int(fields.uint16())
        let extraLength = Int(fields.uint16())
        let commentLength = Int(fields.uint16())
        var disk = UInt32(fields.uint16())
        _ = fields.uint16()  // Internal attributes (text or binary): not used.
        let external = fields.uint32()
        var offset = UInt64(fields.uint32())
        let rawName = try input.take(nameLength, entry: nil, what: "name of entry #\(index + 1)")
        var checked = try ZipName.check(rawName, archive: file.path)
        var name = checked.path
        func fail(_ code: ArchiveError.Code, _ message: String) -> ArchiveError {
            ArchiveError(code, path: file.path, entry: name, message: message)
        }
        let extra = try input.take(extraLength, entry: name, what: "extra field")
        _ = try input.take(commentLength, entry: name, what: "comment")

        // zip64: the fields that overflowed come from extra field 0x0001, in
        // this order.
        if size == 0xffff_ffff || compressedSize == 0xffff_ffff || offset == 0xffff_ffff
            || disk == 0xffff
        {
            var zip64 =
                try zip64Field(in: extra)
                ?? {
                    throw fail(
                        .corrupt, "a size or offset needs a zip64 extra field, which is missing")
                }()
            func next64() throws -> UInt64 {
                guard zip64.has(8) else { throw fail(.corrupt, "the zip64 extra field is short") }
                return zip64.uint64()
            }
            if size == 0xffff_ffff { size = try next64() }
            if compressedSize == 0xffff_ffff { compressedSize = try next64() }
            if offset == 0xffff_ffff { offset = try next64() }
            if disk == 0xffff {
                guard zip64.has(4) else { throw fail(.corrupt, "the zip64 extra field is short") }
                disk = zip64.uint32()
            }
        }
        guard disk == 0 else { throw fail(.unsupported, "the entry is on another disk") }
        if flags & 0x0001 != 0 || flags & 0x0040 != 0 || flags & 0x2000 != 0 {
            throw fail(.unsupported, "the entry is encrypted")
        }
        let compression: ZipCompression
        switch method {
        case 0: compression = .stored
        case 8: compression = .deflated
        default:
            throw fail(
                .unsupported,
                "compression method \(method) is not supported (only 0, stored, and 8, deflated)")
        }
        let kind = try kind(madeBy: madeBy, external: external, checked: checked, fail: fail)
        if kind == .directory, !checked.isDirectory {
            // A folder by its mode alone: spelled as folders are, with "/".
            checked.isDirectory = true
            checked.path += "/"
            name = checked.path
        }
        try names.insert(checked, archive: file.path)

        // Sizes: the limits, then the ratio a bomb needs.
        guard size <= UInt64(limits.maxEntrySize) else {
            throw fail(
                .entryTooLarge,
                "the entry declares \(size) bytes; the limit is \(limits.maxEntrySize)")
        }
        guard compressedSize <= UInt64(file.size), offset <= UInt64(file.size) else {
            throw fail(.truncated, "the entry's data lies beyond the end of the archive")
        }
        let inflated = Int64(size)
        let deflated = Int64(compressedSize)
        if kind == .directory, inflated != 0 || deflated > 2 {
            throw fail(.corrupt, "a folder entry carries \(inflated) bytes")
        }
        if compression == .stored, inflated != deflated {
            throw fail(
                .sizeMismatch,
                "a stored entry declares \(inflated) bytes but holds \(deflated)")
        }
        if inflated > limits.ratioFloor,
            Double(inflated) > Double(deflated) * Double(limits.maxCompressionRatio)
        {
            throw fail(
                .compressionRatio,
                "the entry inflates \(deflated) bytes to \(inflated), a ratio beyond the limit "
                    + "of \(limits.maxCompressionRatio) : 1")
        }
        return ZipEntry(
            path: name, kind: kind, size: inflated, compressedSize: deflated,
            compression: compression, crc32: crc, index: index, headerOffset: Int64(offset),
            storedName: rawName.elementsEqual(name.utf8) ? nil : rawName, flags: flags,
            dataLimit: 0)
    }

    /// The zip64 extended information field (id 1) of an extra field.
    static func zip64Field(in extra: [UInt8]) throws -> ByteFields? {
        var fields = ByteFields(extra)
        while fields.has(4) {
            let id = fields.uint16()
            let length = Int(fields.uint16())
            guard fields.has(length) else { return nil }
            if id == 0x0001 { return ByteFields(fields.take(length)) }
            fields.position += length
        }
        return nil
    }

    /// A file or a folder, from the Unix mode (when a Unix tool made the
    /// entry) and the trailing `/`; links and devices are refused.
    static func kind(
        madeBy: UInt16, external: UInt32, checked: ZipName.Checked,
        fail: (ArchiveError.Code, String) -> ArchiveError
    ) throws -> ZipEntry.Kind {
        let host = madeBy >> 8
        // 3 is Unix, 19 macOS: the high half of the attributes is st_mode.
        if host == 3 || host == 19 {
            let type = (external >> 16) & typeMask
            switch type {
            case symlinkType: throw fail(.symlink, "the entry is a symbolic link")
            case directoryType: return .directory
            case regularType, 0: break
            default: throw fail(.specialFile, "the entry is a device, FIFO or socket")
            }
        }
        // MS-DOS attribute 0x10: a folder.
        return checked.isDirectory || external & 0x10 != 0 ? .directory : .file
    }

    /// Checks that no two entries share or overlap their data, and gives
    /// each entry the offset its data must end before (the next entry's
    /// header, or the directory).
    static func bounded(_ entries: [ZipEntry], directoryOffset: Int64, file: ZipInputFile) throws
        -> [ZipEntry]
    {
        let order = entries.indices.sorted { entries[$0].headerOffset < entries[$1].headerOffset }
        var result = entries
        for (rank, index) in order.enumerated() {
            let entry = entries[index]
            let limit =
                rank + 1 < order.count ? entries[order[rank + 1]].headerOffset : directoryOffset
            if rank + 1 < order.count, limit == entry.headerOffset {
                throw ArchiveError(
                    .hardLink, path: file.path, entry: entries[order[rank + 1]].path,
                    message: "the entry shares its data with \(ArchiveError.quoted(entry.path))")
            }
            let smallestEnd =
                entry.headerOffset + localHeaderSize + Int64(entry.rawName.count)
                + entry.compressedSize
            guard smallestEnd <= limit else {
                let next =
                    rank + 1 < order.count
                    ? ArchiveError.quoted(entries[order[rank + 1]].path) : "the central directory"
                throw ArchiveError(
                    .overlappingEntries, path: file.path, entry: entry.path,
                    message:
                        "the entry's data (from \(entry.headerOffset)) runs into \(next) "
                        + "(at \(limit))")
            }
            result[index] = entry.bounded(by: limit)
        }
        return result
    }
}
