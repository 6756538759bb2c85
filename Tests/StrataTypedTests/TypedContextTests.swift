import Foundation
import Strata
import Testing

import struct StrataContext.SortDescriptor

/// What a context does with generated classes: hands out their instances,
/// relates them, fetches them typed, and refuses classes of another version.
struct TypedContextTests {
    @Test func testFetchedAndRelatedObjectsAreInstancesOfTheGeneratedClasses() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let owner = Owner(context: fixture.context)
        owner.name = "Ada"
        let sample = Sample(context: fixture.context)
        sample.owner = owner
        let screw = Screw(context: fixture.context)
        screw.length = 12
        let nail = Nail(context: fixture.context)
        nail.gauge = 3
        sample.addToParts(screw)
        sample.insertIntoParts(nail, at: 0)
        #expect(owner.samples == [sample])
        try fixture.context.save()

        let context = try fixture.reopened()
        let samples = try context.fetch(Sample.self)
        let fetched = try #require(samples.first)
        #expect(fetched.owner?.name == "Ada")
        #expect(fetched.parts.map(\.entityName) == ["Nail", "Screw"])
        #expect((fetched.parts.last as? Screw)?.length == 12)
        let parts = try context.fetch(Part.self, sortedBy: "label")
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0 is Screw || $0 is Nail })
        let untyped = try context.fetch(FetchRequest(entity: "Owner"))
        #expect(untyped.first is Owner)

        fetched.removeFromParts(fetched.parts)
        #expect(fetched.parts.isEmpty)
    }

    @Test func testTypedFetchFiltersAndSorts() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        for (text, count) in [("Paris in May", 3), ("Rome", 1), ("paris again", 2)] {
            let sample = Sample(context: fixture.context)
            sample.text = text
            sample.count = Int32(count)
        }
        try fixture.context.save()
        let found = try fixture.context.fetch(
            Sample.self, where: "text CONTAINS[cd] %@", "paris", sortedBy: "count")
        #expect(found.map(\.text) == ["paris again", "Paris in May"])
        var request = Sample.fetchRequest()
        request.fetchLimit = 1
        request.sortDescriptors = [SortDescriptor("count", ascending: false)]
        #expect(try fixture.context.fetch(Sample.self, request).map(\.count) == [3])
    }

    @Test func testAValidationErrorStillWaitsForTheSave() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let sample = Sample(context: fixture.context)
        sample.title = ""  // minLength 1: the setter accepts it, the save refuses it.
        #expect(throws: ValidationError.self) { try fixture.context.save() }
        sample.title = "Fixed"
        try fixture.context.save()
    }

    @Test func testClassesOfAnotherVersionAreRefusedByRegisterAndAtSave() throws {
        // The Diary classes are generated from version 3; this store is version 1.
        let fixture = try TypedFixture(model: try TypedFixture.model("Schemas/Diary", version: 1))
        #expect {
            try fixture.context.register(DiaryModel.self)
        } throws: { error in
            (error as? ContextError)?.code == .unknownEntity
                && "\(error)".contains("Tag") && "\(error)".contains("Diary version 3")
        }
        #expect(throws: ContextError.self) { try fixture.context.fetch(DiaryEntry.self) }

        let entry = DiaryEntry(context: fixture.context)
        entry.title = "Lost"
        #expect(entry.title == nil)
        #expect(fixture.context.insertedObjects.isEmpty)
        #expect(throws: ContextError.self) { try fixture.context.save() }
        fixture.context.rollback()
        try fixture.context.save()
    }

    @Test func testAChangedEntityIsAModelMismatch() throws {
        // Version 2 has the same entities as version 3, with other properties.
        let fixture = try TypedFixture(model: try TypedFixture.model("Schemas/Diary", version: 2))
        #expect {
            try fixture.context.register(DiaryModel.self)
        } throws: { error in
            (error as? ContextError)?.code == .modelMismatch
        }
    }

    @Test func testAnObjectMadeBeforeRegisteringIsAClearErrorOfTheTypedFetch() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        _ = try fixture.context.insert("Owner")
        try fixture.context.save()
        let context = try fixture.reopened()
        let plain = try context.fetch(FetchRequest(entity: "Owner"))
        #expect(!(plain.first is Owner))
        #expect {
            try context.fetch(Owner.self)
        } throws: { error in
            (error as? ContextError)?.code == .wrongType && "\(error)".contains("register")
        }
        #expect(plain.count == 1)  // Held until here: the context keeps it plain.
    }

    @Test func testAnAbstractClassInsertsNothingAndTheSaveSaysWhy() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let part = Part(context: fixture.context)
        part.label = "never"
        #expect(part.context == nil)
        #expect {
            try fixture.context.save()
        } throws: { error in
            (error as? ContextError)?.code == .abstractEntity
        }
    }

    @Test func testASetterErrorWaitsForTheSave() throws {
        let fixture = try TypedFixture(model: try TypedFixture.allTypes())
        let other = try TypedFixture(model: fixture.model)
        let sample = Sample(context: fixture.context)
        sample.owner = Owner(context: other.context)  // Another context's object.
        #expect(sample.owner == nil)
        #expect {
            try fixture.context.save()
        } throws: { error in
            (error as? ContextError)?.code == .foreignObject
        }
    }
}

/// The schema a generated model enum carries.
struct TypedModelSchemaTests {
    @Test func testTheEmbeddedSchemaIsTheVersionTheClassesCameFrom() throws {
        let embedded = try DiaryModel.loadSchema()
        let original = try TypedFixture.model("Schemas/Diary", version: 3)
        #expect(embedded.versionHashes == original.versionHashes)
        #expect(embedded == original)
    }
}
