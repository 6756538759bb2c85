import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Runs of ``Migrator`` on populated stores: rows, metadata, backups,
/// journal, and the refusals that come before any write.
struct MigratorTests {
    /// Notes of the migrated store by title: (text, pinned, summary, notebook name).
    private func notes(_ url: URL, model: Model) throws -> [String: [String?]] {
        let store = try Store.open(at: url)
        defer { try? store.close() }
        let context = try Context(store: store, model: model)
        var rows: [String: [String?]] = [:]
        for note in try context.fetch(FetchRequest(entity: "Note")) {
            let title = try note.string("title") ?? "?"
            let summary = model.version >= 3 ? try note.string("summary") : nil
            rows[title] = [
                try note.string("text"), try note.bool("pinned").map { "\($0)" }, summary,
                try note.object(forKey: "notebook")?.string("name"),
            ]
        }
        return rows
    }

    @Test func testRunMovesEveryRowWritesTheNewHashesAndCleansUp() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 2)
        let uuid = try Store.open(at: url, mode: .readOnly).metadata.uuid
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.reportsRowCounts = true

        let report = try Migrator(storeAt: url, schemas: setup.folder, options: options).run()

        #expect(report.startVersion == 1 && report.finalVersion == 2)
        #expect(report.completedStages == ["1-2"])
        #expect(report.rowsBefore == ["Note": 5, "Notebook": 2])
        #expect(report.rowsAfter == ["Note": 5, "Notebook": 2])
        let v2 = try #require(try setup.chain.model(version: 2))
        #expect(
            try notes(url, model: v2) == [
                "Note 1": ["Body 1", "false", nil, "Home"], "Note 2": [nil, "false", nil, "Work"],
                "Note 3": ["Body 3", "false", nil, "Home"], "Note 4": [nil, "false", nil, "Work"],
                "Note 5": ["Body 5", "false", nil, "Home"],
            ])
        let store = try Store.open(at: url)
        defer { try? store.close() }
        #expect(store.metadata.versionHashes == v2.versionHashes.mapValues { Data($0) })
        #expect(store.metadata.checksum == v2.versionChecksum)
        #expect(store.metadata.modelVersion == 2)
        #expect(store.metadata.uuid == uuid)
        #expect(store.metadata.otherKeys[MigrationJournal.key] == nil)
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(try store.checkRelationships(model: v2).isEmpty)
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testDryRunCountsRowsFindsTheLossAndLeavesTheFilesByteIdentical() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 2)
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let before = try storeFingerprint(url)

        let preview = try Migrator(storeAt: url, schemas: setup.folder).preview()

        #expect(try storeFingerprint(url) == before)
        #expect(preview.currentVersion == 1 && preview.targetVersion == 2)
        #expect(preview.stages.map(\.stage.name) == ["1-2"])
        let removal = try #require(
            preview.stages.first?.steps.first { $0.step.kind == .removeAttribute })
        #expect(removal.rows == 5 && removal.resolution == .unresolved)
        #expect(
            preview.blockingFindings.map(\.message) == [
                "1 values of Note.keywords would be dropped; acknowledge it with \"discard\": "
                    + "[\"Note.keywords\"] in 1-2.mapping.json or pass --accept-lossy"
            ])
    }

    @Test func testUnacknowledgedLossIsRefusedBeforeAnyWrite() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 2)
        let before = try storeFingerprint(url)

        expectMigrationError(.preflightFailed) {
            _ = try Migrator(storeAt: url, schemas: setup.folder).run()
        }
        #expect(try storeFingerprint(url) == before)
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testNeedsMappingStepWithoutDataIsNotBlocking() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(notes: 0)
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.reportsRowCounts = true

        let report = try Migrator(storeAt: url, schemas: setup.folder, options: options).run()

        #expect(report.finalVersion == 3)
        #expect(report.rowsAfter == ["Note": 0, "Notebook": 2])
    }

    @Test func testNeedsMappingStepWithDataIsRefusedWithTheCount() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        var options = MigrationOptions()
        options.acceptsLossySteps = true

        let preview = try Migrator(storeAt: url, schemas: setup.folder, options: options).preview()

        #expect(
            preview.blockingFindings.map(\.message) == [
                "5 rows of Note need a value for summary; version 3 requires it and gives no "
                    + "default; supply it in 2-3.mapping.json"
            ])
    }

    @Test func testCustomStepFillsARequiredValueInBatchesOnACopy() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[2] = SummaryStep()
        options.batchSize = 2
        var reports: [MigrationProgress] = []

        let report = try Migrator(storeAt: url, schemas: setup.folder, options: options)
            .run { reports.append($0) }

        #expect(report.completedStages == ["1-2", "2-3"])
        let v3 = try #require(try setup.chain.model(version: 3))
        let rows = try notes(url, model: v3)
        #expect(rows["Note 4"] == [nil, "false", "About Note 4", "Work"])
        #expect(rows["Note 5"] == ["Body 5", "false", "About Note 5", "Home"])
        #expect(rows.count == 5)
        // Batches of two: progress after 2, 4 and the end (5).
        let custom = reports.filter { $0.activity == "custom step: Note" }.map(\.rowsDone)
        #expect(custom == [2, 4, 5])
        let store = try Store.open(at: url)
        defer { try? store.close() }
        #expect(store.metadata.versionHashes == v3.versionHashes.mapValues { Data($0) })
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testFailedStageLeavesTheLastBoundaryAndARerunResumes() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[2] = FailingStep()

        #expect(throws: FailingStep.Failure.self) {
            try Migrator(storeAt: url, schemas: setup.folder, options: options).run()
        }
        // Stage 1-2 committed: the store is a sound version-2 store whose
        // journal names the run, and the backup of version 1 is kept.
        let middle = try Store.open(at: url)
        let v2 = try #require(try setup.chain.model(version: 2))
        #expect(try middle.matchingVersion(in: setup.chain).version == 2)
        let journal = try #require(try MigrationJournal(middle.metadata, store: url))
        #expect(journal.completedStages == ["1-2"] && journal.targetVersion == 3)
        #expect(try middle.checkRelationships(model: v2).isEmpty)
        try middle.close()
        #expect(
            try directory.namesWithoutWAL() == [
                "Notes.sqlite", "Notes.sqlite.strata-backup-v1", "Schemas",
            ])
        let backup = try Store.open(at: directory.file("Notes.sqlite.strata-backup-v1"))
        #expect(try backup.matchingVersion(in: setup.chain).version == 1)
        try backup.close()

        options.customSteps[2] = SummaryStep()
        let report = try Migrator(storeAt: url, schemas: setup.folder, options: options).run()

        #expect(report.startVersion == 2 && report.resumedAfter == ["1-2"])
        #expect(report.completedStages == ["2-3"])
        let v3 = try #require(try setup.chain.model(version: 3))
        #expect(try notes(url, model: v3)["Note 1"] == ["Body 1", "false", "About Note 1", "Home"])
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testStageWhoseResultFailsTheChecksIsRolledBack() throws {
        let (directory, setup, url) = try MigratorTestChain.populated()
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.keepsBackup = false
        options.customSteps[2] = IdleStep()

        do {
            try Migrator(storeAt: url, schemas: setup.folder, options: options).run()
            Issue.record("the run should have failed its checks")
        } catch let error as MigrationError {
            #expect(error.code == .verificationFailed)
            #expect(
                error.message.contains(
                    "Note.summary: 5 objects have no value, but version 3 requires one"))
        }
        let store = try Store.open(at: url)
        defer { try? store.close() }
        #expect(try store.matchingVersion(in: setup.chain).version == 2)
        #expect(try directory.namesWithoutWAL() == ["Notes.sqlite", "Schemas"])
    }

    @Test func testUpToDateStoreIsLeftAlone() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 1)
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let before = try storeFingerprint(url)

        let report = try Migrator(storeAt: url, schemas: setup.folder).run()

        #expect(report.completedStages.isEmpty && report.finalVersion == 1)
        #expect(try storeFingerprint(url) == before)
    }

    @Test func testDowngradeIsRefused() throws {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory)
        let url = directory.file("Notes.sqlite")
        _ = try Store.create(at: url, model: try #require(try setup.chain.model(version: 3)))
        var options = MigrationOptions()
        options.targetVersion = 2

        expectMigrationError(.downgrade) {
            _ = try Migrator(storeAt: url, schemas: setup.folder, options: options).preview()
        }
    }

    @Test func testStoreNewerThanTheSchemasIsRefused() throws {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory)
        let url = directory.file("Notes.sqlite")
        try Store.create(at: url, model: try #require(try setup.chain.model(version: 3))).close()
        try FileManager.default.removeItem(at: setup.folder.appendingPathComponent("3.json"))
        let before = try storeFingerprint(url)

        expectMigrationError(.newerThanSchemas) {
            _ = try Migrator(storeAt: url, schemas: setup.folder).run()
        }
        #expect(try storeFingerprint(url) == before)
    }

    @Test func testStoreOfAnotherModelIsRefusedAsUnknown() throws {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory)
        let url = directory.file("Other.sqlite")
        try Store.create(at: url, model: FixtureModels.bnrV1()).close()

        expectMigrationError(.unknownStoreVersion) {
            _ = try Migrator(storeAt: url, schemas: setup.folder).run()
        }
    }
}

/// What a stage's checks read: only the tables and properties it touched.
struct MigrationVerifierScopeTests {
    /// Version 1 of the test chain, a copy numbered 2 to change, and the
    /// index of `Note` in it.
    private static func versions() throws -> (v1: Model, v2: Model, note: Int) {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory, versions: 1)
        let v1 = try #require(try setup.chain.model(version: 1))
        var v2 = v1
        v2.version = 2
        return (v1, v2, try #require(v2.entities.firstIndex { $0.name == "Note" }))
    }

    @Test func testAddingANullableAttributeTouchesNoTable() throws {
        var (v1, v2, index) = try Self.versions()
        var mood = Attribute(name: "mood", type: .string)
        mood.isOptional = true
        v2.entities[index].attributes.append(mood)

        let scope = MigrationVerifier.scope(ofInPlace: MigrationPlan(from: v1, to: v2))

        #expect(scope.tables.isEmpty)
        #expect(scope.properties?["Note"] == ["mood"])
    }

    @Test func testOnlyStepsThatCanLeaveAValueMissingAreChecked() throws {
        var (v1, v2, index) = try Self.versions()
        let title = try #require(v2.entities[index].attributes.firstIndex { $0.name == "title" })
        v2.entities[index].attributes[title].renamedFrom = "title"
        v2.entities[index].attributes[title].name = "heading"  // Values copied.
        var pinned = Attribute(name: "pinned", type: .boolean)
        pinned.defaultValue = .literal(.boolean(false))  // Filled with the default.
        let rank = Attribute(name: "rank", type: .integer64)  // Required, nothing fills it.
        v2.entities[index].attributes += [pinned, rank]

        let plan = MigrationPlan(from: v1, to: v2)
        let scope = MigrationVerifier.scope(ofInPlace: plan)

        #expect(Set(plan.steps.compactMap(\.property)) == ["heading", "pinned", "rank"])
        #expect(scope.properties?["Note"] == ["rank"])
    }

    @Test func testRelationshipChecksCanBeLimitedToTables() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(versions: 1, notes: 2)
        defer { withExtendedLifetime(directory) {} }  // Keeps the folder until the end.
        let store = try Store.open(at: url)
        defer { try? store.close() }
        try store.connection.execute("UPDATE ZNOTE SET ZNOTEBOOK = 99 WHERE Z_PK = 1")
        let model = try #require(try setup.chain.model(version: 1))

        #expect(try store.checkRelationships(model: model, tables: ["Z_MODELCACHE"]).isEmpty)
        let problems = try store.checkRelationships(model: model, tables: ["ZNOTEBOOK"])
        #expect(problems.map(\.kind) == [.missingDestination])
        #expect(try store.checkRelationships(model: model).count == 1)
    }
}
