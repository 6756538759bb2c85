import StrataValues

// MARK: - Strings and numbers

extension JSONParser {
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        let start = index
        // Fast path: most strings have no escapes and become one String directly.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(
                    UnsafeBufferPointer(rebasing: bytes[start..<index]), quote)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start, quote) }
            if byte < 0x20 { throw error("expected '\"' before control character in string") }
            index += 1
        }
        throw error("unterminated string: expected '\"' before end of input", at: quote)
    }

    mutating func makeString(
        _ utf8: UnsafeBufferPointer<UInt8>, _ quote: Int
    ) throws(JSONSyntaxError) -> String {
        // Validated here rather than by String(validating:as:), whose generic
        // path costs a quarter of the time of parsing a JSON-lines file.
        if UTF8Validator.firstProblem(in: utf8, allowingNUL: true) != nil {
            throw error("string is not valid UTF-8", at: quote, kind: .encoding)
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    mutating func parseEscapedString(
        from start: Int, _ quote: Int
    ) throws(JSONSyntaxError) -> String {
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let result = buffer.withUnsafeBufferPointer { utf8 in
                    Result { () throws(JSONSyntaxError) in try makeString(utf8, quote) }
                }
                return try result.get()
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer)
            case 0..<0x20:
                throw error("expected '\"' before control character in string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string: expected '\"' before end of input", at: quote)
    }

    mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONSyntaxError) {
        let escape = index
        index += 1
        guard index < bytes.count else {
            throw error("expected an escape character after '\\', found end of input")
        }
        let simple: UInt8?
        switch bytes[index] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw error(
                "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after '\\', found \(found())"
            )
        }
        if let simple {
            buffer.append(simple)
            index += 1
            return
        }
        index += 1
        var scalar = try parseHex4()
        if scalar >= 0xD800 && scalar < 0xDC00 {
            // A high surrogate must be followed by an escaped low surrogate.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error(
                    "unpaired UTF-16 surrogate: expected \\uDC00-\\uDFFF next", at: escape,
                    kind: .encoding)
            }
            index += 2
            let low = try parseHex4()
            guard low >= 0xDC00 && low < 0xE000 else {
                throw error(
                    "unpaired UTF-16 surrogate: expected \\uDC00-\\uDFFF next", at: escape,
                    kind: .encoding)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00 && scalar < 0xE000 {
            throw error(
                "unpaired UTF-16 surrogate: low surrogate without a high one", at: escape,
                kind: .encoding)
        }
        guard let unicode = Unicode.Scalar(scalar) else {
            throw error("escape is not a Unicode scalar", at: escape)
        }
        buffer.append(contentsOf: UTF8.encode(unicode).map { Array($0) } ?? [])
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw error("expected 4 hexadecimal digits after '\\u', found end of input")
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("expected 4 hexadecimal digits after '\\u', found \(found())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0")
            && bytes[offset] <= UInt8(ascii: "9")
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> RecordValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw error("expected a digit after '-', found \(found())") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("leading zeros are not allowed in numbers") }
        } else {
            while isDigit(index) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else {
                throw error("expected a digit after '.', found \(found())")
            }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count
                && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
            {
                index += 1
            }
            guard isDigit(index) else {
                throw error("expected a digit in the exponent, found \(found())")
            }
            while isDigit(index) { index += 1 }
        }
        let literal = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, let integer = integerValue(literal) { return .integer(integer) }
        // Integers beyond 64 bits fall back to a real, as most JSON readers do.
        guard let real = Double(String(decoding: literal, as: UTF8.self)), real.isFinite else {
            throw error("number out of range", at: start, kind: .range)
        }
        return .real(real)
    }

    /// The value of an integer literal, or nil when it overflows Int64.
    func integerValue(_ literal: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = literal.first == UInt8(ascii: "-")
        // Accumulate downwards so that Int64.min is representable.
        var value: Int64 = 0
        for byte in literal.dropFirst(negative ? 1 : 0) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(
                Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = next
        }
        if negative { return value }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }
}
