import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

struct TextInputTests {

    static let sample = "héllo, wörld €\r\n😀 and 𝄞\nlast"

    @Test func testUTF8PassesThroughAndItsByteOrderMarkIsSkipped() throws {
        let directory = try TemporaryDirectory()
        let plain = Array(Self.sample.utf8)
        for (bytes, markLength) in [(plain, 0), ([0xEF, 0xBB, 0xBF] + plain, 3)] {
            let path = try directory.writeInput(bytes)
            for size in [1, 2, 3, 5, 4096] {
                let input = try TextInput(path: path)
                #expect(try input.readAll(bufferSize: size) == plain)
                #expect(input.encoding == .utf8)
                #expect(input.byteOrderMarkLength == markLength)
                #expect(input.bytesRead == Int64(bytes.count))
                #expect(input.totalBytes == Int64(bytes.count))
            }
        }
    }

    @Test(arguments: [false, true])
    func testUTF16WithByteOrderMarkBecomesUTF8(bigEndian: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.writeInput(utf16Bytes(Self.sample, bigEndian: bigEndian))
        for chunkSize in [1, 4, 5, 7, 1 << 20] {
            for size in [1, 2, 3, 4, 7, 4096] {
                // Whatever was asked: the byte-order mark decides.
                let input = try TextInput(path: path, encoding: .latin1, chunkSize: chunkSize)
                #expect(try input.readAll(bufferSize: size) == Array(Self.sample.utf8))
                #expect(input.encoding == .utf16)
                #expect(input.byteOrderMarkLength == 2)
            }
        }
    }

    @Test func testLatin1BytesFrom0x80BecomeTwoBytes() throws {
        let directory = try TemporaryDirectory()
        let all = (0...255).map { UInt8($0) }
        let path = try directory.writeInput(all)
        let expected = Array(String(all.map { Character(Unicode.Scalar($0)) }).utf8)
        for size in [1, 2, 3, 4096] {
            let input = try TextInput(path: path, encoding: .latin1, chunkSize: 7)
            #expect(try input.readAll(bufferSize: size) == expected)
        }
    }

    @Test func testInputByteCountMapsDecodedTextBackToTheFile() throws {
        let directory = try TemporaryDirectory()
        let text = "aé€😀"
        let cases: [([UInt8], TextEncoding, Int)] = [
            (Array(text.utf8), .utf8, 10),
            (utf16Bytes(text, bigEndian: false), .utf8, 10),
            (Array("aéÿ".data(using: .isoLatin1) ?? Data()), .latin1, 3),
        ]
        for (bytes, encoding, expected) in cases {
            let input = try TextInput(path: try directory.writeInput(bytes), encoding: encoding)
            let decoded = try input.readAll(bufferSize: 64)
            let count = decoded.withUnsafeBufferPointer { input.inputByteCount(of: $0) }
            #expect(count == expected)
            #expect(count + input.byteOrderMarkLength == bytes.count)
        }
    }

    @Test func testUnpairedSurrogateIsLocatedAndComesAfterTheGoodText() throws {
        let directory = try TemporaryDirectory()
        var bytes = utf16Bytes("ab\r\ncd", bigEndian: true)
        bytes += utf16Bytes(unit: 0xDD00, bigEndian: true) + utf16Bytes("e", bigEndian: true)
        let input = try TextInput(path: try directory.writeInput(bytes))
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 100)
        defer { buffer.deallocate() }
        #expect(try input.read(into: buffer) == 6)
        for _ in 0..<2 {
            let error = try #require(throws: ImportError.self) { try input.read(into: buffer) }
            #expect(error.code == .encoding)
            #expect(error.position.line == 2)
            #expect(error.position.column == 3)
            #expect(error.position.byteOffset == 14)
        }
    }

    @Test func testUnreadableFiles() throws {
        let directory = try TemporaryDirectory()
        for path in [directory.file("none").path, directory.url.path] {
            let error = try #require(throws: ImportError.self) { try TextInput(path: path) }
            #expect(error.code == .unreadable)
        }
        let empty = try TextInput(path: try directory.writeInput([]))
        #expect(try empty.readAll(bufferSize: 10).isEmpty)
        #expect(empty.totalBytes == 0)
    }
}
