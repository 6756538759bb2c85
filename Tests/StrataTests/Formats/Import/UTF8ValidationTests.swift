import Testing

@testable import Strata

@Suite struct UTF8ValidationTests {
    private func firstError(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validation.firstError(in: $0)?.offset }
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
