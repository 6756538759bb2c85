import Foundation

@testable import Strata
@testable import StrataStore

/// A minimal `bplist00` writer for tests, so they can build keyed archives
/// with UIDs (which Foundation's writer cannot produce from plain values).
/// Every value becomes its own object; nothing is shared.
enum PlistTestEncoder {
    static func encode(_ top: PlistObject) -> Data {
        var objects: [[UInt8]] = []
        _ = append(top, to: &objects)
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), size: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 2]
        bytes += bigEndian(UInt64(objects.count), size: 8)
        bytes += bigEndian(0, size: 8)
        bytes += bigEndian(UInt64(table), size: 8)
        return Data(bytes)
    }

    /// Appends `value` (children after it) and returns its index.
    private static func append(_ value: PlistObject, to objects: inout [[UInt8]]) -> Int {
        let index = objects.count
        objects.append([])
        var encoded: [UInt8]
        switch value {
        case .null: encoded = [0x00]
        case .boolean(let flag): encoded = [flag ? 0x09 : 0x08]
        case .integer(let number): encoded = [0x13] + bigEndian(UInt64(bitPattern: number), size: 8)
        case .real(let number): encoded = [0x23] + bigEndian(number.bitPattern, size: 8)
        case .date(let date):
            encoded = [0x33] + bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
        case .data(let data): encoded = header(0x4, data.count) + [UInt8](data)
        case .string(let string):
            encoded =
                header(0x6, string.utf16.count)
                + string.utf16.flatMap {
                    [UInt8($0 >> 8), UInt8($0 & 0xFF)]
                }
        case .uid(let uid): encoded = [0x87] + bigEndian(uid, size: 8)
        case .array(let elements), .set(let elements):
            let marker: UInt8 = if case .set = value { 0xC } else { 0xA }
            let refs = elements.map { append($0, to: &objects) }
            encoded = header(marker, refs.count) + refs.flatMap { bigEndian(UInt64($0), size: 2) }
        case .dictionary(let entries):
            let sorted = entries.sorted { $0.key < $1.key }
            let keys = sorted.map { append(.string($0.key), to: &objects) }
            let values = sorted.map { append($0.value, to: &objects) }
            encoded =
                header(0xD, keys.count)
                + (keys + values).flatMap { bigEndian(UInt64($0), size: 2) }
        }
        objects[index] = encoded
        return index
    }

    private static func header(_ type: UInt8, _ count: Int) -> [UInt8] {
        count < 15
            ? [type << 4 | UInt8(count)]
            : [type << 4 | 0x0F, 0x13] + bigEndian(UInt64(count), size: 8)
    }

    private static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
