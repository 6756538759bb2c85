/// Text as UTF-16 bytes in either byte order, after a byte-order mark.
func utf16Bytes(_ text: String, bigEndian: Bool, byteOrderMark: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
    for unit in text.utf16 { bytes += utf16Bytes(unit: unit, bigEndian: bigEndian) }
    return bytes
}

/// One UTF-16 code unit's two bytes.
func utf16Bytes(unit: UInt16, bigEndian: Bool) -> [UInt8] {
    let high = UInt8(unit >> 8)
    let low = UInt8(unit & 0xFF)
    return bigEndian ? [high, low] : [low, high]
}
