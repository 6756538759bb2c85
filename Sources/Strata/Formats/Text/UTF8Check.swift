/// Strict UTF-8 validation of one line's bytes, for the txt readers.
///
/// Follows the Unicode Standard's table of well-formed byte sequences (3-7):
/// overlong forms, surrogates (`ED A0…`), code points above U+10FFFF and
/// truncated sequences are invalid; NUL is refused too, since no store text
/// holds it and it usually means UTF-16 read as UTF-8.
enum UTF8Check {
    /// What is wrong with a line, and where. A plain value (no string), so
    /// that lines carrying it copy cheaply.
    struct Problem: Hashable {
        /// The kinds of problem.
        enum Kind: Hashable {
            case nul, invalidByte, overlong, surrogate, aboveUnicode, incomplete
        }

        /// The index of the offending byte in the line.
        var index: Int
        /// What is wrong.
        var kind: Kind
        /// The offending byte.
        var byte: UInt8

        /// A plain description, such as `a NUL byte` or `invalid UTF-8: byte 0xFF`.
        var message: String {
            switch kind {
            case .nul: return "a NUL byte"
            case .invalidByte: return "invalid UTF-8: byte \(UTF8Check.hex(byte))"
            case .overlong: return "invalid UTF-8: an overlong sequence"
            case .surrogate: return "invalid UTF-8: an encoded UTF-16 surrogate"
            case .aboveUnicode: return "invalid UTF-8: a code point above U+10FFFF"
            case .incomplete:
                return "invalid UTF-8: an incomplete sequence starting with \(UTF8Check.hex(byte))"
            }
        }
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101

    /// The first problem in `bytes`, or nil when they are valid UTF-8
    /// without NUL.
    static func firstProblem(in bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time: no high bit and no zero byte.
            if index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & highBits == 0, (word &- lowBits) & ~word & highBits == 0 {
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0x80 {
                if byte == 0 { return Problem(index: index, kind: .nul, byte: byte) }
                index += 1
                continue
            }
            guard let (length, second) = sequence(leadBy: byte) else {
                let kind: Problem.Kind = byte == 0xC0 || byte == 0xC1 ? .overlong : .invalidByte
                return Problem(index: index, kind: kind, byte: byte)
            }
            guard index + 1 < count, second.contains(base[index + 1]) else {
                return Problem(index: index, kind: badSecond(byte, bytes, index), byte: byte)
            }
            for offset in 2..<length {
                guard index + offset < count, base[index + offset] & 0xC0 == 0x80 else {
                    return Problem(index: index, kind: .incomplete, byte: byte)
                }
            }
            index += length
        }
        return nil
    }

    /// The length of the sequence a byte of 0x80 or more starts, and the
    /// range its second byte must be in (the others are 0x80…0xBF), by the
    /// table of well-formed sequences; nil when `lead` starts none.
    static func sequence(leadBy lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: nil
        }
    }

    /// The number of Unicode scalars in valid UTF-8 `bytes`: what a column
    /// counts.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// Why the byte after `lead` is out of its range.
    private static func badSecond(
        _ lead: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, _ index: Int
    ) -> Problem.Kind {
        guard index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 else { return .incomplete }
        switch lead {
        case 0xE0, 0xF0: return .overlong
        case 0xED: return .surrogate
        default: return .aboveUnicode
        }
    }

    fileprivate static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
