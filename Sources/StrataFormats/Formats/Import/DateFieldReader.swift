import Foundation
import StrataCore

/// Reads the date fields of an import that gives a date format
/// (`--date-format`, a mapping's `dateFormat`, an attribute's own), and
/// words the errors of date fields.
///
/// Each format is compiled once into a ``DatePattern``, which reads the
/// common values straight from their bytes; a value it does not settle goes
/// to a `DateFormatter` (POSIX locale, not lenient, the import's time zone),
/// so every value reads as the formatter reads it. A local time the time
/// zone skips (clocks set forward for daylight saving) is an error, as it
/// is for the formatter, but one that names the gap and what the time would
/// be: an import is strict, and moving the time would store an instant the
/// file never said.
final class DateFieldReader {
    /// A format, compiled.
    private final class Format {
        let text: String
        let pattern: DatePattern?
        private let timeZone: TimeZone
        /// Made on the first value the pattern leaves unsettled.
        lazy var formatter: DateFormatter = {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = text
            formatter.isLenient = false
            return formatter
        }()

        init(_ text: String, timeZone: TimeZone) {
            self.text = text
            self.timeZone = timeZone
            pattern = DatePattern(text, timeZone: timeZone)
        }
    }

    private let timeZone: TimeZone
    private var formats: [String: Format] = [:]
    /// The format of the last value: a column's values share one.
    private var last: Format?

    /// A reader of dates in `timeZone` (the zone of values that name none).
    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The instant `bytes` names in `format`, as seconds since 2001.
    ///
    /// - Throws: ``ValueCoercer/Failure`` when the value does not match the
    ///   format, or names a local time the time zone skips.
    func seconds(
        _ bytes: UnsafeBufferPointer<UInt8>, format text: String
    ) throws(ValueCoercer.Failure) -> Double {
        let format: Format
        if let last, last.text == text {
            format = last
        } else if let known = formats[text] {
            format = known
        } else {
            format = Format(text, timeZone: timeZone)
            formats[text] = format
        }
        last = format
        if let pattern = format.pattern {
            switch pattern.read(utf8: bytes) {
            case .seconds(let seconds): return seconds
            case .skipped(let skipped): throw skippedFailure(bytes, skipped)
            case .unsettled: break
            }
        }
        let value = String(decoding: bytes, as: UTF8.self)
        guard let date = format.formatter.date(from: value) else {
            throw ValueCoercer.Failure(
                "'\(ValueCoercer.excerpt(value))' does not match the date format '\(text)'")
        }
        return date.timeIntervalSinceReferenceDate
    }

    /// The error for a local time in a gap of the time zone: when the
    /// clocks moved, and the instant of the time moved on by the gap.
    private func skippedFailure(
        _ bytes: UnsafeBufferPointer<UInt8>, _ skipped: DatePattern.SkippedTime
    ) -> ValueCoercer.Failure {
        let shift = skipped.gapEnd - skipped.gapStart
        let instant = Date(timeIntervalSince1970: Double(skipped.shiftedInstant))
        let cause =
            timeZone.isDaylightSavingTime(for: instant)
            ? "daylight saving time began" : "the zone's offset changed"
        let moved = ISO8601Date.string(
            from: Double(skipped.shiftedInstant - ISO8601Date.referenceOffset))
        return ValueCoercer.Failure(
            "'\(ValueCoercer.excerpt(bytes))' does not exist in \(timeZone.identifier): clocks "
                + "moved from \(Self.clock(skipped.gapStart)) to \(Self.clock(skipped.gapEnd)) "
                + "that day (\(cause)); \(Self.clock(skipped.local + shift)) there would be "
                + (moved ?? "out of range"))
    }

    /// `HH:mm` (`HH:mm:ss` when the seconds are not 0) of a local time in
    /// seconds since 1970.
    private static func clock(_ local: Int64) -> String {
        let second = (local % 86_400 + 86_400) % 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let text = two(second / 3600) + ":" + two(second / 60 % 60)
        return second % 60 == 0 ? text : text + ":" + two(second % 60)
    }

    /// The error for a value that is not ISO 8601 (no format given): with
    /// the `--date-format` its shape suggests, when there is one.
    static func notISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> ValueCoercer.Failure {
        var message =
            "'\(ValueCoercer.excerpt(bytes))' is not an ISO 8601 date (2024-05-01 or 2024-05-01T12:30:00Z)"
        let suggestions = DatePattern.suggestions(for: bytes)
        if let first = suggestions.first {
            message += "; for dates like it, give --date-format \(quoted(first))"
            if suggestions.count > 1 {
                message += " (or \(quoted(suggestions[1])) if the day comes first)"
            }
        }
        return ValueCoercer.Failure(message)
    }

    /// `pattern` quoted for a shell.
    private static func quoted(_ pattern: String) -> String {
        pattern.contains("'") ? "\"\(pattern)\"" : "'\(pattern)'"
    }
}
