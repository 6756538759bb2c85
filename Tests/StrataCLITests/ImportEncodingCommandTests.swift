import Foundation
import Testing

/// `strata import --encoding` for the txt formats, as for CSV: a Latin-1
/// note file is refused with the option named, then read with it.
@Suite struct ImportEncodingCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    @Test func testALatin1TxtFileNamesTheOptionThenImportsWithIt() throws {
        let input = folder.path("notes.txt")
        // "Title: Café\nBöse Überraschung\n" in Latin-1.
        let bytes: [UInt8] =
            Array("Title: Caf".utf8) + [0xE9] + Array("\nB".utf8) + [0xF6]
            + Array("se ".utf8) + [0xDC] + Array("berraschung\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let store = folder.path("Notes.sqlite")
        let arguments = [
            "import", store, input, "--format", "txt-blocks", "--entity", "Note",
            "--schemas", "Schemas/Notes",
        ]
        let refused = try StrataRunner.run(arguments)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("notes.txt:1:11: invalid UTF-8"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--encoding latin-1"))
        #expect(!FileManager.default.fileExists(atPath: store))

        let imported = try StrataRunner.run(arguments + ["--encoding", "latin-1"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let query = try StrataRunner.run(["query", store, "Note", "--format", "csv"])
        #expect(query.stdout.contains("Café"), "\(query.stdout)")
        #expect(query.stdout.contains("Böse Überraschung"))
    }
}
