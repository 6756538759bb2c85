/// The one UTF-8 validator: every reader of text (CSV, txt, JSON, bundles)
/// checks its bytes here.
///
/// Follows RFC 3629 and the Unicode Standard's table of well-formed byte
/// sequences (3-7): overlong forms (C0, C1, E0 80–9F, F0 80–8F), UTF-16
/// surrogates encoded in UTF-8 (ED A0–BF), code points above U+10FFFF
/// (F4 90 and above, F5–F7), F8–FF and sequences cut short are invalid.
/// NUL is refused too unless the caller allows it: no store text holds it,
/// and it usually means UTF-16 read as UTF-8.
package enum UTF8Validator {
    /// What is wrong with a text, and where. A plain value (no string), so
    /// that lines carrying it copy cheaply.
    package struct Problem: Hashable {
        /// The kinds of problem.
        package enum Kind: Hashable {
            /// A NUL byte.
            case nul
            /// A continuation byte (80–BF) with no lead byte.
            case continuation
            /// An overlong encoding (C0, C1, E0 80–9F, F0 80–8F).
            case overlong
            /// A UTF-16 surrogate encoded in UTF-8 (ED A0–BF).
            case surrogate
            /// A code point above U+10FFFF from F4 (F4 90 and above).
            case aboveUnicode
            /// A lead byte F5–F7, which would start a code point above U+10FFFF.
            case leadAboveUnicode
            /// A byte F8–FF, which never appears in UTF-8.
            case impossibleByte
            /// A sequence cut short: a lead byte without its continuation bytes.
            case incomplete
        }

        /// The index of the byte that starts the bad sequence.
        package var index: Int
        /// What is wrong.
        package var kind: Kind
        /// The byte at ``index``.
        package var byte: UInt8

        /// A plain description, such as `a NUL byte` or `invalid UTF-8: byte
        /// 0xFF`: what the txt readers say.
        package var message: String {
            switch kind {
            case .nul: return "a NUL byte"
            case .continuation, .leadAboveUnicode, .impossibleByte:
                return "invalid UTF-8: byte \(UTF8Validator.hex(byte))"
            case .overlong: return "invalid UTF-8: an overlong sequence"
            case .surrogate: return "invalid UTF-8: an encoded UTF-16 surrogate"
            case .aboveUnicode: return "invalid UTF-8: a code point above U+10FFFF"
            case .incomplete:
                return
                    "invalid UTF-8: an incomplete sequence starting with \(UTF8Validator.hex(byte))"
            }
        }

        /// What is wrong in a few words, such as `invalid UTF-8: a sequence
        /// cut short`: what the CSV reader says.
        package var reason: String {
            switch kind {
            case .nul: return "a NUL byte"
            case .continuation: return "invalid UTF-8: a continuation byte with no lead byte"
            case .overlong: return "invalid UTF-8: an overlong encoding"
            case .surrogate: return "invalid UTF-8: a UTF-16 surrogate encoded in UTF-8"
            case .aboveUnicode, .leadAboveUnicode:
                return "invalid UTF-8: a code point above U+10FFFF"
            case .impossibleByte: return "invalid UTF-8: a byte that never appears in UTF-8"
            case .incomplete: return "invalid UTF-8: a sequence cut short"
            }
        }
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101

    /// The first problem in `bytes` at or after `start`, or nil when they
    /// are valid UTF-8 (without NUL unless `allowingNUL`).
    @inline(__always)
    package static func firstProblem(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, allowingNUL: Bool = false
    ) -> Problem? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = start
        while index < count {
            // ASCII (without NUL unless allowed) a word at a time: no byte
            // from 0x80, none zero (the "has a zero byte" test).
            while count &- index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let stops = allowingNUL ? word : word | ((word &- lowBits) & ~word)
                if stops & highBits != 0 { break }
                index &+= 8
            }
            if index == count { break }
            let lead = base[index]
            if lead < 0x80 {
                if lead == 0, !allowingNUL { return Problem(index: index, kind: .nul, byte: 0) }
                index += 1
                continue
            }
            // The common two-byte sequences (Latin, Greek, Cyrillic…) first.
            if lead &- 0xC2 < 0x1E, index &+ 1 < count, base[index &+ 1] & 0xC0 == 0x80 {
                index &+= 2
                continue
            }
            if let kind = badSequence(leadBy: lead, at: index, in: base, count: count) {
                return Problem(index: index, kind: kind, byte: lead)
            }
            index += lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        }
        return nil
    }

    /// What is wrong with the sequence `lead` starts at `index`, or nil
    /// when it is well formed.
    @inline(__always)
    private static func badSequence(
        leadBy lead: UInt8, at index: Int, in base: UnsafePointer<UInt8>, count: Int
    ) -> Problem.Kind? {
        guard let (length, second) = sequence(leadBy: lead) else {
            switch lead {
            case 0x80...0xBF: return .continuation
            case 0xC0, 0xC1: return .overlong
            case 0xF5...0xF7: return .leadAboveUnicode
            default: return .impossibleByte
            }
        }
        guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return .incomplete }
        if !second.contains(base[index + 1]) {
            switch lead {
            case 0xE0, 0xF0: return .overlong
            case 0xED: return .surrogate
            default: return .aboveUnicode
            }
        }
        for offset in 2..<length
        where index + offset >= count || base[index + offset] & 0xC0 != 0x80 {
            return .incomplete
        }
        return nil
    }

    /// The length of the sequence a byte of 0x80 or more starts, and the
    /// range its second byte must be in (the others are 0x80…0xBF), by the
    /// table of well-formed sequences; nil when `lead` starts none.
    @inline(__always)
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

    /// The length of the well-formed sequence that starts with a byte of
    /// 0x80 or more at `index`, or 0 when none does.
    package static func sequenceLength(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        guard let (length, second) = sequence(leadBy: bytes[index]),
            index + length <= bytes.count, second.contains(bytes[index + 1])
        else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            return 0
        }
        return length
    }

    /// The index of the first byte of `bytes` above 0x7F, or nil when all
    /// of them are ASCII.
    package static func firstNonASCII(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        let count = bytes.count
        while index + 8 <= count,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & highBits == 0
        {
            index += 8
        }
        while index < count {
            if base[index] >= 0x80 { return index }
            index += 1
        }
        return nil
    }

    /// The number of Unicode scalars in valid UTF-8 `bytes`: what a column
    /// counts.
    package static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
