import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext

/// The notes app (MagicalRecord style): create, list newest first, find by
/// title, count, delete — and fetches that see unsaved changes.
struct NotesFlowTests {
    /// A note dated `day` days after 2001-01-01.
    @discardableResult
    private func note(_ context: Context, _ title: String, day: Double) throws -> ManagedObject {
        let note = try context.insert("Note")
        try note.set("title", title)
        try note.set("date", Date(timeIntervalSinceReferenceDate: day * 86_400))
        return note
    }

    private func titles(_ notes: [ManagedObject]) throws -> [String?] {
        try notes.map { try $0.string("title") }
    }

    /// Three saved notes: "Groceries" (day 1), "Ideas" (day 3), "Trip" (day 2).
    private func savedNotes() throws -> ContextFixture {
        let notes = try ContextFixture("Notes")
        try note(notes.context, "Groceries", day: 1)
        try note(notes.context, "Ideas", day: 3)
        try note(notes.context, "Trip", day: 2)
        try notes.context.save()
        return notes
    }

    @Test func testNotesListNewestFirstFindByTitleCountAndDelete() throws {
        let notes = try savedNotes()
        try notes.expectSound()
        let context = try notes.reopened()

        let newestFirst = try context.findAll("Note", sortedBy: "date", ascending: false)
        #expect(try titles(newestFirst) == ["Ideas", "Trip", "Groceries"])
        let trip = try #require(try context.findFirst("Note", where: ["title": .string("Trip")]))
        #expect(try trip.date("date") == Date(timeIntervalSinceReferenceDate: 2 * 86_400))
        #expect(try context.findFirst("Note", where: ["title": .string("Nothing")]) == nil)
        #expect(try context.count("Note") == 3)

        try context.delete(trip)
        try context.save()
        #expect(try context.count("Note") == 2)
        #expect(try notes.rows("ZNOTE") == 2)
        #expect(
            try titles(context.findAll("Note", sortedBy: "date", ascending: false)) == [
                "Ideas", "Groceries",
            ])
        try notes.expectSound()
    }

    @Test func testFetchIncludesUnsavedInsertsThatMatch() throws {
        let notes = try savedNotes()
        let context = notes.context
        try note(context, "Draft", day: 4)
        try note(context, "Trip", day: 0)
        let all = try context.findAll("Note", sortedBy: "date", ascending: false)
        #expect(try titles(all) == ["Draft", "Ideas", "Trip", "Groceries", "Trip"])
        var request = FetchRequest(entity: "Note")
        request.conditions = ["title": .string("Trip")]
        request.sortDescriptors = [SortDescriptor("date")]
        let trips = try context.fetch(request)
        let days = try trips.map { try $0.date("date")?.timeIntervalSinceReferenceDate }
        #expect(days == [0, 2 * 86_400])
        #expect(try context.count("Note") == 5)
        #expect(try notes.rows("ZNOTE") == 3)
    }

    @Test func testFetchLeavesOutUnsavedDeletes() throws {
        let notes = try savedNotes()
        let context = notes.context
        let ideas = try #require(try context.findFirst("Note", where: ["title": .string("Ideas")]))
        try context.delete(ideas)
        #expect(try titles(context.findAll("Note", sortedBy: "title")) == ["Groceries", "Trip"])
        #expect(try context.findFirst("Note", where: ["title": .string("Ideas")]) == nil)
        #expect(try context.count("Note") == 2)
        #expect(try notes.rows("ZNOTE") == 3)
    }

    @Test func testFetchJudgesUnsavedUpdatesOnTheirNewValues() throws {
        let notes = try savedNotes()
        let context = notes.context
        let trip = try #require(try context.findFirst("Note", where: ["title": .string("Trip")]))
        try trip.set("title", "Holiday")
        try trip.set("date", Date(timeIntervalSinceReferenceDate: 9 * 86_400))
        #expect(try context.findFirst("Note", where: ["title": .string("Trip")]) == nil)
        #expect(try context.findFirst("Note", where: ["title": .string("Holiday")]) === trip)
        // Sorted by the new date, not the stored one.
        #expect(
            try titles(context.findAll("Note", sortedBy: "date", ascending: false)) == [
                "Holiday", "Ideas", "Groceries",
            ])
    }

    @Test func testLimitAndOffsetApplyAfterUnsavedChanges() throws {
        let notes = try savedNotes()
        let context = notes.context
        // Stored by date: Groceries 1, Trip 2, Ideas 3.
        try note(context, "Draft", day: 0)
        let ideas = try #require(try context.findFirst("Note", where: ["title": .string("Ideas")]))
        try context.delete(ideas)
        let groceries = try #require(
            try context.findFirst("Note", where: ["title": .string("Groceries")]))
        try groceries.set("date", Date(timeIntervalSinceReferenceDate: 5 * 86_400))
        // In memory, by date: Draft 0, Trip 2, Groceries 5.
        var request = FetchRequest(entity: "Note")
        request.sortDescriptors = [SortDescriptor("date")]
        request.fetchLimit = 2
        #expect(try titles(context.fetch(request)) == ["Draft", "Trip"])
        request.fetchOffset = 1
        #expect(try titles(context.fetch(request)) == ["Trip", "Groceries"])
        request.fetchOffset = 2
        #expect(try titles(context.fetch(request)) == ["Groceries"])
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(try context.count(request) == 3)

        try context.save()
        try notes.expectSound()
        request.fetchLimit = 2
        request.fetchOffset = 1
        #expect(try titles(notes.reopened().fetch(request)) == ["Trip", "Groceries"])
    }
}
