// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore
@testable import StrataQuery
import struct StrataContext.SortDescriptor
@testable import StrataContext
@testable import StrataMigration
@testable import StrataFormats

// The examples of the Articles docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum ArticlesDocExamples {
    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext(store: Store, diary: Model, jpeg: Data) throws {
        let context = try Context(store: store, model: diary)
        let entry = try context.insert("DiaryEntry")          // creationTime = now (its default)
        try entry.set("title", "By the river")
        try entry.set("body", "A walk by the river")
        try entry.set("wordCount", 5)
        let photo = try context.insert("Medium")
        try photo.set("type", "image")
        try photo.set("data", jpeg)
        try entry.add(photo, to: "media")                     // photo.diaryEntry is entry, at once
        try context.save()
    }

    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext2(store: Store, older: Model, chain: SchemaChain) throws {
        let context = try Context(store: store, model: try store.matchingVersion(in: chain))
        let view = try Context(store: store, model: older, access: .readOnlyBestEffort)
        _ = (context, view)
    }

    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext3(entry: ManagedObject, photo: ManagedObject) throws {
        try entry.set("subtitle", nil)
        try entry.set("creationTime", Date())
        let words = try entry.get("wordCount", as: Int.self) ?? 0
        let owner = try photo.object(forKey: "diaryEntry")
        let photos = try entry.objects(forKey: "media")
        _ = (words, owner, photos)
    }

    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext4(context: Context, entry: ManagedObject) throws {
        let paris = try context.findFirst("DiaryEntry", where: "body CONTAINS[cd] %@", "paris")
        let long = try context.fetch("DiaryEntry", where: "wordCount > %d", 100, sortedBy: "creationTime")
        let itsPhotos = try context.fetch("Medium", where: "diaryEntry == %@", entry)
        _ = (paris, long, itsPhotos)
    }

    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext5(context: Context) throws {
        do {
            try context.save()
        } catch ContextError.conflict {
            context.rollback()
        } catch let error as ValidationError {
            print(error.failures.map(\.description))
        }
    }

    /// From Sources/Strata/Strata.docc/ObjectContext.md.
    static func objectContext6(context: Context, table: TableView) throws {
        var request = try FetchRequest(entity: "Note", where: "body CONTAINS[cd] %@", "rain")
        request.sortDescriptors = [SortDescriptor("keywords"), SortDescriptor("date", ascending: false)]
        let results = try FetchedResults(context: context, request: request, sectionKeyPath: "keywords")
        results.onChange = { changes in table.apply(changes) }
        try results.performFetch()
    }

    /// From Sources/Strata/Strata.docc/Predicates.md.
    static func predicates() throws {
        let search = try FetchPredicate("body CONTAINS[cd] %@ AND wordCount > %d", "all", 3)
        let recent = try FetchPredicate("creationTime > $SINCE", variables: ["SINCE": .date(740_000_000)])
        _ = (search, recent)
    }

    /// From Sources/Strata/Strata.docc/ImportingData.md; run by ImportDocExampleTests.
    static func importingData(storeURL: URL, contactsFile: URL) throws {
        let store = try Store.open(at: storeURL)
        var options = ImportOptions(entity: "Contact")
        options.columns = ["firstName", "lastName", "nickname"]
        options.format = .txtLines
        options.delimiter = UInt8(ascii: "\t")
        let summary = try Importer.import(contactsFile, into: store, options: options)
        print(summary.inserted, summary.updated)
    }

    /// From Sources/StrataFormats/Formats/Import/Importer+File.swift; run by ImportDocExampleTests.
    static func importerImport(store: Store, contactsFile: URL) throws -> ImportSummary {
        var options = ImportOptions(entity: "Contact")
        options.delimiter = UInt8(ascii: ";")
        options.columns = ["firstName", "lastName", "nickname", "email", "birthday", "score", "notes"]
        options.uniqueKey = ["email"]
        let summary = try Importer.import(contactsFile, into: store, options: options)
        print(summary.inserted, summary.updated)
        return summary
    }

    /// From Sources/Strata/Strata.docc/MigrationMappings.md.
    static func migrationMappings(original: Store, copy: Store) throws {
        let schemas = URL(fileURLWithPath: "Schemas/Diary")
        let chain = try SchemaChain.load(directory: schemas)
        let (v1, v2) = (chain.model(version: 1)!, chain.model(version: 2)!)
        let mapping = try MigrationMapping.load(directory: schemas, from: v1, to: v2)
        let plan = MigrationPlan(from: v1, to: v2)
        let open = plan.steps.filter { $0.label != .inferred && !(mapping?.covers($0) ?? false) }
        // Copy the store, run plan.statements on the copy, then, in one transaction:
        try mapping?.apply(source: original, destination: copy, plan: plan) { entity, rows in
            print(entity, rows)
        }
        _ = open
    }

    /// From Sources/Strata/Strata.docc/Migrations.md.
    static func migrations(url: URL, copy: Connection, data: Data) throws {
        var options = MigrationOptions()
        options.acceptsLossySteps = false            // the default: dropping data takes a decision
        let migrator = try Migrator(storeAt: url, schemas: URL(fileURLWithPath: "Schemas/Diary"),
                                    options: options)
        let preview = try migrator.preview()        // dry run, rehearsed on a private copy
        let report = try migrator.run { progress in print(progress.activity, progress.rowsDone) }
        _ = (preview, report)
    }

    /// From Sources/Strata/Strata.docc/XcodeModels.md.
    static func xcodeModels(folder: URL) throws {
        let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "BookmarksModel.xcdatamodeld"))
        for model in bundle.versions {
            try SchemaEncoder().encodeData(model).write(to: folder.appending(path: "\(model.version).json"))
        }
    }
}
