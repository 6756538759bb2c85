/// The check every text reader applies to the bytes of its fields: well-formed
/// UTF-8 (RFC 3629) and no NUL byte.
enum UTF8Validation {
    /// The first place where `bytes` stops being acceptable text, or nil when
    /// all of it is.
    ///
    /// Refused: NUL; a continuation byte with no lead byte; a sequence cut
    /// short; overlong encodings (C0, C1, E0 80–9F, F0 80–8F); UTF-16
    /// surrogates encoded in UTF-8 (ED A0–BF); code points above U+10FFFF
    /// (F4 90 and above, F5–F7); F8–FF.
    ///
    /// - Returns: The offset of the byte that starts the bad sequence, and
    ///   what is wrong with it in plain words.
    static func firstError(in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, reason: String)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            // ASCII without NUL, a word at a time: no byte from 0x80, none
            // zero (the "has a zero byte" test).
            while count &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let zeroes = (word &- 0x0101_0101_0101_0101) & ~word
                if (word | zeroes) & 0x8080_8080_8080_8080 != 0 { break }
                index &+= 8
            }
            if index == count { break }
            let lead = base[index]
            if lead < 0x80 {
                if lead == 0 { return (index, "a NUL byte") }
                index += 1
                continue
            }
            // The common two-byte sequences (Latin, Greek, Cyrillic…) first.
            if lead &- 0xC2 < 0x1E, index &+ 1 < count, base[index &+ 1] & 0xC0 == 0x80 {
                index &+= 2
                continue
            }
            let length: Int
            // The allowed range of the second byte; the others are 80–BF.
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0x80...0xBF:
                return (index, "invalid UTF-8: a continuation byte with no lead byte")
            case 0xC0, 0xC1:
                return (index, "invalid UTF-8: an overlong encoding")
            case 0xC2...0xDF:
                length = 2
            case 0xE0...0xEF:
                length = 3
                if lead == 0xE0 { low = 0xA0 }
                if lead == 0xED { high = 0x9F }
            case 0xF0...0xF4:
                length = 4
                if lead == 0xF0 { low = 0x90 }
                if lead == 0xF4 { high = 0x8F }
            case 0xF5...0xF7:
                return (index, "invalid UTF-8: a code point above U+10FFFF")
            default:
                return (index, "invalid UTF-8: a byte that never appears in UTF-8")
            }
            guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else {
                return (index, "invalid UTF-8: a sequence cut short")
            }
            let second = base[index + 1]
            if second < low {
                return (index, "invalid UTF-8: an overlong encoding")
            }
            if second > high {
                return lead == 0xED
                    ? (index, "invalid UTF-8: a UTF-16 surrogate encoded in UTF-8")
                    : (index, "invalid UTF-8: a code point above U+10FFFF")
            }
            for offset in 2..<length
            where index + offset >= count || base[index + offset] & 0xC0 != 0x80 {
                return (index, "invalid UTF-8: a sequence cut short")
            }
            index += length
        }
        return nil
    }
}
