import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 6: `asCoreData` migrates as Core Data's lightweight
/// migration would, telling every loss and empty value it accepted; a store
/// whose hashes several versions share is at the newest of them.
struct MigrationAsCoreDataTests {
    /// The test chain removes `Note.keywords` (version 2) and adds the
    /// required `Note.summary` without a default (version 3): refused by
    /// default, migrated with `asCoreData`, each acceptance counted. Version
    /// 2 renames `body` to `text` by `renamedFrom`, which version 3 no longer
    /// carries: Core Data's direct mapping from 1 to 3 pairs nothing with
    /// `text`, so the bodies are dropped too, and the plan says why.
    @Test func testAsCoreDataAcceptsLossesAndLeavesRequiredValuesEmpty() throws {
        let (directory, setup, url) = try MigratorTestChain.populated(notes: 7)
        _ = directory
        #expect(throws: MigrationError.self) {
            try Migrator(storeAt: url, schemas: setup.folder).run()
        }
        var options = MigrationOptions()
        options.asCoreData = true
        let migrator = try Migrator(storeAt: url, schemas: setup.folder, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")
        #expect(
            preview.findings.contains {
                $0.step == "Note.text" && $0.message.contains("continues Note.body of version 1")
            })
        let report = try migrator.run()
        #expect(report.finalVersion == 3)
        #expect(
            report.accepted.map(\.message) == [
                "4 values of Note.body would be dropped (accepted: --as-core-data; Core Data "
                    + "drops them too)",
                "2 values of Note.keywords would be dropped (accepted: --as-core-data; Core Data "
                    + "drops them too)",
                "7 rows of Note need a value for summary; version 3 requires it and gives no "
                    + "default (accepted: --as-core-data; left empty, as Core Data leaves them)",
            ])
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Read only below.
        let newest = try setup.chain.newest
        #expect(store.metadata.versionHashes == newest.versionHashes.mapValues { Data($0) })
        let context = try Context(store: store, model: newest)
        let notes = try context.all("Note")
        #expect(notes.count == 7)
        #expect(try notes.allSatisfy { try $0.value(forKey: "summary") == nil })
    }

    /// Versions 2 and 3 differ only in a rule Core Data does not hash; a
    /// store that names no version is at the newest of them, and says so.
    @Test func testVersionsThatHashAlikeGiveTheNewest() throws {
        let v1 = try MappingTestSupport.model(
            "Alike", 1, #"{"Item": {"attributes": {"name": {"type": "string"}}}}"#)
        let v2 = try MappingTestSupport.model(
            "Alike", 2,
            #"{"Item": {"attributes": {"name": {"type": "string"}, "size": {"type": "integer32", "optional": true}}}}"#
        )
        let v3 = try MappingTestSupport.model(
            "Alike", 3,
            #"{"Item": {"attributes": {"name": {"type": "string", "maxLength": 80}, "size": {"type": "integer32", "optional": true}}}}"#
        )
        let chain = SchemaChain(versions: [v1, v2, v3])
        let hashes = v2.versionHashes.mapValues { Data($0) }
        #expect(Store.matchingVersions(of: hashes, in: chain).map(\.version) == [2, 3])
        #expect(try Store.matchingVersion(of: hashes, in: chain, path: "x").version == 3)

        // A store Strata wrote at version 2 names it: that one is kept, and
        // the plan says why.
        let folder = try TemporaryDirectory()
        let url = folder.file("Alike.sqlite")
        try Store.create(at: url, model: v2).close()
        var options = MigrationOptions()
        options.targetVersion = 3
        let preview = try Migrator(storeAt: url, chain: chain, options: options).preview()
        #expect(preview.currentVersion == 2)
        #expect(
            preview.versionNotes == [
                "versions 2, 3 of Alike hash alike (nothing Core Data hashes changed between "
                    + "them); the store is taken as version 2, the version the store names"
            ])
    }
}
