import Foundation
import Strata
import Testing

/// SIGKILLs of `unarchive`, a Day One import and `import` into an existing
/// store, at moments drawn from a seeded generator over each run's own
/// progress (``KillRunner``): after each kill the target holds the old state
/// or the new one and passes `integrity_check`, and the next run of a
/// command on it leaves no work file behind (issue 27, point 10 and its
/// crash-and-kill item). `STRATA_CLI_KILLS` scales the number of kills.
struct KillCommandTests {
    private let folder: ScratchFolder
    private let kills = Int(ProcessInfo.processInfo.environment["STRATA_CLI_KILLS"] ?? "") ?? 30

    init() throws {
        folder = try ScratchFolder()
    }

    /// A CSV of `rows` contacts.
    private func contactsCSV(rows: Int, named name: String) throws -> String {
        var text = "firstName,lastName,nickname\n"
        for index in 0..<rows {
            text += "Name\(index),Family\(index),nick \(index) with some text to write\n"
        }
        let path = folder.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The rows of `table`, after checking the store's integrity; nil when
    /// there is no store.
    private func rows(of store: String, table: String) throws -> Int64? {
        guard FileManager.default.fileExists(atPath: store) else { return nil }
        let opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
        defer { try? opened.close() }  // Read only.
        #expect(try opened.connection.integrityCheck() == ["ok"])
        return try opened.connection.scalar("SELECT COUNT(*) FROM \(table)")?.int64Value
    }

    private func require(_ arguments: [String]) throws {
        let outcome = try StrataRunner.run(arguments)
        try #require(outcome.status == 0, "\(arguments): \(outcome.stderr)")
    }

    /// Kills `arguments` `kills` times after a reset, checks the state with
    /// `check`, runs the command `next` gives and checks that no work file
    /// is left.
    private func killRepeatedly(
        _ arguments: [String], seed: UInt64, reset: () throws -> Void,
        check: (_ round: Int) throws -> Void, next: () -> [String]
    ) throws {
        try reset()
        let reference = try KillRunner.run(arguments, killAfterWriting: nil)
        try #require(reference.status == 0, "the uninterrupted run failed")
        try #require(reference.written > 0)
        var generator = SeededGenerator(seed: seed)
        var killedRuns = 0
        for round in 0..<kills {
            try reset()
            let threshold = round == 0 ? 0 : generator.next(below: reference.written)
            let run = try KillRunner.run(arguments, killAfterWriting: threshold)
            if run.killed { killedRuns += 1 }
            try check(round)
            let after = try StrataRunner.run(next())
            #expect(after.status == 0, "round \(round): \(after.stderr)")
            let left = try KillRunner.leftovers(in: folder.url)
            #expect(left == [], "round \(round), killed after \(threshold) bytes: \(left)")
        }
        #expect(killedRuns >= kills * 2 / 3, "most runs were killed before they ended")
    }

    @Test func testKilledUnarchiveLeavesNoStoreOrAWholeOneAndNoLeftovers() throws {
        let source = folder.path("source.sqlite")
        try require([
            "import", source, try contactsCSV(rows: 3000, named: "in.csv"), "--schemas",
            "Schemas/Contacts",
        ])
        let bundle = folder.path("bundle.zip")
        try require(["archive", source, "-o", bundle])
        let store = folder.path("s.sqlite")
        try killRepeatedly(
            ["unarchive", bundle, store], seed: 0x0B0E,
            reset: { for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) } },
            check: { round in
                let count = try rows(of: store, table: "ZCONTACT")
                #expect(
                    count == nil || count == 3000, "round \(round): \(String(describing: count))")
            },
            next: {
                FileManager.default.fileExists(atPath: store)
                    ? ["info", store] : ["unarchive", bundle, store]
            })
    }

    @Test func testKilledImportIntoAStoreKeepsTheOldOrTheNewState() throws {
        let pristine = folder.path("pristine.sqlite")
        try require([
            "import", pristine, try contactsCSV(rows: 1, named: "one.csv"), "--schemas",
            "Schemas/Contacts",
        ])
        let input = try contactsCSV(rows: 4000, named: "in.csv")
        let store = folder.path("s.sqlite")
        try killRepeatedly(
            ["import", store, input], seed: 0x1A7E,
            reset: {
                for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
                try FileManager.default.copyItem(atPath: pristine, toPath: store)
            },
            check: { round in
                let count = try rows(of: store, table: "ZCONTACT")
                #expect(count == 1 || count == 4001, "round \(round): \(String(describing: count))")
            },
            next: { ["info", store] })
    }

    /// A Day One export of `entries` entries, each with a tag, and a photo
    /// on every tenth.
    private func dayOneExport(entries: Int) throws -> String {
        let photo = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x22, count: 2000))
        let md5 = MD5.hex(MD5.hash(photo))
        var items: [String] = []
        for index in 0..<entries {
            let identifier = String(format: "%032X", index + 1)
            let photos =
                index % 10 == 0
                ? #", "photos": [{"identifier": "\#(identifier)", "md5": "\#(md5)", "type": "jpeg"}]"#
                : ""
            items.append(
                #"{"uuid": "\#(String(format: "%032X", index + 0x1000))", "#
                    + #""creationDate": "2024-05-01T08:30:00Z", "#
                    + #""text": "Entry \#(index): some words to store", "tags": ["t\#(index % 7)"]\#(photos)}"#
            )
        }
        let journal =
            #"{"metadata": {"version": "1.0"}, "entries": ["# + items.joined(separator: ",\n")
            + "]}"
        let path = folder.path("dayone.zip")
        try ZipWriter.write(to: URL(fileURLWithPath: path)) { zip in
            try zip.add(path: "Journal.json", bytes: Data(journal.utf8))
            try zip.add(path: "photos/\(md5).jpeg", bytes: photo, compression: .stored)
        }
        return path
    }

    @Test func testKilledDayOneImportKeepsTheOldOrTheNewStateAndNoScratch() throws {
        let pristine = folder.path("pristine.sqlite")
        try require(["create", pristine, "--schemas", "Schemas/Diary"])
        let input = try dayOneExport(entries: 400)
        let store = folder.path("s.sqlite")
        try killRepeatedly(
            ["import", store, input, "--format", "dayone"], seed: 0xD1A7,
            reset: {
                for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
                try FileManager.default.copyItem(atPath: pristine, toPath: store)
            },
            check: { round in
                let count = try rows(of: store, table: "ZDIARYENTRY")
                #expect(count == 0 || count == 400, "round \(round): \(String(describing: count))")
            },
            next: { ["info", store] })
    }
}
