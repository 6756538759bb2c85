import Foundation
import Testing

/// Issue 28, point 8: `strata import … --format txt-files --file-name-into
/// <attr>`, run as the built binary.
struct ImportFileNameCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    @Test("txt-files import records each file's name with --file-name-into")
    func testFileNameIntoRecordsEachFilesName() throws {
        let notes = folder.path("notes")
        try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: false)
        try Data("Market\n\nApples.\n".utf8).write(
            to: URL(fileURLWithPath: notes + "/2024-05-01 Market.txt"))
        try Data("Walk\n".utf8).write(to: URL(fileURLWithPath: notes + "/2024-05-02 Walk.txt"))
        let store = folder.path("Diary.sqlite")
        let imported = try StrataRunner.run([
            "import", store, notes, "--format", "txt-files", "--schemas", "Schemas/Diary",
            "--entity", "DiaryEntry", "--map", "modified=", "--file-name-into", "subtitle",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let query = try StrataRunner.run([
            "query", store, "DiaryEntry", "--fields", "title,subtitle", "--sort", "title",
        ])
        #expect(
            query.stdout
                == "id             title   subtitle\n"
                + "DiaryEntry/p1  Market  2024-05-01 Market.txt\n"
                + "DiaryEntry/p2  Walk    2024-05-02 Walk.txt\n")
    }

    @Test func testFileNameIntoIsRefusedForAnotherFormat() throws {
        let input = folder.path("entries.csv")
        try Data("title\nMarket\n".utf8).write(to: URL(fileURLWithPath: input))
        let store = folder.path("Diary.sqlite")
        let refused = try StrataRunner.run([
            "import", store, input, "--schemas", "Schemas/Diary", "--entity", "DiaryEntry",
            "--file-name-into", "subtitle",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "\(input): --file-name-into subtitle records the name of each file of a "
                    + "txt-files folder, and the input is csv; nothing was changed"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
