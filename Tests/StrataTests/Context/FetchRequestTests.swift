import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// Fetch requests with predicates: sorts, limits, batches, counts, unsaved
/// changes, and the diary's search.
struct FetchRequestTests {
    /// A diary of `count` entries, one a day from 2001-01-01; entry `i` reads
    /// "Entry i" and every third mentions "Weltall", every fifth "ALLES".
    private func diary(_ count: Int) throws -> ContextFixture {
        let fixture = try ContextFixture("Diary")
        for index in 0..<count {
            let entry = try fixture.context.insert("DiaryEntry")
            var text = "Entry \(index)"
            if index % 3 == 0 { text += " im Weltall" }
            if index % 5 == 0 { text += " – ALLES gut" }
            try entry.set("text", text)
            try entry.setValue(.date(Double(index) * 86_400), forKey: "creationTime")
        }
        try fixture.context.save()
        return fixture
    }

    private func day(_ entry: ManagedObject) throws -> Double {
        (try entry.date("creationTime")?.timeIntervalSinceReferenceDate ?? -1) / 86_400
    }

    private func texts(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.string("text") ?? "-" }
    }

    @Test func testDiarySearchNewestFirstLimitedTo30() throws {
        let fixture = try diary(200)
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate("text CONTAINS[cd] %@", arguments: [.string("all")])
        request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
        request.fetchLimit = 30
        let found = try fixture.context.fetch(request)
        // Entries whose index is a multiple of 3 or 5, newest first.
        let expected = (0..<200).reversed().filter { $0 % 3 == 0 || $0 % 5 == 0 }.prefix(30)
        #expect(try found.map(day) == expected.map(Double.init))
        #expect(try texts(found).allSatisfy { $0.lowercased().contains("all") })
        #expect(try fixture.context.count(request) == 30)
        request.fetchLimit = 0
        let total = (0..<200).filter { $0 % 3 == 0 || $0 % 5 == 0 }.count
        #expect(try fixture.context.count(request) == total)
    }

    @Test func testUnsavedChangesAreMergedBeforeTheLimit() throws {
        let fixture = try diary(10)
        let context = fixture.context
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate("text BEGINSWITH 'Entry'")
        request.sortDescriptors = [SortDescriptor("creationTime", ascending: false)]
        request.fetchLimit = 3
        #expect(
            try texts(context.fetch(request)).map { $0.prefix(7) } == [
                "Entry 9", "Entry 8", "Entry 7",
            ])

        // A new newest entry, the old newest deleted, entry 8 renamed away.
        let fresh = try context.insert("DiaryEntry")
        try fresh.set("text", "Entry new")
        try fresh.setValue(.date(100 * 86_400), forKey: "creationTime")
        let all = try context.fetch(FetchRequest(entity: "DiaryEntry"))
        try context.delete(all[9])
        try all[8].set("text", "Renamed")
        // Entry 2 moves to the front by its new date.
        try all[2].setValue(.date(50 * 86_400), forKey: "creationTime")
        #expect(
            try texts(context.fetch(request)).map { $0.prefix(9) }
                == ["Entry new", "Entry 2", "Entry 7"])
        request.fetchOffset = 2
        #expect(
            try texts(context.fetch(request)).map { $0.prefix(7) } == [
                "Entry 7", "Entry 6", "Entry 5",
            ])
        request.fetchLimit = 0
        request.fetchOffset = 0
        #expect(try context.count(request) == 9)
    }

    @Test func testSortsThroughToOneAndCaseInsensitive() throws {
        let fixture = try ContextFixture("Diary")
        let context = fixture.context
        for (text, type) in [("b", "sound"), ("A", "image"), ("c", "image")] {
            let entry = try context.insert("DiaryEntry")
            try entry.set("text", text)
            let medium = try context.insert("Medium")
            try medium.set("type", type)
            try medium.setValue(.data(Data([1])), forKey: "data")
            try entry.add(medium, to: "media")
        }
        try context.save()
        var request = FetchRequest(entity: "Medium")
        request.sortDescriptors = [SortDescriptor("diaryEntry.text", ascending: false)]
        #expect(
            try context.fetch(request).map { try $0.object(forKey: "diaryEntry")?.string("text") }
                == ["c", "b", "A"])
        request.sortDescriptors = [
            SortDescriptor("diaryEntry.text", ascending: true, comparison: .caseInsensitive)
        ]
        #expect(
            try context.fetch(request).map { try $0.object(forKey: "diaryEntry")?.string("text") }
                == ["A", "b", "c"])
        var entries = FetchRequest(entity: "DiaryEntry")
        entries.sortDescriptors = [SortDescriptor("text", comparison: .localized)]
        #expect(try texts(context.fetch(entries)) == ["A", "b", "c"])
        #expect(throws: ContextError.self) {
            var bad = FetchRequest(entity: "Medium")
            bad.sortDescriptors = [SortDescriptor("diaryEntry.nope")]
            _ = try context.fetch(bad)
        }
    }

    @Test func testForEachVisitsEveryMatchInBatches() throws {
        let fixture = try diary(250)
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate("text CONTAINS 'Weltall'")
        var days: [Double] = []
        try fixture.context.forEach(request, batchSize: 16) { entry in
            days.append(try day(entry))
        }
        let expected: [Double] = (0..<250).filter { $0 % 3 == 0 }.map(Double.init)
        #expect(days == expected)
    }

    @Test func testFindFirstWithAPredicateAndBadPredicatesRunNothing() throws {
        let fixture = try diary(20)
        let found = try fixture.context.findFirst(
            "DiaryEntry", where: "text ENDSWITH[c] %@ AND creationTime > %@", .string("gut"),
            .value(.date(86_400)))
        #expect(try found?.string("text") == "Entry 5 – ALLES gut")
        #expect(throws: Strata.FetchPredicateError.self) {
            _ = try fixture.context.findFirst("DiaryEntry", where: "nope == 1")
        }
        #expect(throws: Strata.FetchPredicateError.self) {
            _ = try fixture.context.findFirst("DiaryEntry", where: "text MATCHES '('")
        }
    }
}
