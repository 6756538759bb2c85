import Foundation
import Testing

/// `strata export`, `strata archive`, `strata unarchive`, and the demo's
/// bundle step, run as the built binary.
struct ExportCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    /// A diary store made by importing the sample (three entries, two icons).
    private func diary() throws -> String {
        let store = folder.path("Diary.sqlite")
        let outcome = try StrataRunner.run([
            "import", store, "Samples/Diary/diary.txt", "--schemas", "Schemas/Diary",
            "--entity", "DiaryEntry",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return store
    }

    @Test func testExportWritesCSVThatImportsAgain() throws {
        let store = try diary()
        let output = folder.path("entries.csv")
        let outcome = try StrataRunner.run([
            "export", store, "--entity", "DiaryEntry", "-o", output, "--fields",
            "creationTime,title,body", "--sort", "-creationTime", "--where",
            "title != 'Home again'",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Exported 2 DiaryEntry to \(output) (csv, "))
        #expect(
            try String(contentsOfFile: output, encoding: .utf8)
                == "creationTime,title,body\r\n"
                + "2024-05-01T19:10:00Z,Bells at dusk,\"Notre-Dame's bells, recorded from the quay.\"\r\n"
                + "2024-05-01T08:30:00Z,Sunrise over the Seine,\"Up before the city. The light on "
                + "the water was pink, then gold.\nCoffee on the bridge, a man walking three dogs.\"\r\n"
        )
        let again = try StrataRunner.run([
            "import", folder.path("Again.sqlite"), output, "--schemas", "Schemas/Diary",
            "--entity", "DiaryEntry",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("2 inserted"))
    }

    @Test func testExportRefusesAnExistingFileAndUnknownFields() throws {
        let store = try diary()
        let output = folder.path("entries.json")
        try Data("[]\n".utf8).write(to: URL(fileURLWithPath: output))
        let existing = try StrataRunner.run([
            "export", store, "--entity", "DiaryEntry", "-o", output,
        ])
        #expect(existing.status == 1)
        #expect(
            existing.stderr
                == "error: \(output): a file already exists here; not replacing it; give --force "
                + "to replace it\n")
        let unknown = try StrataRunner.run([
            "export", store, "--entity", "DiaryEntry", "-o", folder.path("x.json"), "--fields",
            "title,colour",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("DiaryEntry has no attribute or relationship 'colour'"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.json")))
        let format = try StrataRunner.run(["export", store, "-o", folder.path("x.dat")])
        #expect(format.status == 64)
    }

    @Test func testArchiveUnarchiveArchiveGivesTheSameBytes() throws {
        let store = try diary()
        let first = folder.path("first.zip")
        let archived = try StrataRunner.run(["archive", store, "-o", first])
        #expect(archived.status == 0, "\(archived.stderr)")
        #expect(
            archived.stdout.hasPrefix(
                "Archived \(store) (Diary version 4) to \(first): 3 DiaryEntry, 0 Medium, 4 Tag; "
                    + "2 media files (148 bytes); "))
        let restored = folder.path("Restored.sqlite")
        let unarchived = try StrataRunner.run(["unarchive", first, restored])
        #expect(unarchived.status == 0, "\(unarchived.stderr)")
        #expect(
            unarchived.stdout
                == "Unarchived \(first) into \(restored) at version 4: 3 DiaryEntry, 0 Medium, "
                + "4 Tag; 2 media files verified (148 bytes)\n")
        let second = folder.path("second.zip")
        #expect(try StrataRunner.run(["archive", restored, "-o", second]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: first))
                == Data(contentsOf: URL(fileURLWithPath: second)))
        // Never over an existing store.
        let again = try StrataRunner.run(["unarchive", first, restored])
        #expect(again.status == 1)
        #expect(again.stderr.contains("a store already exists here; not replacing it"))
    }

    @Test func testUnarchiveRefusesADamagedBundleAndWritesNothing() throws {
        let bundle = folder.path("bad.zip")
        try Data("PK\u{5}\u{6}not really a zip".utf8).write(to: URL(fileURLWithPath: bundle))
        let outcome = try StrataRunner.run(["unarchive", bundle, folder.path("New.sqlite")])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: \(bundle)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["bad.zip"])
    }

    @Test func testDemoArchivesTheDiaryAndRestoresItWithTheSameMedia() throws {
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stdout.contains(
                "== Diary bundle: archived \(demo)/Diary-v1-migrated.sqlite to \(demo)/Diary.zip "
                    + "(3 media files, "))
        #expect(
            outcome.stdout.contains(
                """
                  ENTITY      ORIGINAL  RESTORED
                  DiaryEntry  4         4
                  Medium      3         3
                  Tag         4         4
                Media bytes  3 of 3 files identical in the restored store
                """))
    }
}
