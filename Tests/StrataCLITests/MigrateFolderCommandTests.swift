import Foundation
import Strata
import Testing

/// Issue 25, point 3: `strata migrate` on a folder or a list of stores, N
/// at a time, one result per store (a JSON line with `--json`); a store
/// refused or failed never stops the others, and the exit status is 0 only
/// when every store ended migrated or up to date.
struct MigrateFolderCommandTests {
    /// A Diary store named `name` in `folder` at `version`; at version 1
    /// it holds two diary entries.
    private func diary(_ name: String, version: Int, in folder: String) throws -> String {
        let store = "\(folder)/\(name)"
        let created = try StrataRunner.run([
            "create", store, "--schemas", "Schemas/Diary", "--version", "\(version)",
        ])
        try #require(created.status == 0, "\(created.stderr)")
        if version == 1 {
            let scratch = try ScratchFolder()  // Not in `folder`: its files are stores.
            let input = scratch.path("entries.ndjson")
            try Data("{\"text\": \"one\"}\n{\"text\": \"two\"}\n".utf8)
                .write(to: URL(fileURLWithPath: input))
            let load = try StrataRunner.run(["import", store, input, "--entity", "DiaryEntry"])
            try #require(load.status == 0, "\(load.stderr)")
        }
        return store
    }

    /// A Notes store (another model) named `name` in `folder`.
    private func notes(_ name: String, in folder: String) throws -> String {
        let store = "\(folder)/\(name)"
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/Notes"])
        try #require(created.status == 0, "\(created.stderr)")
        return store
    }

    /// A folder `stores` in `scratch`.
    private func folder(in scratch: ScratchFolder) throws -> String {
        let folder = scratch.path("stores")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The JSON lines of `stdout` by the file name of their path; every
    /// line must be one JSON object.
    private func lines(_ stdout: String) throws -> [String: [String: Any]] {
        var byName: [String: [String: Any]] = [:]
        for line in stdout.split(separator: "\n") {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "\(line)")
            let path = try #require(object["path"] as? String)
            byName[URL(fileURLWithPath: path).lastPathComponent] = object
        }
        return byName
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func testSixStoresTwoAtATimeGiveSixLinesWithTheirOutcomes() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        _ = try diary("a-v1.sqlite", version: 1, in: folder)
        _ = try diary("b-v2.sqlite", version: 2, in: folder)
        _ = try diary("c-v4.sqlite", version: 4, in: folder)
        let other = try notes("d-notes.sqlite", in: folder)
        let locked = try diary("e-locked.sqlite", version: 1, in: folder)
        let damaged = try diary("f-damaged.sqlite", version: 1, in: folder)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: damaged))
        try handle.truncate(atOffset: 8192)  // Its tables' pages are gone.
        try handle.close()
        let before = try [other, locked, damaged].map(bytes)
        let lock = try StoreLock(for: URL(fileURLWithPath: locked), mode: .shared, waitingUpTo: 0)

        let outcome = try StrataRunner.run([
            "migrate", folder, "--schemas", "Schemas/Diary", "--jobs", "2", "--json",
            "--wait", "0",
        ])
        lock.release()

        #expect(outcome.status == 1)
        #expect(outcome.stdout.split(separator: "\n").count == 6, "\(outcome.stdout)")
        let lines = try lines(outcome.stdout)
        #expect(
            lines.mapValues { $0["outcome"] as? String } == [
                "a-v1.sqlite": "migrated", "b-v2.sqlite": "migrated", "c-v4.sqlite": "up-to-date",
                "d-notes.sqlite": "refused", "e-locked.sqlite": "refused",
                "f-damaged.sqlite": "failed",
            ])
        let first = try #require(lines["a-v1.sqlite"])
        #expect(first["from"] as? Int == 1 && first["to"] as? Int == 4)
        #expect(first["problems"] as? [String] == [])
        #expect(first["dryRun"] as? Bool == false)
        #expect(first["seconds"] is Double || first["seconds"] is Int)
        let counts = try #require(first["counts"] as? [String: Any])
        #expect((counts["before"] as? [String: Int])?["DiaryEntry"] == 2)
        #expect((counts["after"] as? [String: Int])?["DiaryEntry"] == 2)
        #expect(lines["b-v2.sqlite"]?["from"] as? Int == 2)
        #expect(lines["c-v4.sqlite"]?["from"] as? Int == 4)
        let problems = lines.mapValues { ($0["problems"] as? [String])?.joined() ?? "" }
        #expect(problems["d-notes.sqlite"]?.contains("matches no version of Diary") == true)
        #expect(
            problems["e-locked.sqlite"]?.contains(
                "another process is migrating or saving to the store") == true)
        #expect(problems["f-damaged.sqlite"]?.contains("malformed") == true)
        #expect(lines["f-damaged.sqlite"]?["from"] is NSNull)
        #expect(
            outcome.stderr.contains("3 of 6 stores were refused or failed: 2 refused, 1 failed"),
            "\(outcome.stderr)")
        // The refused and failed stores are as they were; the others moved on.
        #expect(try [other, locked, damaged].map(bytes) == before)
        let again = try StrataRunner.run([
            "migrate", "\(folder)/a-v1.sqlite", "\(folder)/b-v2.sqlite", "--schemas",
            "Schemas/Diary", "--json",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            try self.lines(again.stdout).mapValues { $0["outcome"] as? String } == [
                "a-v1.sqlite": "up-to-date", "b-v2.sqlite": "up-to-date",
            ])
    }

    @Test func testAFolderWhoseStoresAllMigrateExitsZeroAndLeavesNoBackups() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        _ = try diary("a.sqlite", version: 1, in: folder)
        _ = try diary("b.sqlite", version: 4, in: folder)

        let outcome = try StrataRunner.run([
            "migrate", folder, "--schemas", "Schemas/Diary", "--jobs", "2",
        ])

        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\(folder)/a.sqlite: migrated from version 1 to 4 ("))
        #expect(outcome.stdout.contains("\(folder)/b.sqlite: up to date at version 4 ("))
        #expect(
            outcome.stdout.hasSuffix("2 stores: 1 migrated, 1 up to date, 0 refused, 0 failed.\n"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "a.sqlite", "b.sqlite",
            ])
    }

    @Test func testADryRunOfAFolderSaysWhatEachStoreWouldDoAndWritesNothing() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        let stores = [
            try diary("a.sqlite", version: 1, in: folder),
            try diary("b.sqlite", version: 4, in: folder),
            try notes("c.sqlite", in: folder),
        ]
        let before = try stores.map(bytes)

        let outcome = try StrataRunner.run([
            "migrate", folder, "--schemas", "Schemas/Diary", "--dry-run", "--json",
        ])

        #expect(outcome.status == 1)
        let lines = try lines(outcome.stdout)
        #expect(
            lines.mapValues { $0["outcome"] as? String } == [
                "a.sqlite": "migrated", "b.sqlite": "up-to-date", "c.sqlite": "refused",
            ])
        #expect(lines.values.allSatisfy { $0["dryRun"] as? Bool == true })
        let counts = try #require(lines["a.sqlite"]?["counts"] as? [String: Any])
        #expect((counts["before"] as? [String: Int])?["DiaryEntry"] == 2)
        #expect(counts["after"] is NSNull)
        #expect(
            outcome.stderr.contains(
                "1 of 3 stores would not migrate: 1 refused, 0 failed; nothing was changed"))
        #expect(try stores.map(bytes) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 3)

        let clean = try StrataRunner.run([
            "migrate", stores[0], stores[1], "--schemas", "Schemas/Diary", "--dry-run",
        ])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout.contains("a.sqlite: would be migrated from version 1 to 4 ("))
        #expect(clean.stdout.hasSuffix("Dry run: nothing was changed.\n"))
        #expect(try stores.map(bytes) == before)
    }

    /// A file of the folder that is not a store has its line; files SQLite
    /// and Strata keep beside stores, hidden files and subfolders have none.
    @Test func testAFileThatIsNoStoreIsRefusedAndCompanionFilesAreSkipped() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        _ = try diary("a.sqlite", version: 1, in: folder)
        let skipped = [
            "other.sqlite-wal", "other.sqlite-shm", "other.sqlite-journal",
            "other.sqlite.strata-lock",
            "other.sqlite.strata-backup-v1", ".hidden.sqlite",
        ]
        for name in skipped + ["notes.txt"] {
            try Data("not a store\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        try FileManager.default.createDirectory(
            atPath: "\(folder)/inner", withIntermediateDirectories: true)
        _ = try diary("deeper.sqlite", version: 1, in: "\(folder)/inner")

        let outcome = try StrataRunner.run([
            "migrate", folder, "--schemas", "Schemas/Diary", "--json", "--jobs", "1",
        ])

        #expect(outcome.status == 1)
        let lines = try lines(outcome.stdout)
        #expect(
            lines.mapValues { $0["outcome"] as? String } == [
                "a.sqlite": "migrated", "notes.txt": "refused",
            ])
        #expect(
            (lines["notes.txt"]?["problems"] as? [String])?.first?.contains(
                "not an SQLite database") == true)
    }

    /// Stores named one by one: a missing one and an empty folder have their
    /// lines; a store named twice is migrated once.
    @Test func testStoresNamedOneByOneEachGetALine() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        let store = try diary("a.sqlite", version: 1, in: folder)
        let empty = scratch.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)

        let outcome = try StrataRunner.run([
            "migrate", store, scratch.path("missing.sqlite"), empty, store, "--schemas",
            "Schemas/Diary", "--json", "--progress",
        ])

        #expect(outcome.status == 1)
        #expect(outcome.stdout.split(separator: "\n").count == 3, "\(outcome.stdout)")
        let lines = try lines(outcome.stdout)
        #expect(
            lines.mapValues { $0["outcome"] as? String } == [
                "a.sqlite": "migrated", "missing.sqlite": "refused", "empty": "refused",
            ])
        #expect(
            (lines["empty"]?["problems"] as? [String])
                == ["\(empty): a folder without store files"])
        // --progress: a line per store on stderr as it ends.
        #expect(outcome.stderr.contains("[1/3] "))
        #expect(outcome.stderr.contains("[3/3] "))
        #expect(outcome.stderr.contains("a.sqlite: migrated from version 1 to 4 ("))
    }

    /// Schemas that do not load are no store's fault: the command stops
    /// before any store, with no line.
    @Test func testSchemasThatDoNotLoadStopTheRunBeforeAnyStore() throws {
        let scratch = try ScratchFolder()
        let folder = try folder(in: scratch)
        let store = try diary("a.sqlite", version: 1, in: folder)
        let before = try bytes(store)

        let outcome = try StrataRunner.run([
            "migrate", folder, "--schemas", scratch.path("none"), "--json",
        ])

        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.hasPrefix("error: \(scratch.path("none")): "), "\(outcome.stderr)")
        #expect(try bytes(store) == before)
    }

    @Test func testJobsBelowOneIsBadUsage() throws {
        let outcome = try StrataRunner.run([
            "migrate", "Samples", "--schemas", "Schemas/Diary", "--jobs", "0",
        ])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: '--jobs' must be 1 or more"))
    }
}
