import Foundation
import StrataCore

extension BinaryPropertyList {
    /// Encodes `top` as a binary property list (`bplist00`), the format of
    /// a store's metadata (`Z_METADATA.Z_PLIST`) and of keyed archives.
    ///
    /// Strings are written once however often they occur (dictionary keys
    /// repeat); other objects are written where they stand. Integers take
    /// the fewest bytes the format allows (1, 2 or 4 unsigned, else 8
    /// signed), strings are ASCII when they can be and UTF-16 otherwise,
    /// dictionary keys are in code-point order, so equal values always give
    /// equal bytes (a key given twice keeps its last value). Integers above
    /// `Int64.max` take 16 bytes. References and offsets are as narrow as the file
    /// allows. Foundation's and ``decode(_:maximumDepth:)``'s readers give
    /// back `top`.
    ///
    /// ```swift
    /// let data = BinaryPropertyList.encode(["NSStoreType": "SQLite"])
    /// let same = try BinaryPropertyList.decode(data)
    /// ```
    ///
    /// - Parameter top: The top-level object.
    /// - Returns: The file's bytes.
    public static func encode(_ top: RecordValue) -> Data {
        var objects = ObjectTable()
        let root = objects.add(top)
        let referenceSize = byteCount(for: UInt64(max(objects.nodes.count - 1, 0)))
        var bytes: [UInt8] = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(objects.nodes.count)
        for node in objects.nodes {
            offsets.append(UInt64(bytes.count))
            node.write(to: &bytes, referenceSize: referenceSize)
        }
        let tableStart = UInt64(bytes.count)
        let offsetSize = byteCount(for: offsets.last ?? 0)
        for offset in offsets { append(offset, size: offsetSize, to: &bytes) }
        // Trailer: 5 unused bytes, the sort version, the two sizes, then the
        // object count, the top object and the offset table's position.
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        append(UInt64(objects.nodes.count), size: 8, to: &bytes)
        append(UInt64(root), size: 8, to: &bytes)
        append(tableStart, size: 8, to: &bytes)
        return Data(bytes)
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    static func byteCount(for value: UInt64) -> Int {
        switch value {
        case ..<0x100: 1
        case ..<0x1_0000: 2
        case ..<0x1_0000_0000: 4
        default: 8
        }
    }

    /// Appends `value` big-endian in `size` bytes.
    static func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

/// The objects of a property list being written, in file order, each
/// container's children as object numbers.
private struct ObjectTable {
    enum Node {
        /// An object without children, written as it is.
        case scalar(RecordValue)
        /// An array (`0xA`) or set (`0xC`) of objects.
        case list(marker: UInt8, [Int])
        /// A dictionary: its keys' objects, then its values'.
        case dictionary(keys: [Int], values: [Int])

        func write(to bytes: inout [UInt8], referenceSize: Int) {
            switch self {
            case .scalar(let object): Self.write(object, to: &bytes)
            case .list(let marker, let members):
                Self.header(marker, members.count, to: &bytes)
                for member in members {
                    BinaryPropertyList.append(UInt64(member), size: referenceSize, to: &bytes)
                }
            case .dictionary(let keys, let values):
                Self.header(0xD, keys.count, to: &bytes)
                for member in keys + values {
                    BinaryPropertyList.append(UInt64(member), size: referenceSize, to: &bytes)
                }
            }
        }

        static func write(_ object: RecordValue, to bytes: inout [UInt8]) {
            switch object {
            case .null: bytes.append(0x00)
            case .boolean(let flag): bytes.append(flag ? 0x09 : 0x08)
            case .integer(let number): integer(number, to: &bytes)
            case .unsignedInteger(let number) where number > UInt64(Int64.max):
                // 16 bytes, big-endian: the high half zero.
                bytes.append(0x14)
                BinaryPropertyList.append(0, size: 8, to: &bytes)
                BinaryPropertyList.append(number, size: 8, to: &bytes)
            case .unsignedInteger(let number): integer(Int64(number), to: &bytes)
            case .real(let number):
                bytes.append(0x23)
                BinaryPropertyList.append(number.bitPattern, size: 8, to: &bytes)
            case .date(let date):
                bytes.append(0x33)
                BinaryPropertyList.append(
                    date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &bytes)
            case .data(let data):
                header(0x4, data.count, to: &bytes)
                bytes += data
            case .text(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    header(0x5, text.utf8.count, to: &bytes)
                    bytes += text.utf8
                } else {
                    header(0x6, text.utf16.count, to: &bytes)
                    for unit in text.utf16 {
                        bytes.append(UInt8(unit >> 8))
                        bytes.append(UInt8(unit & 0xFF))
                    }
                }
            case .uid(let number):
                let size = BinaryPropertyList.byteCount(for: number)
                bytes.append(0x80 | UInt8(size - 1))
                BinaryPropertyList.append(number, size: size, to: &bytes)
            case .array, .set, .dictionary:
                break  // Containers are nodes of their own (ObjectTable.add).
            }
        }

        /// An integer: unsigned in 1, 2 or 4 bytes when it fits, else signed
        /// in 8 (the format reads the shorter widths as unsigned).
        static func integer(_ number: Int64, to bytes: inout [UInt8]) {
            let size = number < 0 ? 8 : BinaryPropertyList.byteCount(for: UInt64(number))
            let exponent: UInt8 =
                switch size {
                case 1: 0
                case 2: 1
                case 4: 2
                default: 3
                }
            bytes.append(0x10 | exponent)
            BinaryPropertyList.append(UInt64(bitPattern: number), size: size, to: &bytes)
        }

        /// A marker with its count: in the low nibble below 15, else an
        /// integer object after it.
        static func header(_ kind: UInt8, _ count: Int, to bytes: inout [UInt8]) {
            if count < 15 {
                bytes.append(kind << 4 | UInt8(count))
            } else {
                bytes.append(kind << 4 | 0x0F)
                integer(Int64(count), to: &bytes)
            }
        }
    }

    var nodes: [Node] = []
    /// Strings already written, by text.
    var strings: [String: Int] = [:]

    /// Adds `object` and what it contains; returns its object number.
    mutating func add(_ object: RecordValue) -> Int {
        switch object {
        case .text(let text):
            if let known = strings[text] { return known }
            let number = append(.scalar(object))
            strings[text] = number
            return number
        case .array(let members), .set(let members):
            let number = append(.scalar(.null))
            let marker: UInt8 = if case .set = object { 0xC } else { 0xA }
            nodes[number] = .list(marker: marker, members.map { add($0.value) })
            return number
        case .dictionary(let fields):
            let number = append(.scalar(.null))
            var entries: [String: RecordValue] = [:]
            for field in fields { entries[field.key] = field.value }
            let sorted = entries.sorted {
                $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars)
            }
            let keys = sorted.map { add(.text($0.key)) }
            let values = sorted.map { add($0.value) }
            nodes[number] = .dictionary(keys: keys, values: values)
            return number
        default:
            return append(.scalar(object))
        }
    }

    private mutating func append(_ node: Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }
}
