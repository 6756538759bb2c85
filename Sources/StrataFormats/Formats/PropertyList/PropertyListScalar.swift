import Foundation
import StrataCore

/// The text forms of a property list's scalar values, read from bytes and
/// written back, as Apple's property-list parser and writer spell them.
///
/// Readers call these on the bytes between a tag and its end tag, so a
/// value is converted without making a `String` of it first.
enum PropertyListScalar {
    /// What reading a number found.
    enum Number {
        /// A value.
        case value(RecordValue)
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
    package static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Number {
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
    package static func real(_ bytes: UnsafeBufferPointer<UInt8>) -> Number {
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
    package static func text(of real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return "\(real)"
    }

    // MARK: - Dates

    /// A `<date>`: `YYYY-MM-DDTHH:MM:SSZ` in UTC, as Apple writes it, with
    /// optional fractional seconds and white space around; read by the one
    /// ISO 8601 grammar (``ISO8601Date``) in its strict form.
    ///
    /// - Returns: The date, or nil when the text is not such a date or
    ///   names a day or time that does not exist.
    package static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = bytes.startIndex
        var end = bytes.endIndex
        trim(bytes, &index, &end)
        return ISO8601Date.seconds(
            utf8: UnsafeBufferPointer(rebasing: bytes[index..<end]), utcDateTimeOnly: true
        ).map(Date.init(timeIntervalSinceReferenceDate:))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, whole seconds rounded down, as Apple writes
    /// a date in an XML property list.
    package static func text(of date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e14 else { return "0001-01-01T00:00:00Z" }
        var bytes: [UInt8] = []
        ISO8601Date.appendDateTime(unixSeconds: Int64(interval.rounded(.down)), to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Data

    /// The bytes of a `<data>` element's base64 text, which may hold white
    /// space and line breaks anywhere; padding may be left out. Decoded by
    /// Foundation; the padding is checked here, as Foundation takes a
    /// character after `=` (`QQ=A`) or padding alone (`====`).
    ///
    /// - Returns: The bytes, or nil for a character outside base64, text
    ///   after the padding, or a length no encoder produces.
    package static func data(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count + 2)
        for byte in bytes where !isSpace(byte) { text.append(byte) }
        let equals = UInt8(ascii: "=")
        var digits = text.count
        while digits > 0, text[digits - 1] == equals { digits -= 1 }
        let padding = text.count - digits
        guard padding <= 2, !text[..<digits].contains(equals), digits % 4 != 1,
            padding == 0 || digits % 4 + padding == 4
        else { return nil }
        // Foundation wants the padding that may be left out.
        if padding == 0, digits % 4 != 0 {
            text += repeatElement(equals, count: 4 - digits % 4)
        }
        return Data(base64Encoded: Data(text))
    }

    // MARK: - White space

    /// Whether `bytes` are all XML white space (space, tab, CR, LF).
    static func isWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy(isSpace)
    }

    /// Whether `byte` is XML white space.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Moves `start` and `end` inwards past XML white space.
    private static func trim(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int
    ) {
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    }
}
