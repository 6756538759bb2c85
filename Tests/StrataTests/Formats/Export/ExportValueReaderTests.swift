import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 27, point 8: a value is exported exactly or refused naming its
/// object; a string column holding a BLOB or bytes that are not UTF-8 is
/// never turned into U+FFFD text.
struct ExportValueReaderTests {
    /// A Kinds store with one Item whose `text` column is set by `sql`.
    private func fixture(setting sql: String) throws -> ExportKindsFixture {
        let fixture = try ExportKindsFixture(rows: [["label": .string("x")]])
        try fixture.store.connection.execute(sql)
        return fixture
    }

    @Test(arguments: ExportFormat.allCases)
    func testABlobInAStringColumnIsRefusedNamingTheObject(format: ExportFormat) throws {
        let fixture = try fixture(setting: "UPDATE ZITEM SET ZTEXT = X'00FF00'")
        var options = ExportOptions(entity: "Item")
        options.delimiter = UInt8(ascii: "|")  // txt lines of several fields
        options.titleField = "label"  // txt files
        let exporter = try Exporter(store: fixture.store, model: fixture.model, options: options)
        let error = try #require(throws: ExportError.self) {
            try exporter.run(to: fixture.folder.file("out").path, format: format)
        }
        #expect(error.message.contains("Item/p1.text: a string attribute holds blob"))
    }

    @Test func testTextThatIsNotUTF8IsRefusedNamingTheObject() throws {
        let fixture = try fixture(setting: "UPDATE ZITEM SET ZTEXT = CAST(X'41FF42' AS TEXT)")
        let exporter = try Exporter(
            store: fixture.store, model: fixture.model, options: ExportOptions(entity: "Item"))
        let error = try #require(throws: ExportError.self) {
            try exporter.run(to: fixture.folder.file("out.json").path, format: .json)
        }
        #expect(error.message.contains("Item/p1.text: the text is not valid UTF-8"))
    }

    @Test func testTextIsExportedExactly() throws {
        let fixture = try fixture(setting: "UPDATE ZITEM SET ZTEXT = 'é😀\u{FFFD}'")
        let exporter = try Exporter(
            store: fixture.store, model: fixture.model, options: ExportOptions(entity: "Item"))
        let out = fixture.folder.file("out.json")
        _ = try exporter.run(to: out.path, format: .json)
        #expect(try String(contentsOf: out, encoding: .utf8).contains("\"é😀\u{FFFD}\""))
    }
}
