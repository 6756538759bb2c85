import Testing

@testable import Strata
@testable import StrataValues

struct ISO8601DateTests {
    @Test func testParsesDatesAndDateTimesAgainstTheReferenceDate() {
        #expect(ISO8601Date.seconds(from: "2001-01-01T00:00:00Z") == 0)
        #expect(ISO8601Date.seconds(from: "2001-01-01") == 0)
        #expect(ISO8601Date.seconds(from: "1970-01-01T00:00:00Z") == -978_307_200)
        #expect(ISO8601Date.seconds(from: "2001-01-01T02:00:00+02:00") == 0)
        #expect(ISO8601Date.seconds(from: "2000-12-31T19:00:00-05:00") == 0)
        #expect(ISO8601Date.seconds(from: "2001-01-01T00:00:00.25Z") == 0.25)
        // (3 × 365 + 31 + 28) days after the reference date.
        #expect(ISO8601Date.seconds(from: "2004-02-29T00:00:00Z") == 99_705_600)
    }

    @Test func testRefusesIncompleteOrImpossibleDates() {
        for text in [
            "", "2001", "2001-1-01", "2001-02-29", "2001-13-01", "2001-01-01T00:00:00",
            "2001-01-01T24:00:00Z", "2001-01-01T00:00:60Z", "2001-01-01T00:00Z",
            "2001-01-01T00:00:00.Z", "2001-01-01T00:00:00Zx", "2001-01-01 00:00:00Z",
        ] {
            #expect(ISO8601Date.seconds(from: text) == nil, "\(text)")
        }
    }

    @Test func testFormatsOnlyTextThatReadsBackExactly() {
        #expect(ISO8601Date.string(from: 0) == "2001-01-01T00:00:00Z")
        #expect(ISO8601Date.string(from: -0.5) == "2000-12-31T23:59:59.500Z")
        #expect(ISO8601Date.string(from: 1e-9) == "2001-01-01T00:00:00.000000001Z")
        #expect(ISO8601Date.string(from: 0.1234567891234) == nil)
        #expect(ISO8601Date.string(from: .nan) == nil)
        for seconds in [86_400.5, -978_307_200, 1e9 + 0.001, -31_622_400.25, 694_224_000] {
            let text = ISO8601Date.string(from: seconds)
            #expect(text.flatMap(ISO8601Date.seconds(from:)) == seconds, "\(seconds)")
        }
    }

    @Test func testAppendingBytesGivesTheSameTextAsTheString() {
        let values: [Double] = [
            0, -0.5, 1e-9, 0.1234567891234, .nan, .infinity, 86_400.5, -978_307_200, 1e9 + 0.001,
            -31_622_400.25, 694_224_000, 757_382_400.125, 786_000_000.123456, 3e11,
            802_475_313.201_581_24,
        ]
        for seconds in values {
            var bytes = Array("x".utf8)
            let appended = ISO8601Date.append(seconds, to: &bytes)
            let expected = ISO8601Date.string(from: seconds)
            #expect(appended == (expected != nil), "\(seconds)")
            #expect(
                String(decoding: bytes.dropFirst(), as: UTF8.self) == (expected ?? ""), "\(seconds)"
            )
        }
    }
}

struct ISO8601DateFormsTests {
    @Test func testAFractionMayHaveAnyNumberOfDigits() {
        #expect(ISO8601Date.seconds(from: "2001-01-01T00:00:00.1234567890Z") == 0.123456789)
        #expect(
            ISO8601Date.seconds(from: "2001-01-01T00:00:00.5000000000000000000001Z") == 0.5)
    }

    @Test func testThePropertyListFormIsADateTimeInUTC() {
        func seconds(_ text: String) -> Double? {
            var text = text
            return text.withUTF8 { ISO8601Date.seconds(utf8: $0, utcDateTimeOnly: true) }
        }
        #expect(seconds("2001-01-01T00:00:01Z") == 1)
        #expect(seconds("2001-01-01") == nil)
        #expect(seconds("2001-01-01T00:00:00+01:00") == nil)
    }

    @Test func testTheDateTimeStemTakesYearsBeyondFourDigits() {
        var bytes: [UInt8] = []
        ISO8601Date.appendDateTime(unixSeconds: -62_198_755_200, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "-0001-01-01T00:00:00")
    }
}
