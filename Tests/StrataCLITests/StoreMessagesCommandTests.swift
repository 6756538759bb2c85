import Foundation
import Testing

/// Messages of failures (issue 27, point 12): each names the store, what
/// was being done and what to do — no SQL statement, no raw Foundation
/// error, no record blamed for the disk.
struct StoreMessagesCommandTests {
    private let folder: ScratchFolder
    private let store: String

    init() throws {
        folder = try ScratchFolder()
        store = folder.path("s.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/Contacts"])
        try #require(created.status == 0, "\(created.stderr)")
    }

    @Test func testInfoOnADamagedStoreExitsOneNamingIt() throws {
        // A page of the file overwritten: the store opens, the check fails.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: store))
        try handle.seek(toOffset: 4096 + 10)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 3000))
        try handle.close()
        let outcome = try StrataRunner.run(["info", store])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: \(store): the store is damaged: "))
        #expect(outcome.stderr.contains("Restore it from a backup"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("\\n"), "\(outcome.stdout)")
    }

    @Test func testAFullDiskStopsTheImportWithoutSQLOrABlamedRecord() throws {
        let input = folder.path("big.csv")
        var text = "firstName,lastName,nickname\n"
        for index in 0..<20_000 {
            text += "Name\(index),Family\(index),a nickname long enough to fill pages \(index)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let before = FileManager.default.contents(atPath: store)
        // The file-size limit stands in for a full disk: writes past it
        // fail as they do when the disk is full (SIGXFSZ ignored).
        for policy in ["abort", "skip"] {
            let outcome = try ProgramRunner.run(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "trap '' XFSZ; ulimit -f 200; exec \"$0\" \"$@\"",
                    try StrataRunner.executable().path, "import", store, input, "--on-error",
                    policy,
                ], in: StrataRunner.packageRoot)
            #expect(outcome.status == 1, "\(policy)")
            #expect(
                outcome.stderr.hasPrefix("error: \(store): cannot import into the store: "),
                "\(outcome.stderr)")
            #expect(outcome.stderr.contains("run again"), "\(outcome.stderr)")
            for leak in ["INSERT", "while executing", "NSCocoaError", "big.csv:"] {
                #expect(!outcome.stderr.contains(leak), "\(policy): \(outcome.stderr)")
            }
        }
        #expect(FileManager.default.contents(atPath: store) == before)
    }

    @Test func testNanAndInfinityAreRefusedForNumbers() throws {
        for (predicate, value) in [
            ("nickname == 'x' OR 1.5 > %f", "nan"), ("1.5 > %f", "infinity"), ("1.5 < %f", "-inf"),
        ] {
            let outcome = try StrataRunner.run([
                "query", store, "Contact", "--where", predicate, "--arg", value,
            ])
            #expect(outcome.status == 1, "\(value)")
            #expect(outcome.stderr.contains("is not a finite number"), "\(outcome.stderr)")
        }
    }

    @Test func testAVeryLongToOneKeyPathIsALocatedError() throws {
        let recipes = folder.path("r.sqlite")
        let created = try StrataRunner.run(["create", recipes, "--schemas", "Schemas/Recipes"])
        try #require(created.status == 0, "\(created.stderr)")
        let path = Array(repeating: "image.recipe", count: 60).joined(separator: ".")
        let outcome = try StrataRunner.run([
            "query", recipes, "Recipe", "--where", "\(path).name == 'x'",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: predicate error at column 1: "))
        #expect(outcome.stderr.contains("shorten the key path"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("FROM clause"))
        #expect(!outcome.stderr.contains("tables in a join"))
    }

    @Test func testASymlinkedWALIsNamed() throws {
        let target = folder.path("elsewhere")
        try Data().write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(
            atPath: store + "-wal", withDestinationPath: target)
        for arguments in [["info", store], ["query", store, "Contact", "--count"]] {
            let outcome = try StrataRunner.run(arguments)
            #expect(outcome.status == 1)
            #expect(
                outcome.stderr
                    == "error: \(store): cannot read the store: \(store)-wal is a symbolic "
                    + "link, and SQLite keeps the store's wal file as a plain file beside it; "
                    + "remove the link (its target is not part of the store) and run again; "
                    + "nothing was changed\n")
        }
    }
}
