import Foundation
import Testing

/// `strata import --encoding` for the txt formats, as for CSV: a Latin-1
/// note file is refused by strict UTF-8 with the option named, then read
/// with it — or guessed, with a note, when no encoding is given.
struct ImportEncodingCommandTests {
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
        // Strict UTF-8 refuses, naming the option; the default guesses.
        let refused = try StrataRunner.run(arguments + ["--encoding", "utf-8"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("notes.txt:1:11: invalid UTF-8"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--encoding windows-1252, latin-1 or utf-16"))
        #expect(!FileManager.default.fileExists(atPath: store))

        let guessed = try StrataRunner.run(arguments + ["--dry-run"])
        #expect(guessed.status == 0, "\(guessed.stderr)")
        #expect(guessed.stderr.contains("read as Windows-1252"), "\(guessed.stderr)")

        let imported = try StrataRunner.run(arguments + ["--encoding", "latin-1"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let query = try StrataRunner.run(["query", store, "Note", "--format", "csv"])
        #expect(query.stdout.contains("Café"), "\(query.stdout)")
        #expect(query.stdout.contains("Böse Überraschung"))
    }

    @Test func testALatin1CRLFCSVIsGuessedWithANoteOnStandardError() throws {
        let schemas = try folder.notesChain([#""title": { "type": "string" }"#]).schemas
        let input = folder.path("countries.csv")
        // A Latin-1 country list with CRLF line ends: "Côte d'Ivoire", "Curaçao".
        let bytes: [UInt8] =
            Array("title\r\nC".utf8) + [0xF4] + Array("te d'Ivoire\r\nCura".utf8) + [0xE7]
            + Array("ao\r\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let store = folder.path("Countries.sqlite")
        let imported = try StrataRunner.run([
            "import", store, input, "--entity", "Note", "--schemas", schemas,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2 inserted"))
        #expect(
            imported.stderr.contains(
                "note: \(input) is not UTF-8 (byte 0xF4 on line 2) and has no byte-order mark: "
                    + "read as Windows-1252"), "\(imported.stderr)")
        let query = try StrataRunner.run(["query", store, "Note", "--format", "csv"])
        #expect(query.stdout.contains("Côte d'Ivoire"), "\(query.stdout)")
        #expect(query.stdout.contains("Curaçao"))
        let strict = try StrataRunner.run([
            "import", folder.path("Strict.sqlite"), input, "--entity", "Note", "--schemas",
            schemas, "--encoding", "utf-8",
        ])
        #expect(strict.status == 1)
        #expect(
            strict.stderr.contains(
                "countries.csv:2:2: invalid UTF-8: a sequence cut short; the file must be UTF-8, "
                    + "or name its encoding (--encoding windows-1252, latin-1 or utf-16)"),
            "\(strict.stderr)")
    }
}
