// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore
@testable import StrataMigration

// The examples of the Migration docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
/// The custom step the MigrationOptions example names.
struct SplitNamesStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {}
}

/// The policy step the MappingPolicy example names.
struct DatesStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {}
}

enum MigrationDocExamples {
    /// From MappingModels.md and MappingModelConverter.swift.
    static func mappingModels(folder: URL) throws {
        let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "MediaHistory.xcdatamodeld"))
        let model = try XcodeMappingModelReader().read(at: URL(fileURLWithPath: "MediaHistory_v2_v3.xcmappingmodel"))
        let converted = try MappingModelConverter(
            versions: bundle.versions, versionFolders: bundle.versionFolders
        ).convert(model)
        try converted.data.write(to: folder.appending(path: converted.fileName))
        print(converted.report)
    }

    /// From Sources/StrataMigration/Migration/Mapping/MappingPolicy.swift.
    static func mappingPolicy() {
        var options = MigrationOptions()
        options.policySteps["XCServerCoreData.IntegrationStringToDateMigrationPolicy"] = DatesStep()
        _ = options
    }

    /// From Sources/StrataMigration/Migration/MigrationPlan.swift.
    static func migrationPlan() throws {
        let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Diary"))
        let plan = try MigrationPlan(chain: chain, from: 1, to: 3)
        for step in plan.steps { print(step.label.text, step.names, step.reason) }
        for statement in plan.statements { print(statement.sql) }
    }

    /// From Sources/StrataMigration/Migration/MigrationStep.swift.
    static func migrationStep(v1: Model, v2: Model) throws {
        for step in MigrationPlan(from: v1, to: v2).steps {
            print(step.label.text, step.kind.rawValue, step.names, step.reason)
        }
    }

    /// From Sources/StrataMigration/Migration/MigrationError.swift.
    static func migrationError(store: Store, chain: SchemaChain) throws {
        do {
            _ = try MigrationPlan(chain: chain, from: 3, to: 1)
        } catch MigrationError.downgrade {
            print("a store is never migrated backwards")
        }
    }

    /// From Sources/StrataMigration/Migration/Mapping/MappingApplier.swift.
    static func mappingApplier(original: Connection, copy: Connection, mapping: MigrationMapping) throws {
        try copy.inTransaction {
            try mapping.apply(source: original, destination: copy) { entity, rows in
                print("\(entity): \(rows)")
            }
        }
    }

    /// From Sources/StrataMigration/Migration/Mapping/MigrationMapping.swift.
    static func migrationMapping(schemas: URL, v1: Model, v2: Model, original: Connection, copy: Connection) throws {
        if let mapping = try MigrationMapping.load(
            directory: schemas, from: v1, to: v2)
        {
            let plan = MigrationPlan(from: v1, to: v2)
            let unresolved = plan.steps.filter { $0.label != .inferred && !mapping.covers($0) }
            for step in unresolved { print("neither inferred nor mapped:", step.label, step.names) }
            // … run plan.statements on a copy, then:
            try mapping.apply(source: original, destination: copy)
        }
    }

    /// From Sources/StrataMigration/Migration/Execution/MigrationPreview.swift.
    static func migrationPreview(url: URL, schemas: URL) throws {
        let preview = try Migrator(storeAt: url, schemas: schemas).preview()
        for finding in preview.findings { print(finding.message) }
    }

    /// From Sources/StrataMigration/Migration/Execution/CustomStepWork+Update.swift.
    static func customStepWorkUpdate() throws {
        struct Summaries: CustomMigrationStep {
            func migrate(_ work: CustomStepWork) throws {
                try work.update("Note", set: "summary", reading: ["title"]) { row in
                    .string("About " + (try row.string("title") ?? ""))
                }
            }
        }
        _ = Summaries()
    }

    /// From Sources/StrataMigration/Migration/Execution/CustomMigrationStep.swift.
    static func customMigrationStep() throws {
        struct FullNames: CustomMigrationStep {
            func migrate(_ work: CustomStepWork) throws {
                try work.forEachSourceObject(of: "Person") { person, destination in
                    let first = try person.string("firstName") ?? ""
                    let last = try person.string("lastName") ?? ""
                    try destination?.set("name", "\(first) \(last)")
                }
            }
        }
    }

    /// From Sources/StrataMigration/Migration/Execution/Migrator.swift.
    static func migrator(url: URL) throws {
        let migrator = try Migrator(storeAt: url, schemas: URL(fileURLWithPath: "Schemas/Diary"))
        let preview = try migrator.preview()          // the dry run: writes nothing
        let report = try migrator.run { print($0.activity, $0.rowsDone, $0.rowsTotal) }
        _ = (preview, report)
    }

    /// From Sources/StrataMigration/Migration/Execution/MigrationOptions.swift.
    static func migrationOptions(url: URL, schemas: URL) throws {
        var options = MigrationOptions()
        options.targetVersion = 3
        options.customSteps[2] = SplitNamesStep()   // runs from version 2 to 3
        try Migrator(storeAt: url, schemas: schemas, options: options).run()
    }

    /// From Sources/StrataMigration/Migration/Harness/MigrationHarness.swift.
    static func migrationHarness(temporaryFolder: URL) throws {
        let results = try MigrationHarness(schemas: URL(fileURLWithPath: "Schemas/Diary"))
            .run(in: temporaryFolder)
        for result in results { #expect(result.problems == [], "from v\(result.version)") }
    }
}
