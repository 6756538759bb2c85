import Testing

@testable import Strata
@testable import StrataFormats

struct StopByteScannerTests {
    /// The scanner's answer for `bytes`, and the answer of a plain loop.
    private func scanBothWays(_ bytes: [UInt8]) -> (fast: [Int], slow: [Int]) {
        let classes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        defer { classes.deallocate() }
        let stops: [UInt8] = [UInt8(ascii: ","), 0x0A, 0x0D]
        for byte in 0..<256 {
            classes[byte] = byte == 0 || byte >= 0x80 ? CSVReader.checkClass : 0
        }
        for stop in stops { classes[Int(stop)] = CSVReader.stopClass }
        let scanner = StopByteScanner(stoppingAt: stops[0], stops[1], stops[2], classes: classes)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        defer { buffer.deallocate() }
        buffer.initialize(from: bytes, count: bytes.count)
        var fast: [Int] = []
        var slow: [Int] = []
        for start in 0...bytes.count {
            var needsCheck = false
            let found = scanner.scan(buffer, from: start, to: bytes.count, needsCheck: &needsCheck)
            fast += [found, needsCheck ? 1 : 0]
            var index = start
            while index < bytes.count, !stops.contains(bytes[index]) { index += 1 }
            let unusual = bytes[start..<index].contains { $0 == 0 || $0 >= 0x80 }
            slow += [index, unusual ? 1 : 0]
        }
        return (fast, slow)
    }

    @Test func testFindsTheFirstStopAndNotesUnusualBytesBeforeItOnly() {
        for length in [1, 7, 8, 9, 17, 24] {
            for stopAt in 0..<length {
                for stop: UInt8 in [UInt8(ascii: ","), 0x0A, 0x0D] {
                    for unusual: UInt8 in [0x00, 0x80, 0xD0, 0xFF] {
                        for unusualAt in 0..<length where unusualAt != stopAt {
                            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                            bytes[stopAt] = stop
                            bytes[unusualAt] = unusual
                            let (fast, slow) = scanBothWays(bytes)
                            #expect(fast == slow, "\(bytes)")
                        }
                    }
                }
            }
        }
    }

    @Test func testBytesNextToTheStopValuesAreNotStops() {
        let bytes: [UInt8] = [0x2B, 0x2D, 0x09, 0x0B, 0x0C, 0x0E, 0x01, 0x7F, 0xAC, 0x8D, 0x8A]
        let (fast, slow) = scanBothWays(bytes + bytes + [0x2C] + bytes)
        #expect(fast == slow)
    }
}
