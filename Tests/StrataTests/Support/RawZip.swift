import Foundation

@testable import Strata
@testable import StrataCore

/// A zip built byte by byte, for tests that need archives no honest writer
/// makes: traversal names, links, shared or overlapping data, lying sizes,
/// bad checksums.
///
/// ```swift
/// var zip = RawZip()
/// zip.add(RawZip.Entry(name: "../evil", content: Data("x".utf8)))
/// try zip.data().write(to: url)
/// ```
struct RawZip {
    /// One entry; every field a test may want to falsify is a plain value.
    struct Entry {
        /// The name in the central directory.
        var name: [UInt8]
        /// The name in the local header (`nil`: the same).
        var localName: [UInt8]?
        /// The bytes as stored (already deflated when `method` is 8).
        var payload: [UInt8]
        var method: UInt16 = 0
        var flags: UInt16 = 0x0800
        var crc: UInt32
        var size: UInt32
        var compressedSize: UInt32
        /// 3 (Unix) in the high byte, as Info-ZIP writes.
        var madeBy: UInt16 = 0x031e
        /// The Unix mode in the high half: a regular file, 0644.
        var externalAttributes: UInt32 = 0o100644 << 16
        /// Point the directory record at an earlier entry's local header.
        var sharesHeaderOf: Int?
        /// Shift the directory record's header offset by this many bytes.
        var offsetShift: Int = 0

        /// A stored or deflated file with correct sizes and CRC-32.
        init(name: String, content: Data, deflated: Bool = false) {
            self.name = Array(name.utf8)
            let bytes = [UInt8](content)
            payload = deflated ? [UInt8]((try? RawDeflate.deflate(content)) ?? Data()) : bytes
            method = deflated ? 8 : 0
            crc = RawZip.crc32(bytes)
            size = UInt32(bytes.count)
            compressedSize = UInt32(payload.count)
        }
    }

    var entries: [Entry] = []
    /// Writes every size and offset in zip64 fields (0xffffffff in the
    /// directory record, the values in extra field 1) and zip64 end records.
    var zip64 = false

    mutating func add(_ entry: Entry) { entries.append(entry) }

    /// The archive's bytes: local headers with data, the central directory,
    /// the end record.
    func data() -> Data {
        var out: [UInt8] = []
        var offsets: [Int] = []
        for entry in entries {
            if let shared = entry.sharesHeaderOf {
                offsets.append(offsets[shared])
                continue
            }
            offsets.append(out.count + entry.offsetShift)
            let name = entry.localName ?? entry.name
            out += le32(0x0403_4b50) + le16(20) + le16(entry.flags) + le16(entry.method)
            out += le16(0) + le16(0x21)  // 1980-01-01 00:00
            out += le32(entry.crc) + le32(entry.compressedSize) + le32(entry.size)
            out += le16(UInt16(name.count)) + le16(0) + name + entry.payload
        }
        let directoryStart = out.count
        for (index, entry) in entries.enumerated() {
            out += le32(0x0201_4b50) + le16(entry.madeBy) + le16(zip64 ? 45 : 20)
            out += le16(entry.flags) + le16(entry.method) + le16(0) + le16(0x21) + le32(entry.crc)
            let extra =
                zip64
                ? le16(1) + le16(24) + le64(UInt64(entry.size))
                    + le64(UInt64(entry.compressedSize)) + le64(UInt64(offsets[index])) : []
            out +=
                zip64
                ? le32(0xffff_ffff) + le32(0xffff_ffff)
                : le32(entry.compressedSize) + le32(entry.size)
            out += le16(UInt16(entry.name.count)) + le16(UInt16(extra.count))
            out += le16(0) + le16(0) + le16(0) + le32(entry.externalAttributes)
            out += le32(zip64 ? 0xffff_ffff : UInt32(offsets[index])) + entry.name + extra
        }
        let directorySize = out.count - directoryStart
        if zip64 {
            let recordStart = out.count
            out += le32(0x0606_4b50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
            out += le64(UInt64(entries.count)) + le64(UInt64(entries.count))
            out += le64(UInt64(directorySize)) + le64(UInt64(directoryStart))
            out += le32(0x0706_4b50) + le32(0) + le64(UInt64(recordStart)) + le32(1)
            out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(0xffff) + le16(0xffff)
            out += le32(0xffff_ffff) + le32(0xffff_ffff) + le16(0)
            return Data(out)
        }
        out += le32(0x0605_4b50) + le16(0) + le16(0)
        out += le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(directorySize)) + le32(UInt32(directoryStart)) + le16(0)
        return Data(out)
    }

    private func le64(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// CRC-32 (IEEE, reflected), bit by bit: slow and obviously right.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
