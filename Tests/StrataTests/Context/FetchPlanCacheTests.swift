import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// Fetch plans reused for requests that differ only in numbers: the same
/// objects as a plan made afresh, with unsaved changes judged on the
/// request's own numbers.
struct FetchPlanCacheTests {
    /// A diary of `count` entries, one a day from 2001-01-01; entry `i`
    /// reads "Entry i", and every fourth also "Weltall".
    private func diary(_ count: Int) throws -> ContextFixture {
        let fixture = try ContextFixture("Diary")
        for index in 0..<count {
            let entry = try fixture.context.insert("DiaryEntry")
            try entry.set("text", "Entry \(index)" + (index % 4 == 0 ? " Weltall" : ""))
            try entry.setValue(.date(Double(index) * 86_400), forKey: "creationTime")
        }
        try fixture.context.save()
        return fixture
    }

    private func days(_ objects: [ManagedObject]) throws -> [Double] {
        try objects.map {
            (try $0.date("creationTime")?.timeIntervalSinceReferenceDate ?? -1) / 86_400
        }
    }

    private func date(_ day: Int) -> PredicateValue { .date(Double(day) * 86_400) }

    /// Formats with numbers, each with the arguments of several requests.
    private var cases: [(format: String, arguments: [[PredicateArgument]])] {
        [
            ("creationTime == %@", (0..<8).map { [.value(date($0 * 7))] }),
            (
                "creationTime BETWEEN %@",
                (0..<6).map { [.array([date($0 * 5), date($0 * 5 + $0)])] }
            ),
            (
                "creationTime IN %@",
                (0..<6).map { [.array([date($0), date($0 * 3), date(40 - $0)])] }
            ),
            (
                "creationTime > %@ AND text CONTAINS[c] %@ OR creationTime == %@",
                (0..<6).map { [.value(date($0 * 9)), .string("weltall"), .value(date($0))] }
            ),
            ("NOT creationTime < %@", (0..<6).map { [.value(date(50 - $0 * 8))] }),
        ]
    }

    @Test func testReusedPlansFetchWhatAFreshPlanFetches() throws {
        let fixture = try diary(60)
        for (format, argumentLists) in cases {
            for arguments in argumentLists {
                var request = FetchRequest(entity: "DiaryEntry")
                request.predicate = try FetchPredicate(format, arguments: arguments)
                request.sortDescriptors = [SortDescriptor("text")]
                // A new context has no plans yet: it compiles this request.
                let fresh = try Context(store: fixture.store, model: fixture.model)
                let expected = try days(fresh.fetch(request))
                #expect(try days(fixture.context.fetch(request)) == expected, "\(format)")
                #expect(try fixture.context.count(request) == expected.count, "\(format)")
            }
        }
    }

    @Test func testIntegersAndRealsAreRebound() throws {
        let fixture = try ContextFixture("Recipes")
        for index in 0..<20 {
            let ingredient = try fixture.context.insert("Ingredient")
            try ingredient.set("name", "Ingredient \(index)")
            try ingredient.set("displayOrder", Int64(index % 7))
        }
        try fixture.context.save()
        let formats: [(String, (Int) -> [PredicateArgument])] = [
            ("displayOrder < %f", { [.real(Double($0) + 0.5)] }),
            ("displayOrder >= %d AND displayOrder != %d", { [.integer(Int64($0)), .integer(5)] }),
            ("displayOrder IN {%d, 2, %d}", { [.integer(Int64($0)), .integer(Int64(6 - $0))] }),
        ]
        for (format, arguments) in formats {
            for number in 0..<6 {
                var request = FetchRequest(entity: "Ingredient")
                request.predicate = try FetchPredicate(format, arguments: arguments(number))
                let fresh = try Context(store: fixture.store, model: fixture.model)
                let expected = try fresh.fetch(request).map { try $0.string("name") ?? "-" }
                let found = try fixture.context.fetch(request).map { try $0.string("name") ?? "-" }
                #expect(found == expected, "\(format) with \(number)")
            }
        }
    }

    @Test func testRequestsDifferingInNumbersShareOnePlan() throws {
        let fixture = try diary(10)
        let context = fixture.context
        for day in 0..<5 {
            let predicate = try FetchPredicate("creationTime == %@", arguments: [.value(date(day))])
            let found = try context.fetch(FetchRequest(entity: "DiaryEntry", predicate: predicate))
            #expect(try days(found) == [Double(day)])
        }
        #expect(context.fetchPlans.count == 1)
        #expect(context.fetchPlans.reusedCount == 1)
        // Strings, sort keys and entities are part of the shape.
        for word in ["Entry 1", "Entry 2"] {
            let predicate = try FetchPredicate("text == %@", arguments: [.string(word)])
            _ = try context.fetch(FetchRequest(entity: "DiaryEntry", predicate: predicate))
        }
        #expect(context.fetchPlans.count == 3)
        #expect(context.fetchPlans.reusedCount == 3)
    }

    @Test func testUnsavedChangesAreMatchedWithTheRequestsOwnNumbers() throws {
        let fixture = try diary(10)
        let context = fixture.context
        func fetch(_ day: Int) throws -> [Double] {
            let predicate = try FetchPredicate("creationTime == %@", arguments: [.value(date(day))])
            return try days(context.fetch(FetchRequest(entity: "DiaryEntry", predicate: predicate)))
        }
        #expect(try fetch(3) == [3])
        // Entry 3 moves to day 20 in memory; a new entry lands on day 21.
        let third = try context.fetch(
            FetchRequest(
                entity: "DiaryEntry",
                predicate: try FetchPredicate("text == 'Entry 3'")))
        try #require(third.count == 1)
        try third[0].setValue(.date(20 * 86_400), forKey: "creationTime")
        let fresh = try context.insert("DiaryEntry")
        try fresh.set("text", "new")
        try fresh.setValue(.date(21 * 86_400), forKey: "creationTime")
        #expect(try fetch(3) == [])
        #expect(try fetch(20) == [20])
        #expect(try fetch(21) == [21])
        #expect(try fetch(4) == [4])
    }

    @Test func testInvalidRequestsStillFailWhenTheirShapeIsCached() throws {
        let fixture = try diary(3)
        let context = fixture.context
        let good = try FetchPredicate("creationTime == %@", arguments: [.value(date(1))])
        _ = try context.fetch(FetchRequest(entity: "DiaryEntry", predicate: good))
        // The same format with a string: another shape, checked and refused.
        let bad = try FetchPredicate("creationTime == %@", arguments: [.string("tomorrow")])
        #expect(throws: Strata.FetchPredicateError.self) {
            try context.fetch(FetchRequest(entity: "DiaryEntry", predicate: bad))
        }
        var unknown = FetchRequest(entity: "DiaryEntry", predicate: good)
        unknown.conditions = ["mood": .string("fine")]
        #expect(throws: ContextError.self) { try context.fetch(unknown) }
    }
}
