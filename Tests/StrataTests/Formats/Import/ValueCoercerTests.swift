import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 27, point 8: a NUL character is refused by every reader, as CSV and
/// txt inputs refuse a NUL byte, so no import stores a text that its own
/// export would make unreadable.
struct ValueCoercerTests {
    @Test func testAJSONNulEscapeIsRefusedAtItsKeyPath() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let input = fixture.folder.file("nul.json")
        try Data(#"[{"firstName": "a\u0000b", "lastName": "Lee"}]"#.utf8).write(to: input)
        let reader = try JSONRecordReader(path: input.path)
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions(entity: "Contact"))
        }
        #expect(error.code == .encoding)
        #expect(error.position.keyPath == "[0].firstName")
        #expect(error.message.contains("NUL character (U+0000)"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZCONTACT") == 0)
    }

    @Test func testAPlistNulIsRefusedAlike() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayRecordReader([
            [("firstName", .text("nul\u{0}")), ("lastName", .text("Lee"))]
        ])
        let error = try #require(throws: ImportError.self) {
            try fixture.run(reader, ImportOptions(entity: "Contact"))
        }
        #expect(error.code == .encoding)
    }

    @Test func testOtherControlCharactersAreKept() throws {
        let fixture = try ImportFixture("Contacts", version: 2)
        let reader = ArrayRecordReader([
            [("firstName", .text("bell\u{07}\u{1F}")), ("lastName", .text("Lee"))]
        ])
        _ = try fixture.run(reader, ImportOptions(entity: "Contact"))
        #expect(
            try fixture.rows("SELECT hex(ZFIRSTNAME) FROM ZCONTACT") == [["62656C6C071F"]])
    }
}
