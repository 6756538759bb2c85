/// Converts between ISO-8601 text and Core Data's date values (seconds since
/// 2001-01-01T00:00:00Z).
///
/// The one ISO 8601 grammar: every reader of dates in text (imports, bundles,
/// property lists, Day One, predicates, mapping expressions, schema
/// defaults) parses here, and every writer formats here.
///
/// Written by hand rather than with a date formatter so that parsing is exact
/// and strict, and formatting can promise to parse back to the same value.
/// Accepted: `2001-01-01`, `2001-01-01T12:30:00Z`, `…T12:30:00.25+02:00`
/// (a fraction of any length).
public enum ISO8601Date {
    /// Seconds from 1970-01-01 to 2001-01-01.
    package static let referenceOffset: Int64 = 978_307_200

    /// The date `text` names, as seconds since 2001, or nil when it is not a
    /// complete ISO-8601 date or date-time with a time zone.
    public static func seconds(from text: String) -> Double? {
        var text = text
        return text.withUTF8 { seconds(utf8: $0) }
    }

    /// Like ``seconds(from:)``, for UTF-8 bytes (an imported field read in
    /// place), without making a string. With `utcDateTimeOnly`, only the
    /// form Apple writes in property lists is taken: a date-time ending in
    /// `Z` (no date alone, no offset).
    package static func seconds(
        utf8 bytes: UnsafeBufferPointer<UInt8>, utcDateTimeOnly: Bool = false
    ) -> Double? {
        var cursor = 0
        func number(_ digits: Int) -> Int64? {
            guard cursor + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in cursor..<(cursor + digits) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            cursor += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard cursor < bytes.count, bytes[cursor] == character else { return false }
            cursor += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2), (1...12).contains(month),
            (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        if cursor == bytes.count, !utcDateTimeOnly {
            return Double(days * 86_400 - referenceOffset)
        }
        guard expect(UInt8(ascii: "T")), let hour = number(2),
            expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2), hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if expect(UInt8(ascii: ".")) {
            // Digits over a power of ten: both exact up to 15 digits, so the
            // quotient is the correctly rounded value of the decimal
            // fraction. Digits after the 18th (below 10^-18 s) are read but
            // change nothing a double can hold.
            var numerator: Int64 = 0
            var denominator: Int64 = 1
            let start = cursor
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"),
                bytes[cursor] <= UInt8(ascii: "9")
            {
                if cursor - start < 18 {
                    numerator = numerator * 10 + Int64(bytes[cursor] - UInt8(ascii: "0"))
                    denominator *= 10
                }
                cursor += 1
            }
            guard cursor > start else { return nil }
            fraction = Double(numerator) / Double(denominator)
        }
        var offset: Int64 = 0
        if !expect(UInt8(ascii: "Z")) {
            guard !utcDateTimeOnly else { return nil }
            let sign: Int64
            if expect(UInt8(ascii: "+")) {
                sign = 1
            } else if expect(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHours = number(2), expect(UInt8(ascii: ":")),
                let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard cursor == bytes.count else { return nil }
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset - referenceOffset
        return Double(whole) + fraction
    }

    /// `seconds` (since 2001) as UTC ISO-8601 text that ``seconds(from:)``
    /// reads back as exactly `seconds`, or nil when no such text exists
    /// (a fraction finer than nanoseconds, a year outside 0000–9999).
    public static func string(from seconds: Double) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        guard append(seconds, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text ``string(from:)`` gives for `seconds` to `bytes`,
    /// built in place (no strings); false, with nothing appended, when
    /// there is no such text.
    package static func append(_ seconds: Double, to bytes: inout [UInt8]) -> Bool {
        guard seconds.isFinite, abs(seconds) < 2e11 else { return false }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        let start = bytes.count
        let year = appendDateTime(unixSeconds: Int64(whole) + referenceOffset, to: &bytes)
        guard (0...9999).contains(year) else {
            bytes.removeSubrange(start...)
            return false
        }
        if fraction == 0 {
            bytes.append(UInt8(ascii: "Z"))
            return true
        }
        let stem = bytes.count
        for width in [3, 6, 9] {
            let scale = Int64(pow10(width))
            let scaled = Int64((fraction * Double(scale)).rounded())
            guard scaled > 0, scaled < scale else { continue }
            bytes.removeSubrange(stem...)
            bytes.append(UInt8(ascii: "."))
            appendDigits(UInt64(scaled), width: width, to: &bytes)
            bytes.append(UInt8(ascii: "Z"))
            let readsBack = bytes.withUnsafeBufferPointer {
                Self.seconds(utf8: UnsafeBufferPointer(rebasing: $0[start...])) == seconds
            }
            if readsBack { return true }
        }
        bytes.removeSubrange(start...)
        return false
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS` (no zone) for whole seconds since
    /// 1970 in UTC: the part every writer of ISO 8601 text shares. A year
    /// outside 0000–9999 takes more digits, or a minus sign.
    ///
    /// - Returns: The year written.
    @discardableResult
    package static func appendDateTime(unixSeconds unix: Int64, to bytes: inout [UInt8]) -> Int64 {
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(year.magnitude, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendTwoDigits(secondOfDay / 3600, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay / 60 % 60, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(secondOfDay % 60, to: &bytes)
        return year
    }

    @inline(__always)
    private static func appendTwoDigits(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }

    /// The decimal digits of `value`, zero-padded to at least `width`,
    /// built in place.
    private static func appendDigits(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        var count = 1
        while count < width || value / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian)

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given date (negative before it).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        // Count years from March so that the leap day falls at the end of a year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysSince1970(year:month:day:)``.
    static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra =
            (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pow10(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { value, _ in value * 10 }
    }
}
