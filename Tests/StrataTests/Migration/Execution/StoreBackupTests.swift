import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// ``StoreBackup``: the clone it makes, and the rule that makes it lazy — a
/// run makes its backup before the first stage that can lose something when
/// a stage follows it, and none when every stage only adds or the only lossy
/// stage is the last.
struct StoreBackupTests {
    /// A chain of Notes: v1 `Note {title, body?}`; v2 adds an optional
    /// `summary`, an indexed optional `rank` and an entity `Tag` (only adds);
    /// v3 removes `body` (lossy); v4 adds an optional `pinned`.
    private static func schema(_ version: Int) -> String {
        var attributes = [#""title": { "type": "string" }"#]
        if version >= 4 { attributes.append(#""pinned": { "type": "boolean", "optional": true }"#) }
        if version < 3 { attributes.append(#""body": { "type": "string", "optional": true }"#) }
        if version >= 2 {
            attributes.append(#""summary": { "type": "string", "optional": true }"#)
            attributes.append(
                #""rank": { "type": "integer64", "optional": true, "indexed": true }"#)
        }
        let tag =
            version >= 2 ? #", "Tag": { "attributes": { "name": { "type": "string" } } }"# : ""
        return """
            {
              "format": "strata-schema/1", "model": "Notes", "version": \(version),
              "versionIdentifier": "\(version).0",
              "entities": {
                "Note": { "attributes": { \(attributes.joined(separator: ", ")) } }\(tag)
              }
            }
            """
    }

    /// A folder with the chain up to `versions` and a v1 store of three notes.
    private static func populated(
        versions: Int
    ) throws -> (TemporaryDirectory, URL, SchemaChain) {
        let directory = try TemporaryDirectory()
        let folder = directory.file("Schemas/Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for version in 1...versions {
            try Data(schema(version).utf8).write(
                to: folder.appendingPathComponent("\(version).json"))
        }
        let chain = try SchemaChain.load(directory: folder)
        let model = try #require(chain.model(version: 1))
        let url = directory.file("Notes.sqlite")
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        for index in 1...3 {
            let note = try context.insert("Note")
            try note.set("title", "Note \(index)")
            try note.set("body", "Body \(index)")
        }
        try context.save()
        try store.close()
        return (directory, url, chain)
    }

    private static func backupNames(in directory: TemporaryDirectory) throws -> [String] {
        try directory.namesWithoutWAL().filter { $0.contains("strata-backup") }
    }

    // MARK: - The clone

    @Test func testTheBackupHoldsWhatOnlyTheWALHoldsAndLeavesTheStoreUntouched() throws {
        let (directory, url, _) = try Self.populated(versions: 1)
        // An app's last write, still in the WAL.
        let app = try Connection(path: url.path)
        try app.execute("UPDATE ZNOTE SET ZBODY = 'in the WAL' WHERE ZTITLE = 'Note 2'")
        try app.setCheckpointsOnClose(false)
        try app.close()
        let walBefore = try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal"))
        let fileBefore = try Data(contentsOf: url)
        #expect(!walBefore.isEmpty)

        let store = try Store.open(at: url)
        try store.connection.setCheckpointsOnClose(false)
        try StoreBackup.make(of: store, named: "Notes.sqlite.strata-backup-v1")
        try store.close()

        #expect(try Data(contentsOf: url) == fileBefore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")) == walBefore)
        let backupURL = directory.file("Notes.sqlite.strata-backup-v1")
        let backup = try Store.open(at: backupURL, mode: .readOnly)
        #expect(
            try backup.connection.scalar("SELECT ZBODY FROM ZNOTE WHERE ZTITLE = 'Note 2'")
                == .text("in the WAL"))
        #expect(backup.metadata.otherKeys[StoreBackup.markerKey] == .text(store.metadata.uuid))
        #expect(backup.metadata.otherKeys[MigrationJournal.key] == nil)
        #expect(try backup.connection.integrityCheck() == ["ok"])
        try backup.close()
        // Nothing but the store and its backup: no temporary copy, no WAL
        // beside the backup (the copy's was checkpointed into it).
        #expect(
            try directory.namesWithoutWAL() == [
                "Notes.sqlite", "Notes.sqlite.strata-backup-v1", "Schemas",
            ])
        #expect(FileSystem.size(of: backupURL.path + "-wal") == 0)
    }

    @Test func testABackupOfACheckpointedStoreIsItsFileWithTheMarker() throws {
        let (directory, url, _) = try Self.populated(versions: 1)
        let store = try Store.open(at: url)
        try StoreBackup.make(of: store, named: "Notes.sqlite.strata-backup-v1")
        let backup = try Store.open(at: directory.file("Notes.sqlite.strata-backup-v1"))
        #expect(backup.metadata.otherKeys[StoreBackup.markerKey] == .text(store.metadata.uuid))
        #expect(backup.metadata.versionHashes == store.metadata.versionHashes)
        #expect(try backup.connection.scalar("SELECT COUNT(*) FROM ZNOTE") == .integer(3))
        try backup.close()
        try store.close()
        // A second backup of that name is refused: the first is kept.
        let again = try Store.open(at: url)
        defer { try? again.close() }
        expectMigrationError(.fileInTheWay) {
            try StoreBackup.make(of: again, named: "Notes.sqlite.strata-backup-v1")
        }
    }

    // MARK: - The rule

    @Test func testOnlyAStageThatCanLoseSomethingNeedsABackup() throws {
        let (_, _, chain) = try Self.populated(versions: 3)
        func stage(_ from: Int, _ to: Int, step: (any CustomMigrationStep)? = nil) throws
            -> MigrationStage
        {
            MigrationStage(
                from: from, to: to, plan: try MigrationPlan(chain: chain, from: from, to: to),
                mapping: nil, customStep: step)
        }
        // A nullable column, an indexed one, a new entity: only adds.
        #expect(!StoreBackup.isNeeded(before: try stage(1, 2)))
        // A removed attribute: the table is rebuilt and values are lost.
        #expect(StoreBackup.isNeeded(before: try stage(2, 3)))
        #expect(StoreBackup.isNeeded(before: try stage(1, 3)))
        // A custom step fills a copy: whatever it writes replaces the data.
        #expect(StoreBackup.isNeeded(before: try stage(1, 2, step: IdleStep())))
    }

    @Test func testAnAddOnlyRunMakesNoBackup() throws {
        let (directory, url, chain) = try Self.populated(versions: 2)
        var seen: [String] = []
        let report = try Migrator(storeAt: url, chain: chain).run { _ in
            seen += (try? Self.backupNames(in: directory)) ?? ["unreadable"]
        }
        #expect(report.completedStages == ["1-2"])
        #expect(report.backup == .notNeeded)
        #expect(seen.isEmpty)
        #expect(try Self.backupNames(in: directory).isEmpty)
    }

    @Test func testALossyStageHasItsBackupWhileItRunsWhenAStageFollows() throws {
        let (directory, url, chain) = try Self.populated(versions: 4)
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[3] = IdleStep()  // Stage 3-4 of its own.
        var seen: [String: Set<String>] = [:]
        let report = try Migrator(storeAt: url, chain: chain, options: options).run {
            // The backup is finished while the stage works, and in place
            // when it commits.
            guard $0.activity == "done" else { return }
            seen[$0.stageName, default: []].formUnion(
                (try? Self.backupNames(in: directory)) ?? ["unreadable"])
        }
        #expect(report.completedStages == ["1-3", "3-4"])
        #expect(report.backup == .made(name: "Notes.sqlite.strata-backup-v1", beforeStage: "1-3"))
        #expect(seen["1-3"] == ["Notes.sqlite.strata-backup-v1"])
        #expect(try Self.backupNames(in: directory).isEmpty)
    }

    @Test func testALossyLastStageMakesNoBackup() throws {
        let (directory, url, chain) = try Self.populated(versions: 3)
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        var seen: Set<String> = []
        let report = try Migrator(storeAt: url, chain: chain, options: options).run { _ in
            seen.formUnion((try? Self.backupNames(in: directory)) ?? ["unreadable"])
        }
        #expect(report.completedStages == ["1-3"])
        #expect(report.backup == .notNeeded)
        #expect(seen.isEmpty)
    }

    @Test func testTheBackupIsMadeBeforeTheFirstStageThatCanLoseSomething() throws {
        let (directory, url, chain) = try Self.populated(versions: 4)
        var options = MigrationOptions()
        options.customSteps[2] = IdleStep()  // Stage 2-3 of its own, on a copy.
        options.customSteps[3] = IdleStep()  // And 3-4 after it.
        var seen: [String: Set<String>] = [:]
        var held: (version: Int, bodies: SQLiteValue?)?
        let report = try Migrator(storeAt: url, chain: chain, options: options).run {
            guard $0.activity == "done" else { return }  // Each stage committed.
            seen[$0.stageName, default: []].formUnion(
                (try? Self.backupNames(in: directory)) ?? ["unreadable"])
            guard $0.stageName == "2-3", held == nil else { return }
            let backup = try? Store.open(
                at: directory.file("Notes.sqlite.strata-backup-v2"), mode: .readOnly)
            held = try? backup.map {
                (
                    try $0.matchingVersion(in: chain).version,
                    try $0.connection.scalar("SELECT COUNT(ZBODY) FROM ZNOTE")
                )
            }
            try? backup?.close()
        }
        #expect(report.completedStages == ["1-2", "2-3", "3-4"])
        #expect(seen["1-2"] == [])
        // The version-2 store, stage 1-2 read from the WAL: everything
        // version 1 held, since 1-2 only added.
        #expect(seen["2-3"] == ["Notes.sqlite.strata-backup-v2"])
        #expect(held?.version == 2 && held?.bodies == .integer(3))
        #expect(report.backup == .made(name: "Notes.sqlite.strata-backup-v2", beforeStage: "2-3"))
        #expect(try Self.backupNames(in: directory).isEmpty)
    }

    @Test func testALateBackupIsRemovedWhenItsStageFailsAndTheRerunMakesItAgain() throws {
        let (directory, url, chain) = try Self.populated(versions: 4)
        var options = MigrationOptions()
        options.customSteps[2] = FailingStep()
        options.customSteps[3] = IdleStep()
        #expect(throws: FailingStep.Failure.self) {
            try Migrator(storeAt: url, chain: chain, options: options).run()
        }
        let middle = try Store.open(at: url)
        #expect(try middle.matchingVersion(in: chain).version == 2)
        let journal = try #require(try MigrationJournal(middle.metadata, store: url))
        #expect(journal.completedStages == ["1-2"] && journal.backupName == nil)
        try middle.close()
        #expect(try Self.backupNames(in: directory).isEmpty)

        options.customSteps[2] = IdleStep()
        var seen: Set<String> = []
        let report = try Migrator(storeAt: url, chain: chain, options: options).run {
            guard $0.activity == "done" else { return }
            seen.formUnion((try? Self.backupNames(in: directory)) ?? ["unreadable"])
        }
        #expect(report.resumedAfter == ["1-2"] && report.completedStages == ["2-3", "3-4"])
        #expect(seen == ["Notes.sqlite.strata-backup-v2"])
        #expect(try Self.backupNames(in: directory).isEmpty)
    }

    @Test func testNoBackupWhenTheRunIsToldNotToKeepOne() throws {
        let (directory, url, chain) = try Self.populated(versions: 3)
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.keepsBackup = false
        var seen: Set<String> = []
        let report = try Migrator(storeAt: url, chain: chain, options: options).run { _ in
            seen.formUnion((try? Self.backupNames(in: directory)) ?? ["unreadable"])
        }
        #expect(report.backup == .off)
        #expect(seen.isEmpty)
    }

    @Test func testAJournalMayNameTheBackupOfAVersionItPassesAndNoOther() throws {
        let (_, url, chain) = try Self.populated(versions: 1)
        let model = try #require(chain.model(version: 1))
        func journal(naming name: String) throws -> MigrationJournal? {
            var metadata = StoreMetadata(model: model)
            metadata.otherKeys[MigrationJournal.key] = .dictionary(entries: [
                "start": .integer(1), "target": .integer(3),
                "completed": .array(values: [.text("1-2")]),
                "backup": .text(name),
            ])
            return try MigrationJournal(metadata, store: url)
        }
        for version in 1...3 {
            let name = "Notes.sqlite.strata-backup-v\(version)"
            #expect(try journal(naming: name)?.backupName == name)
        }
        for name in [
            "Notes.sqlite.strata-backup-v4", "Notes.sqlite.strata-backup-v0",
            "Notes.sqlite.strata-backup-v02", "Notes.sqlite.strata-backup-v+2",
            "Other.sqlite.strata-backup-v1", "../Notes.sqlite.strata-backup-v1",
        ] {
            expectMigrationError(.invalidJournal) { _ = try journal(naming: name) }
        }
    }
}
