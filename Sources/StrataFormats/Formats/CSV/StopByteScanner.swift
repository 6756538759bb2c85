/// Finds the next of three bytes (a delimiter or quote, CR, LF) in a buffer,
/// eight bytes at a time, and notes on the way whether the bytes before it
/// need the UTF-8 check (a NUL, or a byte from 0x80).
///
/// The word tricks are the classic "has a zero byte" ones: for
/// `x = word ^ broadcast(b)`, `(x - 0x01…01) & ~x & 0x80…80` marks the bytes
/// equal to `b`, exactly for the lowest one (a borrow can only mark bytes
/// above a true match, which are never used).
struct StopByteScanner {
    private let first: UInt64
    private let second: UInt64
    private let third: UInt64
    /// The byte classes of ``CSVReader`` for the last bytes of the buffer,
    /// fewer than a word.
    private let classes: UnsafeMutablePointer<UInt8>

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// A scanner that stops at `first`, `second` or `third`; `classes` gives
    /// the same stops (``CSVReader/stopClass``) and the bytes to check
    /// (``CSVReader/checkClass``) one byte at a time.
    init(
        stoppingAt first: UInt8, _ second: UInt8, _ third: UInt8,
        classes: UnsafeMutablePointer<UInt8>
    ) {
        self.first = Self.ones &* UInt64(first)
        self.second = Self.ones &* UInt64(second)
        self.third = Self.ones &* UInt64(third)
        self.classes = classes
    }

    /// The bytes of `word` equal to zero, as their high bits (exact for the
    /// lowest one).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// The offset of the first stop byte in `start..<end`, or `end`; sets
    /// `needsCheck` when a byte before it is a NUL or from 0x80.
    @inline(__always)
    func scan(
        _ buffer: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, needsCheck: inout Bool
    ) -> Int {
        var cursor = start
        var special: UInt64 = 0
        while end &- cursor >= 8 {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(buffer + cursor).loadUnaligned(as: UInt64.self))
            let stops =
                Self.zeroBytes(word ^ first) | Self.zeroBytes(word ^ second)
                | Self.zeroBytes(word ^ third)
            let unusual = (word & Self.highBits) | Self.zeroBytes(word)
            if stops != 0 {
                let offset = stops.trailingZeroBitCount &>> 3
                let before = (UInt64(1) &<< UInt64(offset &* 8)) &- 1
                if special | (unusual & before) != 0 { needsCheck = true }
                return cursor &+ offset
            }
            special |= unusual
            cursor &+= 8
        }
        if special != 0 { needsCheck = true }
        var seen: UInt8 = 0
        while cursor < end {
            let byteClass = classes[Int(buffer[cursor])]
            if byteClass & CSVReader.stopClass != 0 { break }
            seen |= byteClass
            cursor &+= 1
        }
        if seen != 0 { needsCheck = true }
        return cursor
    }
}
