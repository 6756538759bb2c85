import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataQuery
@testable import StrataSchema

/// `set(_:_:)` and `get(_:as:)` with plain Swift values: every attribute
/// type round-trips through a save and a fetch, values are checked against
/// the declared type, and a type mismatch is an error naming the attribute
/// and both types rather than a silent nil.
struct PlainValueTests {
    /// One optional attribute of every type, and a to-one and to-many pair.
    static func everyTypeModel() -> Model {
        let types: [(String, AttributeType)] = [
            ("text", .string), ("small", .integer16), ("medium", .integer32),
            ("large", .integer64), ("amount", .decimal), ("ratio", .double), ("weight", .float),
            ("flag", .boolean), ("moment", .date), ("bytes", .binary), ("identifier", .uuid),
            ("link", .uri),
        ]
        return Model(
            name: "Types", version: 1,
            entities: [
                Entity(
                    name: "Sample",
                    attributes: types.map {
                        GraphModels.optional(Attribute(name: $0.0, type: $0.1))
                    },
                    relationships: [
                        GraphModels.toOne("owner", "Owner", inverse: "samples")
                    ]),
                Entity(
                    name: "Owner", attributes: [GraphModels.name()],
                    relationships: [GraphModels.toMany("samples", "Sample", inverse: "owner")]),
            ])
    }

    @Test func everyAttributeTypeRoundTripsThroughASaveAndAFetch() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let sample = try fixture.context.insert("Sample")
        let moment = Date(timeIntervalSinceReferenceDate: 740_000_000.5)
        let identifier = UUID()
        let link = try #require(URL(string: "https://example.org/a?b=1"))
        try sample.set("text", "Paris")
        try sample.set("small", Int16(-300))
        try sample.set("medium", Int32(70_000))
        try sample.set("large", Int64(1) << 40)
        try sample.set("amount", Decimal(string: "12.5"))
        try sample.set("ratio", 0.25)
        try sample.set("weight", Float(1.5))
        try sample.set("flag", true)
        try sample.set("moment", moment)
        try sample.set("bytes", Data([1, 2, 3]))
        try sample.set("identifier", identifier)
        try sample.set("link", link)
        try fixture.context.save()

        let again = try #require(try fixture.reopened().findAll("Sample").first)
        #expect(try again.get("text", as: String.self) == "Paris")
        #expect(try again.get("small", as: Int16.self) == -300)
        #expect(try again.get("medium", as: Int32.self) == 70_000)
        #expect(try again.get("large", as: Int64.self) == 1 << 40)
        #expect(try again.get("amount", as: Decimal.self) == Decimal(string: "12.5"))
        #expect(try again.get("ratio", as: Double.self) == 0.25)
        #expect(try again.get("weight", as: Float.self) == 1.5)
        #expect(try again.get("flag", as: Bool.self) == true)
        #expect(try again.get("moment", as: Date.self) == moment)
        #expect(try again.get("bytes", as: Data.self) == Data([1, 2, 3]))
        #expect(try again.get("identifier", as: UUID.self) == identifier)
        #expect(try again.get("link", as: URL.self) == link)
        #expect(try again.get("small", as: Int.self) == -300)
    }

    @Test func plainIntegersAndNilCompile() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let sample = try fixture.context.insert("Sample")
        try sample.set("medium", 3)
        try sample.set("ratio", 3)
        #expect(try sample.integer("medium") == 3)
        #expect(try sample.double("ratio") == 3)
        try sample.set("text", "x")
        try sample.set("text", nil)
        #expect(try sample.string("text") == nil)
        let unset: String? = nil
        try sample.set("text", unset)
        #expect(try sample.value(forKey: "text") == nil)
    }

    @Test func anIntegerOutsideANarrowTypeIsALocatedErrorAndChangesNothing() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let sample = try fixture.context.insert("Sample")
        try sample.set("small", 7)
        let error = try #require(throws: ContextError.self) { try sample.set("small", 70_000) }
        #expect(error.code == .wrongType)
        #expect(error.message.contains("Sample.small is integer16"))
        #expect(error.message.contains("Int 70000"))
        #expect(error.message.contains("-32768...32767"))
        #expect(try sample.integer("small") == 7)
    }

    @Test func aValueOfAnotherTypeNamesTheAttributeAndBothTypes() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let sample = try fixture.context.insert("Sample")
        let error = try #require(throws: ContextError.self) { try sample.set("moment", "today") }
        #expect(error.code == .wrongType)
        #expect(error.message == "Sample.moment is date; a value of type String does not fit")
        #expect(throws: ContextError.self) { try sample.set("flag", 1) }
        #expect(throws: ContextError.self) { try sample.set("medium", 2.5) }
    }

    @Test func aGetterOfTheWrongTypeThrowsInsteadOfReturningNil() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let sample = try fixture.context.insert("Sample")
        try sample.set("medium", 40_000)
        let error = try #require(throws: ContextError.self) { try sample.string("medium") }
        #expect(error.code == .wrongType)
        #expect(error.message == "Sample.medium is integer32; it does not read as String")
        // Unset, the mismatch is still an error; a real nil stays nil.
        #expect(throws: ContextError.self) { try sample.bool("text") }
        #expect(try sample.string("text") == nil)
        // A stored value beyond the asked type's range.
        let narrow = try #require(throws: ContextError.self) {
            try sample.get("medium", as: Int16.self)
        }
        #expect(narrow.message.contains("does not fit Int16"))
    }

    @Test func setTakesObjectsForToOneAndNilClearsEither() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let owner = try fixture.context.insert("Owner")
        let sample = try fixture.context.insert("Sample")
        try sample.set("owner", owner)
        #expect(try sample.object(forKey: "owner") === owner)
        #expect(try owner.objects(forKey: "samples").map(\.objectID) == [sample.objectID])
        try sample.set("owner", nil)
        #expect(try sample.object(forKey: "owner") == nil)
        #expect(try owner.objects(forKey: "samples").isEmpty)
        let error = try #require(throws: ContextError.self) { try sample.set("text", owner) }
        #expect(error.code == .wrongPropertyKind)
        #expect(throws: ContextError.self) { try owner.set("samples", sample) }
    }

    @Test func predicateArgumentsArePlainValues() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let owner = try fixture.context.insert("Owner")
        let sample = try fixture.context.insert("Sample")
        let moment = Date(timeIntervalSinceReferenceDate: 1000)
        try sample.set("text", "Home")
        try sample.set("medium", 3)
        try sample.set("moment", moment)
        try sample.set("owner", owner)
        try fixture.context.save()
        let context = fixture.context
        #expect(try context.findFirst("Sample", where: "text == %@", "Home") === sample)
        #expect(try context.findFirst("Sample", where: "medium == %d", 3) === sample)
        #expect(try context.findFirst("Sample", where: "moment == %@", moment) === sample)
        #expect(try context.findFirst("Sample", where: "owner == %@", owner) === sample)
        #expect(try context.findFirst("Sample", where: "text IN %@", ["Away", "Home"]) === sample)
        #expect(try context.findFirst("Sample", where: "text == %@", "Away") == nil)
        #expect(try context.findFirst("Sample", where: "text == %@", .string("Home")) === sample)
        #expect(
            try context.findFirst("Sample", where: "%K == %@", .keyPath("text"), "Home") === sample)
        #expect(try context.fetch("Sample", where: "medium > %d", 1, sortedBy: "text").count == 1)
        #expect(try context.findFirst("Sample", where: ["text": "Home", "medium": 3]) === sample)
        #expect(try context.findFirst("Sample", where: ["text": "Away"]) == nil)
        let predicate = try Strata.FetchPredicate("text == %@ AND medium == %d", "Home", 3)
        #expect(try context.fetch(FetchRequest(entity: "Sample", predicate: predicate)).count == 1)
    }

    @Test func aPredicateErrorQuotesTheTextAsTyped() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        let error = try #require(throws: Strata.FetchPredicateError.self) {
            try fixture.context.findFirst("Sample", where: "colour CONTAINS[cd] 'paris'")
        }
        #expect(error.predicate == "colour CONTAINS[cd] 'paris'")
        #expect(error.description.contains("  colour CONTAINS[cd] 'paris'\n  ^"))
        let typed = try #require(throws: Strata.FetchPredicateError.self) {
            try fixture.context.fetch(
                try FetchRequest(entity: "Sample", where: "text == 'a' AND colour == %@", "red"))
        }
        #expect(typed.predicate == "text == 'a' AND colour == %@")
        // The caret is under `colour`, column 17 of the text as typed.
        let caret = "\n  " + String(repeating: " ", count: 16) + "^"
        #expect(typed.description.hasSuffix("  text == 'a' AND colour == %@" + caret))
    }

    @Test func aBadSortKeyShowsTheKeyWithACaretUnderIt() throws {
        let fixture = try ContextFixture(model: Self.everyTypeModel())
        var request = FetchRequest(entity: "Sample")
        request.sortDescriptors = [SortDescriptor("colour")]
        let error = try #require(throws: ContextError.self) { try fixture.context.fetch(request) }
        #expect(error.message.hasSuffix("\n  colour\n  ^"))
        #expect(!error.message.contains("\n  \n"))
    }
}
