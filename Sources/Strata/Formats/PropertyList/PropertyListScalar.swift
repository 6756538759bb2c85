import Foundation

/// The text forms of a property list's scalar values, read from bytes and
/// written back, as Apple's property-list parser and writer spell them.
///
/// Readers call these on the bytes between a tag and its end tag, so a
/// value is converted without making a `String` of it first.
enum PropertyListScalar {
    /// What reading a number found.
    enum Number {
        /// A value.
        case value(ImportValue)
        /// Text that is not a number of the kind asked for.
        case malformed
        /// A well-formed integer outside −2⁶³…2⁶⁴−1.
        case outOfRange
    }

    // MARK: - Integers

    /// An `<integer>`: optional white space around an optional sign and
    /// decimal digits, or `0x` and hexadecimal digits (Apple accepts both).
    ///
    /// - Returns: `.integer` from −2⁶³ to 2⁶³−1, `.unsignedInteger` above
    ///   that up to 2⁶⁴−1.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Number {
        var index = bytes.startIndex
        var end = bytes.endIndex
        trim(bytes, &index, &end)
        var isNegative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var radix: UInt64 = 10
        if end - index > 2, bytes[index] == UInt8(ascii: "0"),
            bytes[index + 1] | 0x20 == UInt8(ascii: "x")
        {
            radix = 16
            index += 2
        }
        guard index < end else { return .malformed }
        var magnitude: UInt64 = 0
        var overflowed = false
        while index < end {
            guard let digit = digitValue(bytes[index]), UInt64(digit) < radix else {
                return .malformed
            }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (plus, overflow2) = times.addingReportingOverflow(UInt64(digit))
            overflowed = overflowed || overflow1 || overflow2
            magnitude = plus
            index += 1
        }
        if overflowed { return .outOfRange }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .outOfRange }
            return .value(.integer(Int64(truncatingIfNeeded: 0 &- magnitude)))
        }
        if magnitude <= UInt64(Int64.max) { return .value(.integer(Int64(magnitude))) }
        return .value(.unsignedInteger(magnitude))
    }

    /// The value of a decimal or hexadecimal digit.
    private static func digitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    // MARK: - Reals

    /// A `<real>`: a decimal number with optional fraction and exponent, or
    /// one of the spellings Apple reads for the special values (`nan`,
    /// `inf`, `infinity`, each with an optional sign, in any case).
    static func real(_ bytes: UnsafeBufferPointer<UInt8>) -> Number {
        var index = bytes.startIndex
        var end = bytes.endIndex
        trim(bytes, &index, &end)
        guard index < end, end - index <= 400 else { return .malformed }
        let text = String(
            decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .value(.real(.nan))
        case "inf", "+inf", "infinity", "+infinity": return .value(.real(.infinity))
        case "-inf", "-infinity": return .value(.real(-.infinity))
        default: break
        }
        // Swift's parser also takes hexadecimal floats and other spellings
        // Apple does not; check the decimal grammar first.
        guard isDecimal(UnsafeBufferPointer(rebasing: bytes[index..<end])),
            let value = Double(text)
        else { return .malformed }
        return .value(.real(value))
    }

    /// Whether `bytes` are `[+-]? digits [. digits] [(e|E) [+-] digits]`,
    /// with digits on at least one side of the point.
    private static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = bytes.startIndex
        func digits() -> Int {
            let start = index
            while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }
        func skipSign() {
            if index < bytes.endIndex, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        }
        skipSign()
        var mantissa = digits()
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            skipSign()
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }

    /// The text Apple writes for a real: `nan`, `+infinity`, `-infinity`,
    /// or the shortest decimal that reads back as the same value.
    static func text(of real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return "\(real)"
    }

    // MARK: - Dates

    /// A `<date>`: `YYYY-MM-DDTHH:MM:SSZ` in UTC, as Apple writes it, with
    /// optional fractional seconds and white space around.
    ///
    /// - Returns: The date, or nil when the text is not such a date or
    ///   names a day or time that does not exist.
    static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = bytes.startIndex
        var end = bytes.endIndex
        trim(bytes, &index, &end)
        func number(_ count: Int) -> Int? {
            guard end - index >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                guard let digit = digitValue(bytes[index]), digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
            }
            return value
        }
        func literal(_ character: Unicode.Scalar) -> Bool {
            guard index < end, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), literal("-"), let month = number(2), literal("-"),
            let day = number(2), literal("T"), let hour = number(2), literal(":"),
            let minute = number(2), literal(":"), let second = number(2)
        else { return nil }
        var fraction = 0.0
        if literal(".") {
            var scale = 0.1
            let start = index
            while index < end, let digit = digitValue(bytes[index]), digit < 10 {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard literal("Z"), index == end else { return nil }
        guard (1...12).contains(month),
            (1...Int(ISO8601Date.daysIn(month: Int64(month), year: Int64(year)))).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = Int(
            ISO8601Date.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day)))
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, whole seconds rounded down, as Apple writes
    /// a date in an XML property list.
    static func text(of date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e14 else { return "0001-01-01T00:00:00Z" }
        let total = Int(interval.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        let civil = ISO8601Date.civilDate(daysSince1970: Int64(days))
        let (year, month, day) = (Int(civil.0), Int(civil.1), Int(civil.2))
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            let sign = value < 0 ? "-" : ""
            return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(seconds / 3_600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))Z"
    }

    // MARK: - Data

    /// What each byte means in base64: a 6-bit value, white space, padding
    /// or nothing valid.
    private static let base64Table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            .utf8.enumerated()
        {
            table[Int(byte)] = UInt8(value)
        }
        for byte in [0x20, 0x09, 0x0A, 0x0D] { table[byte] = whitespace }
        table[Int(UInt8(ascii: "="))] = padding
        return table
    }()
    private static let invalid: UInt8 = 0xFF
    private static let whitespace: UInt8 = 0xFE
    private static let padding: UInt8 = 0xFD

    /// The bytes of a `<data>` element's base64 text, which may hold white
    /// space and line breaks anywhere; padding may be left out.
    ///
    /// - Returns: The bytes, or nil for a character outside base64, text
    ///   after the padding, or a length no encoder produces.
    static func data(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var output = Data()
        output.reserveCapacity(bytes.count / 4 * 3 + 3)
        var group: UInt32 = 0
        var count = 0
        var paddingCount = 0
        for byte in bytes {
            let value = base64Table[Int(byte)]
            switch value {
            case whitespace: continue
            case padding: paddingCount += 1
            case invalid: return nil
            default:
                guard paddingCount == 0 else { return nil }
                group = group << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output.append(UInt8(truncatingIfNeeded: group >> 16))
                    output.append(UInt8(truncatingIfNeeded: group >> 8))
                    output.append(UInt8(truncatingIfNeeded: group))
                    group = 0
                    count = 0
                }
            }
        }
        // A last group of 2 or 3 characters holds 1 or 2 bytes; padding
        // fills it to 4 and may not be longer.
        switch count {
        case 0:
            guard paddingCount == 0 else { return nil }
        case 2:
            guard paddingCount == 0 || paddingCount == 2 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            guard paddingCount <= 1 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            return nil
        }
        return output
    }

    // MARK: - White space

    /// Whether `bytes` are all XML white space (space, tab, CR, LF).
    static func isWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// Moves `start` and `end` inwards past XML white space.
    private static func trim(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int
    ) {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    }
}
