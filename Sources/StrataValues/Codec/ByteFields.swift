/// Unsigned integers stored in bytes: the one reader of fixed-width fields,
/// little-endian (zip headers, UTF-16LE text) or big-endian (binary property
/// lists, UTF-16BE text), and a cursor over a record of them.
///
/// ```swift
/// var fields = ByteFields([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00])
/// let signature = fields.uint32()  // 0x0403_4B50, a zip's local header
/// let version = fields.uint16()  // 20
/// ```
package struct ByteFields {
    /// The bytes read.
    let bytes: [UInt8]
    /// Where the next field starts.
    package var position = 0

    package init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether `count` more bytes are there.
    package func has(_ count: Int) -> Bool { position + count <= bytes.count }

    /// The next 2 bytes, little-endian; 0 past the end (callers check
    /// ``has(_:)`` first).
    package mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: next(2)) }

    /// The next 4 bytes, little-endian; 0 past the end.
    package mutating func uint32() -> UInt32 { UInt32(truncatingIfNeeded: next(4)) }

    /// The next 8 bytes, little-endian; 0 past the end.
    package mutating func uint64() -> UInt64 { next(8) }

    /// The next `count` bytes; fewer past the end.
    package mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    private mutating func next(_ count: Int) -> UInt64 {
        guard has(count) else { return 0 }
        defer { position += count }
        return Self.littleEndian(bytes[position..<(position + count)])
    }

    // MARK: - Fields anywhere

    /// An unsigned little-endian number of up to 8 bytes.
    static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// An unsigned big-endian number of up to 8 bytes.
    package static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// The 2 bytes at `pointer` as a number, in the byte order given.
    @inline(__always)
    package static func uint16(at pointer: UnsafePointer<UInt8>, bigEndian: Bool) -> UInt16 {
        bigEndian
            ? UInt16(pointer[0]) << 8 | UInt16(pointer[1])
            : UInt16(pointer[1]) << 8 | UInt16(pointer[0])
    }

    /// `value` as 4 little-endian bytes.
    package static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
