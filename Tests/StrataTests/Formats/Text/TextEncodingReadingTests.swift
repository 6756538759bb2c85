import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// The txt readers take their bytes through ``TextInput``, as CSV does: a
/// byte-order mark decides, otherwise the encoding asked for (issue 30:
/// every text format takes `--encoding`).
struct TextEncodingReadingTests {
    let fixture: TextFixture

    init() throws { fixture = try TextFixture() }

    @Test func testLatin1BlocksReadAsTheirTextWhenAskedFor() throws {
        // "Titel: Café\nBöse Überraschung\n" in Latin-1.
        let bytes: [UInt8] =
            Array("Titel: Caf".utf8) + [0xE9] + Array("\nB".utf8) + [0xF6]
            + Array("se ".utf8) + [0xDC] + Array("berraschung\n".utf8)
        let path = try fixture.write("latin1.txt", bytes)
        let results = readAll(try TextBlockReader(path: path, encoding: .latin1))
        let record = try #require(results.first?.record)
        #expect(record.text("Titel") == "Café")
        #expect(record.text("body") == "Böse Überraschung")
    }

    @Test func testLatin1ReadAsUTF8NamesTheEncodingOption() throws {
        let path = try fixture.write("latin1.txt", Array("Title: Caf".utf8) + [0xE9, 0x0A])
        let results = readAll(try TextBlockReader(path: path))
        let error = try #require(results.first?.error)
        #expect(error.code == .encoding)
        #expect(error.message.contains("--encoding windows-1252, latin-1 or utf-16"))
        #expect(error.position.line == 1 && error.position.column == 11)
    }

    @Test func testAUTF16FileOfAFolderIsTranscodedByItsByteOrderMark() throws {
        _ = try fixture.write("a.txt", utf16Bytes("Straße\nzwei Zeilen\n", bigEndian: false))
        _ = try fixture.write("b.txt", Array([0xEF, 0xBB, 0xBF] + Array("plain\n".utf8)))
        let reader = try TextFileReader(folder: fixture.directory.url.path)
        let records = readAll(reader).compactMap(\.record)
        #expect(records.map { $0.text("title") } == ["Straße", "plain"])
        #expect(records.first?.text("body") == "zwei Zeilen")
    }

    @Test func testUTF16WithoutAByteOrderMarkIsRefusedWithItsFix() throws {
        let path = try fixture.write(
            "x.txt", utf16Bytes("a\n", bigEndian: true, byteOrderMark: false))
        #expect {
            _ = try TextBlockReader(path: path, encoding: .utf16)
        } throws: { error in
            (error as? ImportError)?.code == .encoding
                && "\(error)".contains("must start with a byte-order mark")
        }
    }
}
