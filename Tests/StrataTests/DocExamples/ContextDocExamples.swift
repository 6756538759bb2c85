// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore
@testable import StrataQuery
import struct StrataContext.SortDescriptor
@testable import StrataContext

// The examples of the Context docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum ContextDocExamples {
    /// From Sources/StrataContext/Context/ContextError.swift.
    static func contextError(context: Context) throws {
        do {
            try context.save()
        } catch ContextError.conflict {
            context.rollback()
        }
    }

    /// From Sources/StrataContext/Context/AttributeValueConvertible.swift.
    static func attributeValueConvertible(context: Context, entry: ManagedObject) throws {
        try entry.set("wordCount", 3)
        let words = try entry.get("wordCount", as: Int.self)
        let long = try context.findFirst("DiaryEntry", where: "wordCount > %d", 100)
        _ = (words, long)
    }

    /// From Sources/StrataContext/Context/FetchedResults+Changes.swift.
    static func fetchedResultsChanges(table: TableView, results: FetchedResults) throws {
        results.onChange = { changes in
            table.performBatchUpdates {
                table.deleteSections(changes.deletedSections)
                table.insertSections(changes.insertedSections)
                for change in changes.objects { table.apply(change) }
            }
        }
    }

    /// From Sources/StrataContext/Context/FetchedResults.swift.
    static func fetchedResults(context: Context, table: TableView) throws {
        var request = FetchRequest(entity: "Note")
        request.sortDescriptors = [SortDescriptor("keywords"), SortDescriptor("title")]
        let results = try FetchedResults(
            context: context, request: request, sectionKeyPath: "keywords")
        results.onChange = { changes in table.apply(changes) }
        try results.performFetch()
        let first = results.sections.first?.name  // "", "garden", …
        _ = first
    }

    /// From Sources/StrataContext/Context/Context.swift.
    static func context(store: Store, diary: Model) throws {
        let context = try Context(store: store, model: diary)
        let entry = try context.insert("DiaryEntry")
        try entry.set("title", "First day")
        try context.save()
    }

    /// From Sources/StrataContext/Context/Context+Convenience.swift.
    static func contextConvenience(context: Context) throws {
        let entry = try context.findFirst("DiaryEntry", where: "body CONTAINS[cd] %@", "river")
        _ = entry
    }

    /// From Sources/StrataContext/Context/Context+Convenience.swift.
    static func contextConvenience2(context: Context) throws {
        let trips = try context.fetch(
            "DiaryEntry", where: "title BEGINSWITH %@", "Trip", sortedBy: "creationTime")
        _ = trips
    }

    /// From Sources/StrataContext/Context/Context+Fetching.swift.
    static func contextFetching(context: Context) throws -> Int {
        var total = 0
        try context.forEach(FetchRequest(entity: "Note"), batchSize: 500) { note in
            total += try note.string("body")?.count ?? 0
        }
        return total
    }

    /// From Sources/StrataContext/Context/FetchRequest.swift.
    static func fetchRequest(context: Context) throws {
        var request = try FetchRequest(entity: "DiaryEntry", where: "body CONTAINS[cd] %@", "all")
        request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
        request.fetchLimit = 30
        let entries = try context.fetch(request)
        _ = entries
    }

    /// From Sources/StrataContext/Context/FetchRequest.swift.
    static func fetchRequest2() throws {
        let request = try FetchRequest(entity: "DiaryEntry", where: "title == %@", "Paris")
        _ = request
    }

    /// From Sources/StrataContext/Context/ManagedObject.swift.
    static func managedObject(context: Context) throws {
        let entry = try context.insert("DiaryEntry")
        try entry.set("title", "Walk by the river")
        try entry.set("wordCount", 4)
        let photo = try context.insert("Medium")
        try entry.add(photo, to: "media")        // photo's diaryEntry is now entry
    }

    /// From Sources/StrataContext/Context/ManagedObject.swift.
    static func managedObject2(entry: ManagedObject) throws {
        try entry.set("title", "Paris")
        try entry.set("wordCount", 3)
        try entry.set("creationTime", Date())
    }

    /// From Sources/StrataContext/Context/ManagedObject.swift.
    static func managedObject3(entry: ManagedObject) throws {
        let words = try entry.get("wordCount", as: Int.self)
        let title: String? = try entry.get("title")
        _ = (words, title)
    }

    /// From Sources/StrataContext/Context/Context+Filtering.swift.
    static func contextFiltering(context: Context, entries: [ManagedObject]) throws {
        let found = try context.filter(entries, with: FetchPredicate("body CONTAINS[cd] %@", "all"))
        _ = found
    }

    /// From Sources/StrataContext/Context/Context+Convenience.swift.
    static func contextConvenienceConditions(context: Context) throws {
        let home = try context.findFirst("Tag", where: ["name": "Home"])
        _ = home
    }
}
