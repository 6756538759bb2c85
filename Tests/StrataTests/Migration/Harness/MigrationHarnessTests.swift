import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// The harness builds a generated store at every older version, migrates it
/// to the newest and checks it; it passes sound chains and catches a
/// migration that changes values it should carry over.
struct MigrationHarnessTests {
    /// Overwrites every note's title: the harness must notice.
    struct TitleClobberingStep: CustomMigrationStep {
        func migrate(_ work: CustomStepWork) throws {
            try work.forEachSourceObject(of: "Note") { _, destination in
                try destination?.set("title", "clobbered")
                try destination?.set("summary", "set")
            }
        }
    }

    @Test func testSoundChainMigratesFromEveryVersionKeepingEveryCarriedValue() throws {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory)
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[2] = SummaryStep()

        let results = try MigrationHarness(schemas: setup.folder, options: options)
            .run(in: directory.url)

        #expect(results.map(\.version) == [1, 2])
        for result in results {
            #expect(result.problems == [], "from version \(result.version)")
            #expect(result.rowsAfter == ["Note": 12, "Notebook": 12])
            #expect(result.valuesChecked >= 12 * 3, "from version \(result.version)")
        }
    }

    @Test func testHarnessReportsAMigrationThatChangesCarriedValues() throws {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory)
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[2] = TitleClobberingStep()

        let results = try MigrationHarness(schemas: setup.folder, options: options)
            .run(in: directory.url)

        let fromV2 = try #require(results.last)
        #expect(fromV2.problems.count == 12)
        #expect(fromV2.problems.first?.contains(".title: was string(\"title ") == true)
    }

    /// Every bundled model in `Schemas/` migrates from each of its versions.
    @Test(arguments: ["Contacts", "Diary", "Notes", "Recipes"])
    func testBundledSchemasMigrateFromEveryVersion(model: String) throws {
        let directory = try TemporaryDirectory()
        let schemas = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas/\(model)")
        var options = MigrationOptions()
        options.acceptsLossySteps = true

        let results = try MigrationHarness(schemas: schemas, options: options)
            .run(in: directory.url)

        let chain = try SchemaChain.load(directory: schemas)
        #expect(results.count == chain.versions.count - 1)
        for result in results {
            #expect(result.problems == [], "\(model) from version \(result.version)")
        }
    }
}
