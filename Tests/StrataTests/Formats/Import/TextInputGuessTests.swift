import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 28, point 2: a file that is not UTF-8 and has no byte-order mark is
/// read as Windows-1252 by default (``TextEncoding/automatic``), with a note
/// saying so; one that is UTF-8 stays UTF-8.
struct TextInputGuessTests {

    @Test func testALatin1CRLFFileIsGuessedAsWindows1252WithANote() throws {
        let directory = try TemporaryDirectory()
        // "name\r\nCôte d’Ivoire\r\n" in Windows-1252: ô is 0xF4, ’ is 0x92.
        let bytes: [UInt8] =
            Array("name\r\nC".utf8) + [0xF4] + Array("te d".utf8) + [0x92]
            + Array("Ivoire\r\n".utf8)
        let path = try directory.writeInput(bytes)
        for size in [1, 2, 3, 4096] {
            let input = try TextInput(path: path, encoding: .automatic, chunkSize: 4)
            #expect(input.encoding == .windows1252)
            #expect(try input.readAll(bufferSize: size) == Array("name\r\nCôte d’Ivoire\r\n".utf8))
            #expect(input.guessNote?.contains("is not UTF-8 (byte 0xF4 on line 2)") == true)
            #expect(input.guessNote?.contains("read as Windows-1252") == true)
        }
    }

    @Test func testUTF8StaysUTF8WithoutANote() throws {
        let directory = try TemporaryDirectory()
        let text = "name\nCôte d’Ivoire\n"
        let input = try TextInput(
            path: try directory.writeInput(Array(text.utf8)), encoding: .automatic)
        #expect(input.encoding == .utf8)
        #expect(input.guessNote == nil)
        #expect(try input.readAll(bufferSize: 7) == Array(text.utf8))
    }

    @Test func testASequenceCutByTheGuessWindowIsStillUTF8() throws {
        let directory = try TemporaryDirectory()
        // "é" (C3 A9) straddles the end of the window.
        let bytes =
            [UInt8](repeating: UInt8(ascii: "a"), count: TextEncoding.guessWindow - 1)
            + Array("é tail".utf8)
        let input = try TextInput(path: try directory.writeInput(bytes), encoding: .automatic)
        #expect(input.encoding == .utf8)
        #expect(try input.readAll(bufferSize: 1000) == bytes)
    }

    @Test func testWindows1252MapsItsHighBlockAndKeepsUndefinedBytesAsControls() throws {
        let directory = try TemporaryDirectory()
        let all = (0x80...0xFF).map { UInt8($0) }
        let input = try TextInput(path: try directory.writeInput(all), encoding: .windows1252)
        let text = String(decoding: try input.readAll(bufferSize: 3), as: UTF8.self)
        let scalars = text.unicodeScalars.map(\.value)
        #expect(scalars.count == 128)
        #expect(scalars[0] == 0x20AC)  // €
        #expect(scalars[0x01] == 0x81)  // undefined: the C1 control
        #expect(scalars[0x12] == 0x2019)  // ’
        #expect(scalars[0x1F] == 0x0178)  // Ÿ
        #expect(Array(scalars[0x20...]) == (0xA0...0xFF).map { UInt32($0) })
    }

    @Test func testAByteOrderMarkStillWinsOverTheGuess() throws {
        let directory = try TemporaryDirectory()
        let bytes: [UInt8] =
            [0xFF, 0xFE] + Array("a".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let input = try TextInput(path: try directory.writeInput(bytes), encoding: .automatic)
        #expect(input.encoding == .utf16)
        #expect(try input.readAll(bufferSize: 4) == Array("a".utf8))
    }
}
