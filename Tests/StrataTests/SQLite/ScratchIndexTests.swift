import Foundation
import Testing

@testable import StrataCore

struct ScratchIndexTests {
    @Test func testEntriesComeBackInByteOrderOfTheirNamesAndTheFirstOfANameWins() throws {
        let scratch = try TemporaryDirectory()
        let folder = scratch.url
        var printed: [String] = []
        func print(_ name: String, _ field: Int64) { printed.append("\(name) \(field)") }
        // The doc comment's example.
        let index = try ScratchIndex(at: folder.appendingPathComponent("media.sqlite"), fields: 2)
        try index.add("b.png", [10, 1])
        try index.add("a.png", [20, 2])
        try index.forEach { name, fields in print(name, fields[0]) }  // a.png first
        #expect(printed == ["a.png 20", "b.png 10"])

        try index.add("a.png", [99, 9])
        try index.add("B.png", [30, 3])
        var entries: [String] = []
        try index.forEach { name, fields in entries.append("\(name) \(fields)") }
        #expect(entries == ["B.png [30, 3]", "a.png [20, 2]", "b.png [10, 1]"])
    }

    @Test func testAnEntryWithTheWrongNumberOfFieldsIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let index = try ScratchIndex(at: scratch.file("i.sqlite"), fields: 2)
        #expect(throws: SQLiteError.self) { try index.add("x", [1]) }
    }
}
