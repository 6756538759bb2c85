import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// The SQL the compiler writes, and what it selects on a saved diary.
struct PredicateSQLCompilerTests {
    /// Three entries: "Alle Vögel" (image, sound), "Weltall" (image), "Rain"
    /// (no media), created a day apart.
    private func diary() throws -> ContextFixture {
        let fixture = try ContextFixture("Diary")
        let context = fixture.context
        for (day, text, media) in [
            (0.0, "Alle Vögel", ["image", "sound"]), (1, "Weltall", ["image"]), (2, "Rain", []),
        ] {
            let entry = try context.insert("DiaryEntry")
            try entry.set("text", text)
            try entry.setValue(.date(day * 86_400), forKey: "creationTime")
            for type in media {
                let medium = try context.insert("Medium")
                try medium.set("type", type)
                try medium.setValue(.data(Data([1])), forKey: "data")
                try entry.add(medium, to: "media")
            }
        }
        try context.save()
        return fixture
    }

    private func texts(
        _ fixture: ContextFixture, _ format: String, _ arguments: [PredicateArgument] = []
    ) throws -> [String] {
        var request = FetchRequest(entity: "DiaryEntry")
        request.predicate = try FetchPredicate(format, arguments: arguments)
        return try fixture.context.fetch(request).map { try $0.string("text") ?? "-" }
    }

    @Test func testQuantifiersAndCountBecomeSubqueries() throws {
        let fixture = try diary()
        #expect(try texts(fixture, "ANY media.type == 'sound'") == ["Alle Vögel"])
        #expect(try texts(fixture, "NONE media.type == 'sound'") == ["Weltall", "Rain"])
        #expect(try texts(fixture, "ALL media.type == 'image'") == ["Weltall", "Rain"])
        #expect(try texts(fixture, "media.@count > 1") == ["Alle Vögel"])
        #expect(try texts(fixture, "media.@count == 0") == ["Rain"])
    }

    @Test func testStringOperators() throws {
        let fixture = try diary()
        #expect(try texts(fixture, "text CONTAINS 'all'") == ["Weltall"])
        #expect(try texts(fixture, "text CONTAINS[cd] 'all'") == ["Alle Vögel", "Weltall"])
        #expect(try texts(fixture, "text CONTAINS[cd] 'vog'") == ["Alle Vögel"])
        #expect(try texts(fixture, "text BEGINSWITH 'R'") == ["Rain"])
        #expect(try texts(fixture, "text ENDSWITH[c] 'ALL'") == ["Weltall"])
        #expect(try texts(fixture, "text CONTAINS '*'") == [])
        #expect(try texts(fixture, "text ==[c] 'rain'") == ["Rain"])
    }

    @Test func testComparisonsListsAndNil() throws {
        let fixture = try diary()
        #expect(try texts(fixture, "text != 'Rain'") == ["Alle Vögel", "Weltall"])
        #expect(try texts(fixture, "text IN {'Rain', 'Weltall'}") == ["Weltall", "Rain"])
        #expect(try texts(fixture, "text == nil") == [])
        #expect(try texts(fixture, "NOT (icon != nil)") == ["Alle Vögel", "Weltall", "Rain"])
        #expect(
            try texts(fixture, "creationTime BETWEEN %@", [.array([.date(1), .date(86_400)])])
                == ["Weltall"])
        #expect(try texts(fixture, "creationTime > %@", [.value(.date(86_400))]) == ["Rain"])
    }

    @Test func testToOneKeyPathsJoinOncePerPath() throws {
        let fixture = try diary()
        let mapping = fixture.context.mapping
        var compiler = try PredicateSQLCompiler(mapping: mapping, entity: "Medium")
        let condition = try compiler.condition(
            try FetchPredicate("diaryEntry.text BEGINSWITH 'W' OR diaryEntry.text == 'Rain'"))
        #expect(
            compiler.fromClause
                == "\"ZMEDIUM\" AS t0 LEFT JOIN \"ZDIARYENTRY\" AS t1 ON t1.\"Z_PK\" = t0.\"ZDIARYENTRY\""
        )
        #expect(condition == "((t1.\"ZTEXT\" GLOB ?) OR (t1.\"ZTEXT\" = ?))")
        #expect(compiler.arguments == [.text("W*"), .text("Rain")])
        var request = FetchRequest(entity: "Medium")
        request.predicate = try FetchPredicate("diaryEntry.text BEGINSWITH 'W'")
        #expect(try fixture.context.fetch(request).map { try $0.string("type") } == ["image"])
    }

    @Test func testValuesAreNeverSpliced() throws {
        let fixture = try diary()
        var compiler = try PredicateSQLCompiler(
            mapping: fixture.context.mapping, entity: "DiaryEntry")
        let condition = try compiler.condition(
            try FetchPredicate("text == \"x'); DROP TABLE ZMEDIUM; --\""))
        #expect(condition == "(t0.\"ZTEXT\" = ?)")
        #expect(compiler.arguments == [.text("x'); DROP TABLE ZMEDIUM; --")])
    }
}
