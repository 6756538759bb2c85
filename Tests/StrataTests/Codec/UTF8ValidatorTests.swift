import Testing

@testable import Strata
@testable import StrataValues

/// What RFC 3629 accepts and refuses, at the edges of each length.
struct UTF8ValidatorTests {
    private func firstError(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validator.firstProblem(in: $0)?.index }
    }

    @Test func testAcceptsEveryScalarAtTheEdgesOfItsLength() {
        let text = "a\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}"
        #expect(firstError(Array(text.utf8)) == nil)
        #expect(firstError([]) == nil)
    }

    @Test func testRefusesWhatRFC3629Refuses() {
        let cases: [[UInt8]] = [
            [0x00], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x9F, 0xBF],
            [0xE1, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
            [0xF0, 0x90, 0x80], [0xE2, 0x28, 0xA1],
        ]
        for bad in cases {
            #expect(firstError(Array("ab".utf8) + bad + [0x41]) == 2, "\(bad)")
        }
    }
}

/// The txt readers' view: each problem named at its first byte, in the
/// words a line reader reports.
struct UTF8ValidatorMessageTests {
    func problem(_ bytes: [UInt8]) -> UTF8Validator.Problem? {
        bytes.withUnsafeBufferPointer { UTF8Validator.firstProblem(in: $0) }
    }

    @Test func testValidTextOfEveryLengthPasses() {
        #expect(problem(Array("a é € 😀 and a long ASCII tail to use words".utf8)) == nil)
        #expect(problem([]) == nil)
        #expect(problem([0xF4, 0x8F, 0xBF, 0xBF]) == nil)  // U+10FFFF
    }

    @Test func testEachKindOfBadSequenceIsNamedAtItsFirstByte() {
        let ascii = Array("0123456789abcdef".utf8)
        let cases: [([UInt8], String)] = [
            ([0x80], "invalid UTF-8: byte 0x80"),
            ([0xFF], "invalid UTF-8: byte 0xFF"),
            ([0xC0, 0xAF], "invalid UTF-8: an overlong sequence"),
            ([0xE0, 0x80, 0xAF], "invalid UTF-8: an overlong sequence"),
            ([0xF0, 0x80, 0x80, 0xAF], "invalid UTF-8: an overlong sequence"),
            ([0xED, 0xA0, 0x80], "invalid UTF-8: an encoded UTF-16 surrogate"),
            ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8: a code point above U+10FFFF"),
            ([0xE2, 0x82], "invalid UTF-8: an incomplete sequence starting with 0xE2"),
            ([0xC3, 0x41], "invalid UTF-8: an incomplete sequence starting with 0xC3"),
            ([0x00], "a NUL byte"),
        ]
        for (bytes, message) in cases {
            #expect(problem(ascii + bytes)?.index == 16)
            #expect(problem(ascii + bytes)?.message == message)
        }
    }

    @Test func testNULInsideAWordIsFound() {
        #expect(problem(Array("abc".utf8) + [0] + Array("defghijk".utf8))?.index == 3)
    }
}

/// JSON text may hold NUL (escaped or not, it is the parser's to judge);
/// the validator then checks only the encoding.
struct UTF8ValidatorJSONTests {
    @Test func testNULPassesWhenAllowedAndAStartIsHonoured() {
        let bytes: [UInt8] = Array("abcdefgh".utf8) + [0, 0xC3, 0xA9, 0xFF]
        bytes.withUnsafeBufferPointer { buffer in
            #expect(UTF8Validator.firstProblem(in: buffer)?.kind == .nul)
            #expect(UTF8Validator.firstProblem(in: buffer, allowingNUL: true)?.index == 11)
            #expect(
                UTF8Validator.firstProblem(in: buffer, from: 11, allowingNUL: true)?.kind
                    == .impossibleByte)
            #expect(UTF8Validator.sequenceLength(in: buffer, at: 9) == 2)
            #expect(UTF8Validator.sequenceLength(in: buffer, at: 11) == 0)
        }
    }
}
