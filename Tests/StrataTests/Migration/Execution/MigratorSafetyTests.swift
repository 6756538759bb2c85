import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataMigration
@testable import StrataStore

/// Issue 15's defects of the migrator, each as its reproduction made small:
/// a journal from the store that names a file outside Strata's own backup,
/// tables that do not fit the claimed version, connections held across a
/// copy stage, saves during a migration, and dry runs that must tell the
/// truth about the run.
struct MigratorSafetyTests {
    /// Options that let the Notes chain's lossy 1-2 step run.
    private var lossy: MigrationOptions {
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        return options
    }

    /// Writes `journal` into the store's metadata, as a crafted store would.
    private func plantJournal(_ journal: [String: RecordValue], in url: URL) throws {
        let store = try Store.open(at: url)
        var metadata = store.metadata
        metadata.otherKeys[MigrationJournal.key] = .dictionary(entries: journal)
        try store.connection.inTransaction(.immediate) { try store.writeMetadata(metadata) }
        try store.close()
    }

    /// Runs the whole chain (lossy steps accepted, `SummaryStep` for 2-3)
    /// and expects a ``MigrationError`` with `code` whose message contains
    /// every fragment, with the store's files left byte-identical.
    private func expectRunRefused(
        _ code: MigrationError.Code, saying fragments: [String], _ url: URL,
        _ setup: MigratorTestChain, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try storeFingerprint(url)
        var options = lossy
        options.customSteps[2] = SummaryStep()
        #expect(sourceLocation: sourceLocation) {
            try Migrator(storeAt: url, schemas: setup.folder, options: options).run()
        } throws: { error in
            let error = try #require(error as? MigrationError)
            return error.code == code && fragments.allSatisfy { error.message.contains($0) }
        }
        #expect(try storeFingerprint(url) == before, sourceLocation: sourceLocation)
    }

    // MARK: - 1. A journal names only Strata's own backup

    @Test func testJournalNamingAFileOutsideTheFolderIsRefusedAndTheFileKept() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        let victim = directory.file("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        for backup in ["../victim.txt", victim.path, "victim.txt", "Notes.sqlite"] {
            try plantJournal(
                [
                    "backup": .text(backup), "target": .integer(3), "start": .integer(1),
                    "completed": .array(values: []),
                ], in: url)
            try expectRunRefused(
                .invalidJournal, saying: ["StrataMigrationJournal.backup", backup], url, setup)
            #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
            expectMigrationError(.invalidJournal) {
                _ = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).preview()
            }
        }
    }

    @Test func testMalformedJournalFieldsAreRefusedNamingTheKey() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let cases: [(String, [String: RecordValue])] = [
            ("start", ["start": .text("1"), "target": .integer(3)]),
            ("target", ["start": .integer(2), "target": .integer(1)]),
            ("completed", ["start": .integer(1), "target": .integer(3), "completed": .integer(1)]),
            ("backup", ["start": .integer(1), "target": .integer(3), "backup": .integer(7)]),
        ]
        for (field, journal) in cases {
            try plantJournal(journal, in: url)
            #expect {
                _ = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).preview()
            } throws: { error in
                (error as? MigrationError)?.message.contains("StrataMigrationJournal.\(field)")
                    == true
            }
        }
    }

    // MARK: - 2. Tables that do not fit the version the metadata claims

    @Test func testStoreWithALaterVersionsTablesIsRefusedBeforeAnyWrite() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        // What a broken earlier migration left: version 1's metadata, with a
        // column of version 2 already there.
        let store = try Store.open(at: url)
        try store.connection.execute("ALTER TABLE ZNOTE ADD COLUMN ZPINNED INTEGER")
        try store.close()
        try expectRunRefused(
            .structureMismatch,
            saying: ["ZNOTE has column ZPINNED, which version 1 does not have and version 2 does"],
            url, setup)
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testStoreMissingAColumnOfItsVersionIsRefused() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let store = try Store.open(at: url)
        try store.connection.execute("ALTER TABLE ZNOTE DROP COLUMN ZKEYWORDS")
        try store.close()

        #expect {
            _ = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).preview()
        } throws: { error in
            (error as? MigrationError)?.message.contains("ZNOTE lacks ZKEYWORDS of version 1")
                == true
        }
    }

    // MARK: - 3. Connections held open across a copy stage

    /// The chain with `2-3.mapping.json`, so stage 2-3 runs on a copy.
    private func mappedChain() throws -> (TemporaryDirectory, MigratorTestChain, URL) {
        let (directory, setup, url) = try MigratorTestChain.populated()
        try Data(MigrationCrashTests.summaryMapping.utf8)
            .write(to: setup.folder.appendingPathComponent("2-3.mapping.json"))
        return (directory, setup, url)
    }

    @Test func testWritesOfAConnectionHeldAcrossACopyStageReachTheMigratedStore() throws {
        let (directory, setup, url) = try mappedChain()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let held = try Connection(path: url.path, mode: .readWrite)
        defer { try? held.close() }
        #expect(try held.scalar("SELECT COUNT(*) FROM ZNOTEBOOK")?.int64Value == 2)

        let report = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).run()
        #expect(report.completedStages == ["1-2", "2-3"])

        // The held connection works on the migrated file, not an orphan.
        try held.execute(
            "INSERT INTO ZNOTEBOOK (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCOLOR) VALUES (100, 1, 1, 'Late', 'red')"
        )
        let reopened = try Store.open(at: url, mode: .readOnly)
        defer { try? reopened.close() }
        #expect(
            try reopened.connection.scalar("SELECT ZCOLOR FROM ZNOTEBOOK WHERE ZNAME = 'Late'")
                == .text("red"))
        #expect(try reopened.connection.integrityCheck() == ["ok"])
    }

    @Test func testASaveOfAContextOpenedBeforeTheMigrationIsRefused() throws {
        let (directory, setup, url) = try mappedChain()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let v1 = try #require(try setup.chain.model(version: 1))
        let store = try Store.open(at: url)
        defer { try? store.close() }
        let context = try Context(store: store, model: v1)

        try Migrator(storeAt: url, schemas: setup.folder, options: lossy).run()

        let note = try context.insert("Note")
        try note.set("title", "Written with version 1's model")
        expectStoreError(.versionChanged) { try context.save() }
        let reopened = try Store.open(at: url, mode: .readOnly)
        defer { try? reopened.close() }
        #expect(try reopened.connection.scalar("SELECT COUNT(*) FROM ZNOTE")?.int64Value == 5)
    }

    /// A custom step that, while its stage works on the copy, has another
    /// connection commit a row to the store itself.
    private struct InterferingStep: CustomMigrationStep {
        let store: URL
        func migrate(_ work: CustomStepWork) throws {
            try SummaryStep().migrate(work)
            let other = try Connection(path: store.path, mode: .readWrite)
            try other.execute(
                "INSERT INTO ZNOTEBOOK (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (100, 1, 1, 'Meanwhile')")
            try other.close()
        }
    }

    @Test func testAWriteCommittedDuringACopyStageStopsTheStageAndIsKept() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        var options = lossy
        options.customSteps[2] = InterferingStep(store: url)

        expectMigrationError(.concurrentWrite) {
            _ = try Migrator(storeAt: url, schemas: setup.folder, options: options).run()
        }
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        #expect(try store.matchingVersion(in: setup.chain).version == 2)
        #expect(
            try store.connection.scalar("SELECT COUNT(*) FROM ZNOTEBOOK WHERE ZNAME = 'Meanwhile'")
                == .integer(1))
    }

    // MARK: - The lock

    @Test func testASaveWaitsForAMigrationsLockAndThenRefuses() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let v1 = try #require(try setup.chain.model(version: 1))
        let store = try Store.open(at: url)
        defer { try? store.close() }
        store.connection.busyTimeout = 0
        let context = try Context(store: store, model: v1)
        let note = try context.insert("Note")
        try note.set("title", "During the migration")

        let migration = try StoreLock(for: url, mode: .exclusive, waitingUpTo: 0)
        expectStoreError(.locked) { try context.save() }
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM ZNOTE")?.int64Value == 5)
        migration.release()
        try context.save()
        #expect(try store.connection.scalar("SELECT COUNT(*) FROM ZNOTE")?.int64Value == 6)
    }

    @Test func testAMigrationRefusesWhileTheLockIsTakenAndWritesNothing() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        let before = try storeFingerprint(url)
        let other = try StoreLock(for: url, mode: .shared, waitingUpTo: 0)
        var options = lossy
        options.lockTimeout = 0
        var waited = false
        options.waitingForLock = { waited = true }

        expectStoreError(.locked) {
            try Migrator(storeAt: url, schemas: setup.folder, options: options).run()
        }
        #expect(!waited)  // A timeout of 0 refuses without waiting.
        #expect(try storeFingerprint(url) == before)
        other.release()
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    // MARK: - 7. A refused run leaves a WAL where it was

    @Test func testARefusedRunDoesNotFoldTheWALIntoTheFile() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 2)
        // A store as a phone leaves it: recent rows only in its -wal file,
        // copied while the writing connection is still open.
        let writer = try Connection(path: url.path, mode: .readWrite)
        try writer.execute("UPDATE ZNOTE SET ZKEYWORDS = 'late' WHERE Z_PK = 1")
        let copy = directory.file("Copy.sqlite")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: url.path + suffix, toPath: copy.path + suffix)
        }
        try writer.close()
        let before = try storeFingerprint(copy)
        #expect(before[1] != "absent")

        // The loss of Note.keywords is not acknowledged: refused.
        expectMigrationError(.preflightFailed) {
            _ = try Migrator(storeAt: copy, schemas: setup.folder).run()
        }
        let after = try storeFingerprint(copy)
        #expect(after[0] == before[0] && after[1] == before[1])
    }

    // MARK: - 6. A dry run that passes means the run passes

    /// The Notes chain whose version 3 gives `summary` a `maxLength` of 8
    /// and adds a required `rank`, with a mapping for 2-3 from `mapping`.
    private func ruledChain(
        summary: String, rank: String
    ) throws -> (TemporaryDirectory, MigratorTestChain, URL) {
        let (directory, setup, url) = try MigratorTestChain.populated()
        let v3 = setup.folder.appendingPathComponent("3.json")
        let text = try String(contentsOf: v3, encoding: .utf8).replacingOccurrences(
            of: #""summary": { "type": "string" }"#,
            with:
                #""summary": { "type": "string", "maxLength": 8 }, "rank": { "type": "integer64" }"#
        )
        try Data(text.utf8).write(to: v3)
        let mapping = """
            {
              "format": "strata-mapping/1", "from": 2, "to": 3,
              "entities": { "Note": { "attributes": { "summary": "\(summary)", "rank": "\(rank)" } } }
            }
            """
        try Data(mapping.utf8).write(to: setup.folder.appendingPathComponent("2-3.mapping.json"))
        // Stage 2-3 (on a copy, filled by the mapping) is the run's first.
        var toTwo = lossy
        toTwo.targetVersion = 2
        try Migrator(storeAt: url, schemas: setup.folder, options: toTwo).run()
        return (directory, setup, url)
    }

    /// Checks that the dry run does not pass — it reports a blocking
    /// finding, or fails, saying `reason` — and that the run then fails
    /// in its first stage, leaving the store's file byte-identical with no
    /// journal and no backup.
    private func expectDryRunAndRunAgree(
        _ directory: TemporaryDirectory, _ setup: MigratorTestChain, _ url: URL,
        reason: String, target: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var lossy = self.lossy
        lossy.targetVersion = target
        let before = try storeFingerprint(url)
        let verdict: String
        do {
            let preview = try Migrator(storeAt: url, schemas: setup.folder, options: lossy)
                .preview()
            #expect(!preview.rehearsed, sourceLocation: sourceLocation)
            verdict = preview.blockingFindings.map(\.message).joined(separator: "\n")
        } catch {
            verdict = String(describing: error)
        }
        #expect(verdict.contains(reason), "\(verdict)", sourceLocation: sourceLocation)
        #expect(verdict.contains(url.relativePath), "\(verdict)", sourceLocation: sourceLocation)
        #expect(try storeFingerprint(url) == before, sourceLocation: sourceLocation)

        #expect(sourceLocation: sourceLocation) {
            try Migrator(storeAt: url, schemas: setup.folder, options: lossy).run()
        } throws: { error in String(describing: error).contains(reason) }
        #expect(try storeFingerprint(url)[0] == before[0], sourceLocation: sourceLocation)
        #expect(
            try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"],
            sourceLocation: sourceLocation)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        #expect(store.metadata.otherKeys[MigrationJournal.key] == nil)
    }

    @Test func testDryRunFindsAMappedValueThatBreaksADestinationRule() throws {
        let (directory, setup, url) = try ruledChain(
            summary: "concatenate('About ', title)", rank: "1")
        try expectDryRunAndRunAgree(directory, setup, url, reason: "summary allows at most 8")
    }

    @Test func testDryRunFindsADivisionByZeroLeavingARequiredValueNil() throws {
        let (directory, setup, url) = try ruledChain(summary: "'ok'", rank: "integer(1 / 0)")
        try expectDryRunAndRunAgree(directory, setup, url, reason: "rank")
    }

    @Test func testDryRunFindsAnIntegerOverflow() throws {
        let (directory, setup, url) = try ruledChain(
            summary: "'ok'", rank: "9223372036854775807 + length(title)")
        try expectDryRunAndRunAgree(directory, setup, url, reason: "integer overflow")
    }

    @Test func testDryRunFindsADamagedPageTheRunWouldRead() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(notes: 3000)
        try damageAPage(of: "ZNOTE", in: url)
        try expectDryRunAndRunAgree(directory, setup, url, reason: "malformed", target: 2)
    }

    @Test func testDryRunThatPassesSaysItRehearsedAndTheRunPasses() throws {
        let (directory, setup, url) = try ruledChain(summary: "'ok'", rank: "integer(2 * 3)")
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let before = try storeFingerprint(url)
        let preview = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).preview()
        #expect(preview.rehearsed && preview.blockingFindings.isEmpty)
        #expect(try storeFingerprint(url) == before)
        let report = try Migrator(storeAt: url, schemas: setup.folder, options: lossy).run()
        #expect(report.finalVersion == 3)
    }

    /// Overwrites the b-tree header of a non-root page of `table`, so reading
    /// the table fails with "database disk image is malformed" while the
    /// bookkeeping tables still read.
    private func damageAPage(of table: String, in url: URL) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        let root = try #require(
            try store.connection.scalar(
                "SELECT rootpage FROM sqlite_master WHERE name = ?", [.text(table)])?.int64Value)
        let pageSize = try #require(try store.connection.pragma("page_size")?.int64Value)
        try store.close()
        let handle = try FileHandle(forUpdating: url)
        // The root page of a table larger than one page is an interior page
        // (type 5); garbage there makes every read of the table fail.
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        let header = try #require(try handle.read(upToCount: 1))
        #expect(header == Data([5]), "the table should span several pages")
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 12))
        try handle.close()
    }
}
