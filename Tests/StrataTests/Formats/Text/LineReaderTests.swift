import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

struct LineReaderTests {
    let fixture: TextFixture

    init() throws { fixture = try TextFixture() }

    struct Seen: Equatable {
        var text: String
        var terminator: LineReader.Terminator
        var number: Int
        var offset: Int64
        var tooLong = false
    }

    /// Every line of `bytes` read with a 16-byte chunk.
    func lines(_ bytes: [UInt8], maximumLineBytes: Int = 1 << 20) throws -> [Seen] {
        let path = try fixture.write("lines.txt", bytes)
        let reader = try LineReader(path: path, chunkSize: 16, maximumLineBytes: maximumLineBytes)
        var seen: [Seen] = []
        while let line = try reader.next() {
            seen.append(
                Seen(
                    text: String(decoding: line.bytes, as: UTF8.self), terminator: line.terminator,
                    number: line.number, offset: line.byteOffset,
                    tooLong: line.problem == .tooLong))
        }
        return seen
    }

    @Test func testCRLFSplitAcrossChunksIsOneEnding() throws {
        let seen = try lines(Array("0123456789abcde\r\nnext line\rlast".utf8))
        #expect(
            seen == [
                Seen(text: "0123456789abcde", terminator: .crlf, number: 1, offset: 0),
                Seen(text: "next line", terminator: .cr, number: 2, offset: 17),
                Seen(text: "last", terminator: .none, number: 3, offset: 27),
            ])
    }

    @Test func testLinesLongerThanAChunkAreWhole() throws {
        let long = String(repeating: "abcdefghij", count: 10)
        let seen = try lines(Array((long + "\n" + long + "\r\n").utf8))
        #expect(seen.map(\.text) == [long, long])
        #expect(seen.map(\.offset) == [0, 101])
    }

    @Test func testTooLongLineIsSkippedWithoutKeepingItAndCountingGoesOn() throws {
        let text =
            "short\n" + String(repeating: "x", count: 100) + "\nafter\n"
            + String(repeating: "y", count: 50)
        let seen = try lines(Array(text.utf8), maximumLineBytes: 20)
        #expect(
            seen == [
                Seen(text: "short", terminator: .lf, number: 1, offset: 0),
                Seen(text: "", terminator: .lf, number: 2, offset: 6, tooLong: true),
                Seen(text: "after", terminator: .lf, number: 3, offset: 107),
                Seen(text: "", terminator: .none, number: 4, offset: 113, tooLong: true),
            ])
    }

    @Test func testTooLongLineEndingInCRLFAtAChunkEdge() throws {
        // The CR is the 32nd byte: the end of the second chunk.
        let text = String(repeating: "x", count: 31) + "\r\nok"
        let seen = try lines(Array(text.utf8), maximumLineBytes: 8)
        #expect(seen.map(\.tooLong) == [true, false])
        #expect(seen.map(\.terminator) == [.crlf, .none])
        #expect(seen.last?.offset == 33)
    }

    @Test func testFinalNewlineMakesNoEmptyLastLine() throws {
        #expect(try lines(Array("a\n".utf8)).map(\.text) == ["a"])
        #expect(try lines(Array("a\n\n".utf8)).map(\.text) == ["a", ""])
        #expect(try lines([]).isEmpty)
        #expect(try lines([0xEF, 0xBB, 0xBF]).isEmpty)
        #expect(try lines(Array("a\r".utf8)).map(\.terminator) == [.cr])
    }

    @Test func testEncodingProblemsComeWithTheLine() throws {
        let path = try fixture.write(
            "bad.txt", Array("ok\nab".utf8) + [0xFF] + Array("\nfine".utf8))
        let reader = try LineReader(path: path, maximumLineBytes: 100)
        #expect(try reader.next()?.problem == nil)
        let bad = try #require(try reader.next())
        guard case .encoding(let problem) = bad.problem else {
            Issue.record("expected an encoding problem")
            return
        }
        #expect(problem.index == 2 && bad.number == 2)
        #expect(try reader.next()?.problem == nil)
    }
}

struct TextHeaderLineTests {
    func header(_ line: String) -> [String]? {
        var line = line
        return line.withUTF8 { bytes in
            TextHeaderLine.parse(bytes).map {
                [
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.key]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.value]), as: UTF8.self),
                ]
            }
        }
    }

    @Test func testPlausibleNamesFollowedByColonAndSpaceAreHeaders() {
        #expect(header("Date: 2024-05-01T08:30:00Z") == ["Date", "2024-05-01T08:30:00Z"])
        #expect(header("Tags:") == ["Tags", ""])
        #expect(header("  Due date :\tsoon  ") == ["Due date", "soon"])
        #expect(header("x_y-z 2: v: w") == ["x_y-z 2", "v: w"])
        #expect(header("Título: x") == ["Título", "x"])
        #expect(header("2nd: x") == ["2nd", "x"])
        // A key path, as export writes a related value (issue 28, point 4).
        #expect(header("species.name: Adelie") == ["species.name", "Adelie"])
        #expect(header(String(repeating: "k", count: 64) + ": v")?.first?.count == 64)
    }

    @Test func testOtherLinesAreNotHeaders() {
        for line in [
            "http://example.org", "Note:x", "- item: x", "a/b: c", ".b: c", "", ":", " : x",
            "no colon",
            "_key: x", String(repeating: "k", count: 65) + ": v", "→: x", "#strata-error: r",
        ] {
            #expect(header(line) == nil, "\(line)")
        }
    }
}
