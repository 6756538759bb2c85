import Foundation
import Strata
import Testing

/// The typed side of the convenience API: `findAll`, `findFirst`, `count`
/// and sorting with a direction, on generated classes (Notes version 1),
/// unsaved changes included.
struct TypedConvenienceTests {
    /// Three notes, the newest last inserted in the middle so that no order
    /// comes for free from primary keys; saved, plus one unsaved.
    static func notes() throws -> (TypedFixture, Context) {
        let fixture = try TypedFixture(model: try TypedFixture.model("Schemas/Notes", version: 1))
        let context = fixture.context
        for (title, day) in [("b", 2.0), ("c", 3.0), ("a", 1.0)] {
            let note = Note(context: context)
            note.title = title
            note.date = Date(timeIntervalSinceReferenceDate: day * 86_400)
            note.body = "note \(title)"
        }
        try context.save()
        let unsaved = Note(context: context)
        unsaved.title = "x"
        unsaved.date = Date(timeIntervalSinceReferenceDate: 0)
        return (fixture, context)
    }

    @Test func testFindAllSortsInEitherDirection() throws {
        let (fixture, context) = try Self.notes()
        defer { withExtendedLifetime(fixture) {} }
        let newestFirst = try context.findAll(
            Note.self, sortedBy: SortDescriptor("date", ascending: false))
        #expect(newestFirst.map(\.title) == ["c", "b", "a", "x"])
        #expect(try context.findAll(Note.self, sortedBy: .descending("date")) == newestFirst)
        #expect(
            try context.findAll(Note.self, sortedBy: .ascending("date")).map(\.title)
                == ["x", "a", "b", "c"])
        // A key alone is ascending; keys and descriptors mix.
        #expect(
            try context.findAll(Note.self, sortedBy: "title").map(\.title) == ["a", "b", "c", "x"])
        #expect(
            try context.findAll(Note.self, sortedBy: .descending("title"), "date").map(\.title)
                == ["x", "c", "b", "a"])
        #expect(try context.findAll(Note.self).count == 4)
    }

    @Test func testTypedFetchTakesDescriptors() throws {
        let (fixture, context) = try Self.notes()
        defer { withExtendedLifetime(fixture) {} }
        let a = "a"
        let b = "b"
        let some = try context.fetch(
            Note.self, where: "title == %@ OR title == %@", a, b,
            sortedBy: SortDescriptor("title", ascending: true))
        #expect(some.map(\.title) == ["a", "b"])
        let newest = try context.fetch(
            Note.self, where: "title != %@", "x", sortedBy: .descending("date"))
        #expect(newest.map(\.title) == ["c", "b", "a"])
        // The spelling that sorted ascending before still does.
        #expect(try context.fetch(Note.self, sortedBy: "date").first?.title == "x")
    }

    @Test func testFindFirstAndCount() throws {
        let (fixture, context) = try Self.notes()
        defer { withExtendedLifetime(fixture) {} }
        let x = try context.findFirst(Note.self, where: "title == %@", "x")
        #expect(x?.title == "x")
        #expect(x?.objectID.isTemporary == true)  // Unsaved, found all the same.
        #expect(try context.findFirst(Note.self, where: "title == %@", "none") == nil)
        #expect(try context.findFirst(Note.self, where: ["title": "b"])?.body == "note b")
        #expect(try context.findFirst(Note.self, sortedBy: .descending("date"))?.title == "c")
        #expect(
            try context.findFirst(Note.self, where: "body != nil", sortedBy: "date")?.title == "a")

        #expect(try context.count(Note.self) == 4)
        #expect(try context.count(Note.self, where: "body BEGINSWITH %@", "note") == 3)
        #expect(try context.count(Note.self, where: "title == %@", "none") == 0)
    }

    @Test func testABadPredicateOrKeyThrows() throws {
        let (fixture, context) = try Self.notes()
        defer { withExtendedLifetime(fixture) {} }
        #expect(throws: PredicateSyntaxError.self) {
            _ = try context.count(Note.self, where: "title ==")
        }
        #expect(throws: (any Error).self) {
            _ = try context.findAll(Note.self, sortedBy: .descending("nothing"))
        }
    }
}
