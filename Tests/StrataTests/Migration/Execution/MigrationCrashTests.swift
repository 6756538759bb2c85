import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

/// Kills `strata migrate` (SIGKILL) at many moments of a two-stage run
/// (1-2 in place, 2-3 on a copy filled by a mapping file) and checks after
/// each kill that the store opens, passes `integrity_check` and its
/// relationship checks at the version it reports, and that a re-run of the
/// same command finishes with exactly the content of an uninterrupted run.
///
/// The moments come from the run itself, not a clock: `strata migrate
/// --progress` prints a line per progress report on stderr and is killed
/// after the k-th line, k drawn from a seeded generator over the whole run;
/// the process keeps working while the signal is on its way, so kills land
/// between reports too (inside statements, commits, the backup, the copy and
/// the rename). `STRATA_CRASH_ROWS` and `STRATA_CRASH_KILLS` scale it up (the
/// figures in the issue note: 200,000 rows, 50 kills).
struct MigrationCrashTests {
    private var rows: Int {
        Int(ProcessInfo.processInfo.environment["STRATA_CRASH_ROWS"] ?? "") ?? 20_000
    }
    private var kills: Int {
        Int(ProcessInfo.processInfo.environment["STRATA_CRASH_KILLS"] ?? "") ?? 50
    }

    /// The two-stage chain with its mapping, a version-1 store of `notes`
    /// notes (`pristine.sqlite`), and what an uninterrupted `strata migrate`
    /// of a copy of it prints (lines on stderr) and leaves (its content).
    struct Reference {
        var setup: MigratorTestChain
        var chain: SchemaChain
        var pristine: URL
        var lines: Int
        var expected: [UInt8]

        init(in directory: TemporaryDirectory, notes: Int) throws {
            setup = try MigratorTestChain(in: directory)
            try Data(MigrationCrashTests.summaryMapping.utf8)
                .write(to: setup.folder.appendingPathComponent("2-3.mapping.json"))
            chain = try setup.chain
            pristine = directory.file("pristine.sqlite")
            try MigrationCrashTests.makeLargeStore(at: pristine, chain: chain, notes: notes)
            let reference = directory.file("reference.sqlite")
            try FileManager.default.copyItem(at: pristine, to: reference)
            lines = try MigrationCrashTests.migrate(
                reference, schemas: setup.folder, killAfterLines: nil)
            expected = try MigrationCrashTests.content(of: reference)
        }
    }

    @Test func testKilledMigrationsLeaveSoundStoresAndRerunsFinishTheSame() throws {
        let directory = try TemporaryDirectory()
        let reference = try Reference(in: directory, notes: rows)
        let (setup, chain, pristine) = (reference.setup, reference.chain, reference.pristine)
        let (lines, expected) = (reference.lines, reference.expected)
        #expect(lines > 4)

        var generator = SplitMix(seed: 0x5EED)
        var killedAt: Set<Int> = []
        for round in 0..<kills {
            let store = directory.file("round.sqlite")
            for suffix in ["", "-wal", "-shm", ".strata-backup-v1"] {
                try? FileManager.default.removeItem(atPath: store.path + suffix)
            }
            try FileManager.default.copyItem(at: pristine, to: store)
            let k = Int(generator.next() % UInt64(lines + 1))
            killedAt.insert(k)
            _ = try Self.migrate(store, schemas: setup.folder, killAfterLines: k)

            let opened = try Store.open(at: store)
            #expect(try opened.connection.integrityCheck() == ["ok"], "round \(round), k \(k)")
            let version = try opened.matchingVersion(in: chain)
            #expect(try opened.checkRelationships(model: version).isEmpty, "round \(round)")
            try opened.close()

            _ = try Self.migrate(store, schemas: setup.folder, killAfterLines: nil)
            #expect(try Self.content(of: store) == expected, "round \(round), k \(k)")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            let stray = left.filter { $0.contains("strata-stage") || $0.contains("backup") }
            #expect(stray.isEmpty, "round \(round), k \(k): \(stray)")
        }
        #expect(killedAt.count >= min(lines + 1, kills) / 2)  // The moments really vary.
    }

    /// Version 3's required `Note.summary`, from the title.
    static let summaryMapping = """
        {
          "format": "strata-mapping/1", "from": 2, "to": 3,
          "entities": { "Note": { "attributes": { "summary": "concatenate('About ', title)" } } }
        }
        """

    // MARK: - The store

    /// A version-1 store with two notebooks and `notes` notes, written in SQL
    /// (the context is not what this test is about).
    static func makeLargeStore(at url: URL, chain: SchemaChain, notes: Int) throws {
        let model = try #require(chain.model(version: 1))
        let store = try Store.create(at: url, model: model)
        let mapping = try StoreMapping(model: model, store: store)
        let note = try #require(mapping.entities["Note"])
        let book = try #require(mapping.entities["Notebook"])
        let connection = store.connection
        try connection.inTransaction {
            let insertBook = try connection.prepare(
                "INSERT INTO \(book.table) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
            for (key, name) in [(1, "Work"), (2, "Home")] {
                try insertBook.execute([
                    .integer(Int64(key)), .integer(Int64(book.number)), .text(name),
                ])
            }
            let insertNote = try connection.prepare(
                "INSERT INTO \(note.table) (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZKEYWORDS, ZNOTEBOOK)"
                    + " VALUES (?, ?, 1, ?, ?, ?, ?)")
            for index in 1...notes {
                try insertNote.execute([
                    .integer(Int64(index)), .integer(Int64(note.number)), .text("Note \(index)"),
                    index % 2 == 1 ? .text("Body \(index)") : .null,
                    index % 3 == 0 ? .text("k\(index)") : .null, .integer(Int64(index % 2 + 1)),
                ])
            }
            try connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                [.integer(Int64(notes)), .integer(Int64(note.number))])
            try connection.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = ?", [.integer(Int64(book.number))])
        }
        try store.close()
    }

    /// SHA-256 over every row of every table and the version hashes. SQLite
    /// writes each table's rows as text (`quote` of every column, so a blob,
    /// a real and NULL each keep their exact value): built in Swift, row by
    /// row, the text took two thirds of this test's time in a debug build.
    static func content(of url: URL) throws -> [UInt8] {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        var text = store.metadata.versionHashes.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.base64EncodedString())" }.joined(separator: ",")
        let tables = try store.connection.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA')"
                + " ORDER BY name")
        var names: [String] = []
        try tables.forEachRow { names.append($0.text(at: 0) ?? "") }
        for name in names {
            let columns = try store.connection.prepare("SELECT name FROM pragma_table_info(?)")
            try columns.bind([.text(name)])
            var quoted: [String] = []
            try columns.forEachRow {
                quoted.append("quote(\(SQLiteIdentifier.quoted($0.text(at: 0) ?? "")))")
            }
            let rows = try store.connection.prepare(
                "SELECT " + quoted.joined(separator: " || '|' || ")
                    + " FROM \(SQLiteIdentifier.quoted(name)) ORDER BY 1")
            text += "\n#\(name)"
            try rows.forEachRow { row in
                text += "\n"
                text += row.text(at: 0) ?? ""
            }
        }
        return SHA256.hash(Array(text.utf8))
    }

    // MARK: - The process

    /// Runs `strata migrate --accept-lossy --progress`, killing it after
    /// `killAfterLines` lines of progress when given; returns the lines it
    /// printed. A run that is not killed must succeed.
    @discardableResult
    static func migrate(_ store: URL, schemas: URL, killAfterLines: Int?) throws -> Int {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "strata")
        process.arguments = [
            "migrate", store.path, "--schemas", schemas.path, "--accept-lossy", "--progress",
        ]
        let output = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output
        try process.run()
        var lines = 0
        var killed = false
        if killAfterLines == 0 {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // End of output: the process is gone.
            lines += chunk.filter { $0 == UInt8(ascii: "\n") }.count
            if !killed, let limit = killAfterLines, lines >= limit {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        if killAfterLines == nil {
            #expect(process.terminationStatus == 0, "an uninterrupted migration failed")
        }
        return lines
    }
}

/// A small seeded generator (SplitMix64), so the kill moments repeat.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
