import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema

/// The scanner reads strings and numbers as the general JSON reader does,
/// and declines (never misreads) what it does not read that way.
struct BundleLineScannerTests {
    /// What the scanner makes of `json` as a string, or nil when it declines.
    static func scannedString(_ json: [UInt8]) -> [UInt8]? {
        json.withUnsafeBufferPointer { bytes in
            var scanner = BundleLineScanner(bytes)
            var output: [UInt8] = []
            guard scanner.string(into: &output) else { return nil }
            scanner.skipWhitespace()
            return scanner.isAtEnd ? output : nil
        }
    }

    /// What the general reader makes of `json`, or nil when it refuses it.
    static func readerValue(_ json: [UInt8]) -> RecordValue? {
        json.withUnsafeBufferPointer { try? JSONReader.parse(bytes: $0).value }
    }

    static func scannedScalar(_ json: String) -> RecordValue? {
        Array(json.utf8).withUnsafeBufferPointer { bytes in
            var scanner = BundleLineScanner(bytes)
            guard let value = scanner.scalar() else { return nil }
            scanner.skipWhitespace()
            return scanner.isAtEnd ? value : nil
        }
    }

    @Test(arguments: [
        #""plain""#, #""""#, #""é ü 日本 😀""#, #""a\nb\t\"q\" \\ \/ \b\f\r""#,
        #""\u00e9\u65E5\ud83d\ude00\u0000""#, #""  spaces  ""#,
    ])
    func testStringsReadAsTheReaderReadsThem(_ json: String) throws {
        let scanned = try #require(Self.scannedString(Array(json.utf8)))
        guard case .text(let text)? = Self.readerValue(Array(json.utf8)) else {
            Issue.record("the reader refused \(json)")
            return
        }
        #expect(scanned == Array(text.utf8))
    }

    @Test(arguments: [
        Array(#""\ud83d""#.utf8), Array(#""\ude00x""#.utf8), Array(#""\x""#.utf8),
        Array(#""\u12""#.utf8), Array(#""unterminated"#.utf8), [0x22, 0x01, 0x22],
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xFF, 0x22],
    ])
    func testMalformedStringsAreDeclined(_ json: [UInt8]) {
        #expect(Self.scannedString(json) == nil)
    }

    /// Strings of random pieces (escapes, UTF-8 fragments, control
    /// characters): whatever the scanner accepts, the reader reads the same.
    @Test func testRandomStringsAreNeverMisread() {
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("\\".utf8), Array("\\n".utf8), Array("\\u".utf8),
            Array("d83d".utf8), Array("\\ude00".utf8), Array("00e9".utf8), Array("\"".utf8),
            [0xC3], [0xA9], [0xED], [0xA0], [0x80], [0xF0], [0x9F], [0x98], [0x01], [0x7F],
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var accepted = 0
        for _ in 0..<20_000 {
            var json: [UInt8] = [0x22]
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for index in 0..<Int(state >> 60) {
                json += pieces[Int((state >> (UInt64(index) * 4)) & 0xFF) % pieces.count]
            }
            json.append(0x22)
            guard let scanned = Self.scannedString(json) else { continue }
            accepted += 1
            guard case .text(let text)? = Self.readerValue(json) else {
                Issue.record("accepted what the reader refuses: \(json)")
                continue
            }
            #expect(scanned == Array(text.utf8), "\(json)")
        }
        #expect(accepted > 1_000)  // The comparison compared something.
    }

    @Test(arguments: [
        "0", "-0", "12", "-12", "123456789012345678", "-123456789012345678", "1.5", "-2.5e3",
        "1E2", "0.1", "1e-7", "6.02214076E+23", "1234567890123456789", "12345678901234567890",
        "true", "false", "null",
    ])
    func testScalarsReadAsTheReaderReadsThem(_ json: String) throws {
        let scanned = try #require(Self.scannedScalar(json))
        switch (scanned, Self.readerValue(Array(json.utf8))) {
        case (.real(let a), .real(let b)?): #expect(a.bitPattern == b.bitPattern)
        case (let a, let b?): #expect(a == b)
        default: Issue.record("\(json): the reader refused it")
        }
    }

    @Test(arguments: [
        "01", "-01", "1.", ".5", "-", "1e", "1e+", "+1", "1e999", "--1", "\"text\"", "[1]", "nul",
    ])
    func testWhatIsNotAValidScalarIsDeclined(_ json: String) {
        #expect(Self.scannedScalar(json) == nil)
    }

    @Test func testLiteralsMustEndThere() {
        for (json, expected) in [("true", true), ("true ", true), ("truex", false), ("nul", false)]
        {
            #expect((Self.scannedScalar(json) != nil) == expected, "\(json)")
        }
        for (json, expected) in [("null", true), ("null ", true), ("nullx", false), ("nul", false)]
        {
            let whole = Array(json.utf8).withUnsafeBufferPointer { bytes in
                var scanner = BundleLineScanner(bytes)
                guard scanner.consumeNull() else { return false }
                scanner.skipWhitespace()
                return scanner.isAtEnd
            }
            #expect(whole == expected, "\(json)")
        }
    }
}
