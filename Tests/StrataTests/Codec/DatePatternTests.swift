import Foundation
import Testing

@testable import StrataValues

/// Issue 28, points 7 and 2: `--date-format` read by a compiled pattern
/// that agrees with `DateFormatter` on every value it settles, and a local
/// time in a daylight-saving gap reported as such.
struct DatePatternTests {
    /// What `DateFormatter` (POSIX, not lenient) reads: the reference.
    private static func formatter(_ pattern: String, _ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        formatter.isLenient = false
        return formatter
    }

    private static func read(_ pattern: DatePattern, _ text: String) -> DatePattern.Reading {
        var text = text
        return text.withUTF8 { pattern.read(utf8: $0) }
    }

    /// Compares the pattern with the formatter on `values`: a settled value
    /// reads the same instant to the bit, a skipped one is refused by the
    /// formatter too. Returns how many the pattern settled.
    private static func compare(
        _ pattern: String, zone name: String, _ values: [String]
    ) throws -> Int {
        let zone = try #require(TimeZone(identifier: name))
        let compiled = try #require(DatePattern(pattern, timeZone: zone), "\(pattern)")
        let reference = formatter(pattern, zone)
        var settled = 0
        for value in values {
            let expected = reference.date(from: value)?.timeIntervalSinceReferenceDate
            switch read(compiled, value) {
            case .seconds(let seconds):
                settled += 1
                #expect(seconds == expected, "\(pattern) \(name) '\(value)'")
            case .skipped:
                #expect(expected == nil, "\(pattern) \(name) '\(value)' is no gap")
            case .unsettled:
                break
            }
        }
        return settled
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// Dates and times around the DST changes of 2010 in Los Angeles
    /// (March 14, November 7) and Berlin (March 28, October 31), leap days
    /// and impossible days, across years from 1600 to 2100.
    private static let grid: [String] = {
        var values: [String] = []
        for year in [1600, 1883, 1918, 1970, 2000, 2010, 2011, 2012, 2100] {
            for month in [1, 2, 3, 10, 11, 13] {
                for day in [1, 7, 14, 28, 29, 30, 31] {
                    for hour in [0, 1, 2, 3, 12, 23, 24] {
                        for minute in [0, 30, 59] {
                            values.append(
                                "\(year)/\(two(month))/\(two(day)) \(two(hour)):\(two(minute))")
                        }
                    }
                }
            }
        }
        return values
    }()

    @Test func theCompiledDatePatternAgreesWithDateFormatter() throws {
        for zone in ["UTC", "America/Los_Angeles", "Europe/Berlin"] {
            let settled = try Self.compare("yyyy/MM/dd HH:mm", zone: zone, Self.grid)
            // Every possible date of the grid (all but month 13, the 30th
            // and 31st that do not exist, hour 24 and the gaps) is settled.
            #expect(settled > Self.grid.count / 2, "\(zone): \(settled)")
            let dates = Array(Set(Self.grid.map { String($0.prefix(10)) })).sorted()
            #expect(try Self.compare("yyyy/MM/dd", zone: zone, dates) > dates.count / 2)
            #expect(
                try Self.compare(
                    "yyyyMMdd", zone: zone, dates.map { $0.replacingOccurrences(of: "/", with: "") }
                )
                    > dates.count / 2)
        }
    }

    @Test func theCompiledDatePatternAgreesOnFieldsOfEveryKind() throws {
        let times = Self.grid.filter { $0.hasPrefix("2010/03/14") || $0.hasPrefix("2010/11/07") }
        let dashed = times.map {
            $0.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: " ", with: "T")
        }
        for zone in ["UTC", "America/Los_Angeles", "Europe/Berlin"] {
            var fractions: [String] = []
            for value in dashed.prefix(60) {
                for digits in ["7", "12", "123", "1234", "000001", "999999999"] {
                    fractions.append(value + ":05." + digits)
                }
            }
            for pattern in ["S", "SS", "SSS", "SSSS", "SSSSSS", "SSSSSSSSS"] {
                #expect(
                    try Self.compare("yyyy-MM-dd'T'HH:mm:ss.\(pattern)", zone: zone, fractions) > 0)
            }
            var offsets: [String] = []
            for value in dashed {
                for offset in ["Z", "+01:30", "-08:00", "+0530", "-1200", "+14:00", "+19:00"] {
                    offsets.append(value + ":00" + offset)
                }
            }
            for pattern in ["XXX", "xxx", "Z"] {
                #expect(
                    try Self.compare("yyyy-MM-dd'T'HH:mm:ss\(pattern)", zone: zone, offsets) > 0)
            }
            var twelveHour: [String] = []
            for value in times {
                for period in [" AM", " PM", " am"] { twelveHour.append(value + period) }
            }
            #expect(try Self.compare("yyyy/MM/dd hh:mm a", zone: zone, twelveHour) > 0)
            #expect(try Self.compare("yyyy/MM/dd h:mm a", zone: zone, twelveHour) > 0)
            #expect(try Self.compare("yyyy/MM/dd hh:mm", zone: zone, times) > 0)
            // One or two digits where the pattern has one or two letters.
            let short = times.map {
                $0.replacingOccurrences(of: "/0", with: "/").replacingOccurrences(
                    of: " 0", with: " ")
            }
            #expect(try Self.compare("yyyy/M/d H:mm", zone: zone, short + times) > 0)
            #expect(try Self.compare("yyyy/MM/dd HH:mm", zone: zone, short) > 0)
            var named: [String] = []
            for (index, month) in [
                "Jan", "Mar", "May", "Sep", "Sept", "Nov", "January", "March", "November", "jan",
            ].enumerated() {
                for day in ["07", "14", "29", "31"] {
                    named.append("\(day) \(month) \(2008 + index % 4)")
                }
            }
            #expect(try Self.compare("dd MMM yyyy", zone: zone, named) > 0)
            #expect(try Self.compare("dd MMMM yyyy", zone: zone, named) > 0)
            let german = times.map { value in
                let parts = value.split(separator: " ")
                let date = parts[0].split(separator: "/")
                return "\(date[2]).\(date[1]).\(date[0]) um \(parts[1])"
            }
            #expect(try Self.compare("dd.MM.yyyy 'um' HH:mm", zone: zone, german) > 0)
        }
    }

    @Test func aDateInADSTGapNamesTheGap() throws {
        let angeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let pattern = try #require(DatePattern("yyyy/MM/dd HH:mm", timeZone: angeles))
        guard case .skipped(let skipped) = Self.read(pattern, "2010/03/14 02:30") else {
            Issue.record("02:30 on 2010-03-14 is in Los Angeles's gap")
            return
        }
        let day = ISO8601Date.daysSince1970(year: 2010, month: 3, day: 14) * 86_400
        #expect(skipped.local == day + 2 * 3600 + 1800)
        #expect(skipped.gapStart == day + 2 * 3600)
        #expect(skipped.gapEnd == day + 3 * 3600)
        // 03:30 PDT.
        #expect(skipped.shiftedInstant == day + 10 * 3600 + 1800)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let german = try #require(DatePattern("dd.MM.yyyy HH:mm", timeZone: berlin))
        guard case .skipped(let gap) = Self.read(german, "28.03.2010 02:00") else {
            Issue.record("02:00 on 2010-03-28 is in Berlin's gap")
            return
        }
        #expect(gap.gapEnd - gap.gapStart == 3600)
        // Repeated local times are the later instant (standard time), as
        // DateFormatter reads them; the minute before the gap exists.
        #expect(
            Self.read(pattern, "2010/11/07 01:30")
                == .seconds(ISO8601Date.seconds(from: "2010-11-07T09:30:00Z") ?? 0))
        #expect(
            Self.read(pattern, "2010/03/14 01:59")
                == .seconds(ISO8601Date.seconds(from: "2010-03-14T09:59:00Z") ?? 0))
    }

    @Test func patternsWithFieldsItDoesNotReadAreLeftToTheFormatter() {
        for pattern in [
            "yy/MM/dd", "HH:mm", "EEE, dd MMM yyyy", "yyyy/MM/dd zzz", "yyyy-MM-dd'T",
            "yyyy/MM/dd k",
            "yyyy/MM/dd HH a", "yyyyMdd", "yyyy yyyy/MM/dd",
        ] {
            #expect(DatePattern(pattern, timeZone: .gmt) == nil, "\(pattern)")
        }
        #expect(DatePattern("yyyy/MM/dd 'o''clock' HH", timeZone: .gmt) != nil)
    }

    @Test func aSlashedDateProposesDateFormats() {
        func suggestions(_ text: String) -> [String] {
            var text = text
            return text.withUTF8 { DatePattern.suggestions(for: $0) }
        }
        #expect(suggestions("2010/01/01 00:00") == ["yyyy/MM/dd HH:mm"])
        #expect(suggestions("31/12/1990") == ["dd/MM/yyyy"])
        #expect(suggestions("12/31/1990") == ["MM/dd/yyyy"])
        #expect(suggestions("01.02.2010") == ["MM.dd.yyyy", "dd.MM.yyyy"])
        #expect(suggestions("2010-01-01T12:00:00") == ["yyyy-MM-dd'T'HH:mm:ss"])
        #expect(suggestions("2010-01-01 12:00:00.250Z") == ["yyyy-MM-dd HH:mm:ss.SSSXXX"])
        #expect(suggestions("1/25/2010 3:04 PM") == ["M/dd/yyyy h:mm a"])
        #expect(suggestions("2010/01/01 09:30+0100") == ["yyyy/MM/dd HH:mmZ"])
        #expect(suggestions("yesterday") == [])
        #expect(suggestions("2010/02/30") == [])
        #expect(suggestions("31/31/2010") == [])
    }

    @Test func docExample() {
        if let pattern = DatePattern("yyyy/MM/dd HH:mm", timeZone: .gmt) {
            var text = "2010/01/01 00:30"
            let reading = text.withUTF8 { pattern.read(utf8: $0) }
            print(reading)  // seconds(283998600.0): 2010-01-01T00:30:00Z
        }
    }
}
