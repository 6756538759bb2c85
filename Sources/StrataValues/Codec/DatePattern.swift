import Foundation

/// A Unicode date pattern (`yyyy/MM/dd HH:mm`) compiled once to read UTF-8
/// bytes directly: what an import's `--date-format` runs per value.
///
/// It gives exactly the instant a non-lenient `DateFormatter` in the POSIX
/// locale and the same time zone gives, but only for the values it can
/// settle on its own: every other value is ``Reading/unsettled`` and goes to
/// such a formatter, so results never differ (a test compares the two on
/// many values). Settled here: ASCII digits in the pattern's widths, the
/// English month names as written (`Jan`, `January`), `AM`/`PM`, and
/// Gregorian dates from 1583 on. A pattern with fields beyond these is not
/// compiled at all (``init(_:timeZone:)`` returns nil).
///
/// Supported fields: `y`/`yyy`/`yyyy` (four digits), `M`/`MM`, `MMM`/`MMMM`,
/// `d`/`dd`, `H`/`HH`, `h`/`hh` with `a`, `m`/`mm`, `s`/`ss`, `S`… (a
/// fraction of a second, read to milliseconds as the formatter reads it),
/// `Z`/`ZZ`/`ZZZ` (`+0130`), `XXX` (`Z` or `+01:30`), `xxx` (`+01:30`),
/// literal characters and quoted literals (`'T'`, `''` for a quote). The
/// pattern needs a year, a month and a day.
///
/// A local time is turned into an instant with the time zone's rules (cached
/// per local day, so DST changes cost lookups only on the days they
/// happen). A repeated local time (clocks set back) is the later instant,
/// as the formatter takes it; a local time that does not exist (clocks set
/// forward over it) is ``Reading/skipped(_:)``, which the formatter refuses
/// too: an importer says what the time would be instead.
///
/// ```swift
/// if let pattern = DatePattern("yyyy/MM/dd HH:mm", timeZone: .gmt) {
///     var text = "2010/01/01 00:30"
///     let reading = text.withUTF8 { pattern.read(utf8: $0) }
///     print(reading)  // seconds(283998600.0): 2010-01-01T00:30:00Z
/// }
/// ```
package final class DatePattern {
    /// What reading a value gave.
    package enum Reading: Equatable {
        /// The instant, as seconds since 2001-01-01T00:00:00Z.
        case seconds(Double)
        /// A local time the time zone skips (a daylight-saving gap).
        case skipped(SkippedTime)
        /// Not settled here: the value may still be one a formatter reads.
        case unsettled
    }

    /// A local time inside a gap of a time zone: the clocks moved from
    /// ``gapStart`` to ``gapEnd`` (both local, seconds since 1970 as if the
    /// zone were UTC), so ``local`` never happened there.
    package struct SkippedTime: Equatable, Sendable {
        /// The local time read.
        package let local: Int64
        /// The local time at which the clocks moved forward.
        package let gapStart: Int64
        /// The local time they moved to.
        package let gapEnd: Int64
        /// The instant (seconds since 1970) of the local time moved forward
        /// by the gap: `02:30` in a gap from `02:00` to `03:00` is `03:30`.
        package let shiftedInstant: Int64
    }

    /// The pattern as written.
    package let pattern: String
    private let elements: [Element]
    private let zone: ZoneOffsets

    /// One piece of a compiled pattern.
    private enum Element {
        case literal([UInt8])
        /// A numeric field of `minimum`…`maximum` ASCII digits.
        case number(Field, minimum: Int, maximum: Int)
        case monthName(full: Bool)
        /// A fraction of a second written with `digits` digits.
        case fraction(digits: Int)
        case dayPeriod
        case offset(OffsetStyle)

        var isNumeric: Bool {
            switch self {
            case .number, .fraction: true
            default: false
            }
        }
    }

    private enum Field: Hashable {
        case year, month, day, hour, hour12, minute, second
    }

    private enum OffsetStyle {
        /// `+0130` (`Z`, `ZZ`, `ZZZ`).
        case basic
        /// `+01:30` or `Z` (`XXX`).
        case extendedOrZ
        /// `+01:30` (`xxx`).
        case extended
    }

    /// Compiles `pattern` for dates in `timeZone`, or returns nil when the
    /// pattern has a field this parser does not read (the formatter reads
    /// every value then).
    package init?(_ pattern: String, timeZone: TimeZone) {
        guard let elements = Self.compile(Array(pattern.utf8)) else { return nil }
        self.pattern = pattern
        self.elements = elements
        self.zone = ZoneOffsets(timeZone)
    }

    // MARK: - Compiling

    private static func compile(_ bytes: [UInt8]) -> [Element]? {
        var elements: [Element] = []
        var seen = Set<UInt8>()
        var index = 0
        func appendLiteral(_ byte: UInt8) {
            if case .literal(var text)? = elements.last {
                text.append(byte)
                elements[elements.count - 1] = .literal(text)
            } else {
                elements.append(.literal([byte]))
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                // '' is a quote; 'text' is literal text, '' inside it a quote.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                    appendLiteral(byte)
                    index += 2
                    continue
                }
                index += 1
                while true {
                    guard index < bytes.count else { return nil }  // Unterminated.
                    if bytes[index] == UInt8(ascii: "'") {
                        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                            appendLiteral(bytes[index])
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    appendLiteral(bytes[index])
                    index += 1
                }
                continue
            }
            guard (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") else {
                appendLiteral(byte)
                index += 1
                continue
            }
            var count = 1
            while index + count < bytes.count, bytes[index + count] == byte { count += 1 }
            index += count
            // A letter twice (`yyyy … yyyy`) leaves the formatter to decide.
            guard seen.insert(byte).inserted, let element = field(byte, count: count) else {
                return nil
            }
            elements.append(element)
        }
        // Year, month and day make the date; `a` only with `h`, never `H`.
        guard seen.contains(UInt8(ascii: "y")), seen.contains(UInt8(ascii: "M")),
            seen.contains(UInt8(ascii: "d")),
            !seen.contains(UInt8(ascii: "a")) || seen.contains(UInt8(ascii: "h")),
            !(seen.contains(UInt8(ascii: "h")) && seen.contains(UInt8(ascii: "H")))
        else { return nil }
        // Numeric fields that abut (`yyyyMMdd`) are read by their widths,
        // which must then be fixed.
        for (position, element) in elements.enumerated().dropLast()
        where element.isNumeric && elements[position + 1].isNumeric {
            if case .number(_, let minimum, let maximum) = element, minimum != maximum {
                return nil
            }
        }
        // A field not followed by another number takes one or two digits,
        // as the formatter does (`2010/1/5` for `yyyy/MM/dd`).
        for position in elements.indices {
            guard case .number(let field, let minimum, 2) = elements[position], minimum == 2,
                position + 1 == elements.count || !elements[position + 1].isNumeric
            else { continue }
            elements[position] = .number(field, minimum: 1, maximum: 2)
        }
        return elements
    }

    private static func field(_ letter: UInt8, count: Int) -> Element? {
        switch (letter, count) {
        case (UInt8(ascii: "y"), 1), (UInt8(ascii: "y"), 3), (UInt8(ascii: "y"), 4):
            // Two-digit years depend on the century the formatter guesses.
            return .number(.year, minimum: 4, maximum: 4)
        case (UInt8(ascii: "M"), 1...2): return .number(.month, minimum: count, maximum: 2)
        case (UInt8(ascii: "M"), 3...4): return .monthName(full: count == 4)
        case (UInt8(ascii: "d"), 1...2): return .number(.day, minimum: count, maximum: 2)
        case (UInt8(ascii: "H"), 1...2): return .number(.hour, minimum: count, maximum: 2)
        case (UInt8(ascii: "h"), 1...2): return .number(.hour12, minimum: count, maximum: 2)
        case (UInt8(ascii: "m"), 1...2): return .number(.minute, minimum: count, maximum: 2)
        case (UInt8(ascii: "s"), 1...2): return .number(.second, minimum: count, maximum: 2)
        case (UInt8(ascii: "S"), 1...9): return .fraction(digits: count)
        case (UInt8(ascii: "a"), 1): return .dayPeriod
        case (UInt8(ascii: "Z"), 1...3): return .offset(.basic)
        case (UInt8(ascii: "X"), 3): return .offset(.extendedOrZ)
        case (UInt8(ascii: "x"), 3): return .offset(.extended)
        default: return nil
        }
    }

    // MARK: - Reading

    private static let monthNames: [[UInt8]] = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ].map { Array($0.utf8) }
    private static let shortMonthNames = monthNames.map { Array($0.prefix(3)) }
    private static let morning = Array("AM".utf8)
    private static let afternoon = Array("PM".utf8)

    /// Reads `bytes` as a date of the pattern.
    package func read(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var cursor = 0
        var year: Int64 = 0
        var month: Int64 = 0
        var day: Int64 = 0
        var hour: Int64 = 0
        var hour12: Int64 = -1
        var isAfternoon = false
        var minute: Int64 = 0
        var second: Int64 = 0
        var millisecond: Int64 = 0
        var offset: Int64?
        func isDigit(_ at: Int) -> Bool {
            at < bytes.count && bytes[at] &- UInt8(ascii: "0") < 10
        }
        func digits(_ count: Int) -> Int64? {
            guard cursor + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for at in cursor..<cursor + count {
                let digit = bytes[at] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            cursor += count
            return value
        }
        func matches(_ text: [UInt8]) -> Bool {
            guard cursor + text.count <= bytes.count else { return false }
            for (at, byte) in text.enumerated() where bytes[cursor + at] != byte { return false }
            cursor += text.count
            return true
        }
        for (position, element) in elements.enumerated() {
            let abuts = position + 1 < elements.count && elements[position + 1].isNumeric
            switch element {
            case .literal(let text):
                guard matches(text) else { return .unsettled }
            case .number(let field, let minimum, let maximum):
                var count = 0
                while count < maximum, isDigit(cursor + count) { count += 1 }
                // The formatter would read more digits than the width.
                guard count >= minimum, abuts || !isDigit(cursor + count),
                    let value = digits(count)
                else { return .unsettled }
                switch field {
                case .year: year = value
                case .month: month = value
                case .day: day = value
                case .hour: hour = value
                case .hour12: hour12 = value
                case .minute: minute = value
                case .second: second = value
                }
            case .fraction(let count):
                guard abuts || !isDigit(cursor + count), var value = digits(count) else {
                    return .unsettled
                }
                // Milliseconds, as the formatter keeps them: digits past the
                // third are dropped.
                var scale = count
                while scale < 3 {
                    value *= 10
                    scale += 1
                }
                while scale > 3 {
                    value /= 10
                    scale -= 1
                }
                millisecond = value
            case .monthName(let full):
                var found = false
                for (number, name) in (full ? Self.monthNames : Self.shortMonthNames).enumerated() {
                    if matches(name) {
                        month = Int64(number + 1)
                        found = true
                        break
                    }
                }
                // "Jan" of "January": the formatter takes the longer name.
                guard found, cursor >= bytes.count || !Self.isLetter(bytes[cursor]) else {
                    return .unsettled
                }
            case .dayPeriod:
                if matches(Self.morning) {
                    isAfternoon = false
                } else if matches(Self.afternoon) {
                    isAfternoon = true
                } else {
                    return .unsettled
                }
            case .offset(let style):
                guard let value = readOffset(style, bytes, &cursor) else { return .unsettled }
                offset = value
            }
        }
        guard cursor == bytes.count else { return .unsettled }
        if hour12 >= 0 {
            guard (1...12).contains(hour12) else { return .unsettled }
            hour = hour12 % 12 + (isAfternoon ? 12 : 0)
        }
        // Julian dates before the Gregorian reform, and out-of-range fields,
        // are the formatter's to judge.
        guard year >= 1583, (1...12).contains(month),
            (1...ISO8601Date.daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return .unsettled }
        let local =
            ISO8601Date.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600
            + minute * 60 + second
        let instant: Int64
        if let offset {
            instant = local - offset
        } else {
            switch zone.instant(forLocal: local) {
            case .instant(let found): instant = found
            case .skipped(let skipped): return .skipped(skipped)
            case .unknown: return .unsettled
            }
        }
        // The formatter's arithmetic: milliseconds since 1970, then seconds
        // since 2001, so fractions round as its do.
        return .seconds(
            Double(instant * 1000 + millisecond) / 1000 - Double(ISO8601Date.referenceOffset))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// An offset from UTC in seconds, east positive.
    private func readOffset(
        _ style: OffsetStyle, _ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout Int
    ) -> Int64? {
        guard cursor < bytes.count else { return nil }
        if style == .extendedOrZ, bytes[cursor] == UInt8(ascii: "Z") {
            cursor += 1
            return 0
        }
        let sign: Int64
        switch bytes[cursor] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        let extended = style != .basic
        let length = extended ? 6 : 5
        guard cursor + length <= bytes.count else { return nil }
        func twoDigits(_ start: Int) -> Int64? {
            let high = bytes[start] &- UInt8(ascii: "0")
            let low = bytes[start + 1] &- UInt8(ascii: "0")
            return high < 10 && low < 10 ? Int64(high) * 10 + Int64(low) : nil
        }
        guard let hours = twoDigits(cursor + 1),
            !extended || bytes[cursor + 3] == UInt8(ascii: ":"),
            let minutes = twoDigits(cursor + (extended ? 4 : 3)), hours <= 18, minutes < 60
        else { return nil }
        cursor += length
        if cursor < bytes.count, bytes[cursor] &- UInt8(ascii: "0") < 10 { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
