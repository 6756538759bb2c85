// MARK: - UTF-8 validation

extension JSONReader {
    /// The index of the first byte at or after `start` that is not part of
    /// valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
    /// above U+10FFFF), or nil when all of it is valid.
    static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        let count = bytes.count
        while index < count {
            // ASCII eight bytes at a time: most text is all ASCII.
            while index + 8 <= count,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < count else { return index }
                let byte = bytes[index + offset]
                let (lower, upper) = offset == 1 ? (low, high) : (0x80, 0xBF)
                if byte < lower || byte > upper { return index }
            }
            index += length
        }
        return nil
    }

    /// The index of the first byte of `bytes` above 0x7F, or nil when all
    /// of them are ASCII.
    static func firstNonASCII(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        let count = bytes.count
        while index + 8 <= count,
            UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                & 0x8080_8080_8080_8080 == 0
        {
            index += 8
        }
        while index < count {
            if base[index] >= 0x80 { return index }
            index += 1
        }
        return nil
    }
}
