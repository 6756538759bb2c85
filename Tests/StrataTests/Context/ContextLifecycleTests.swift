import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataStore

/// The context's own life: uniquing, rollback, reset, errors, ids, failed
/// saves, observers, merging and conflicts between contexts.
struct ContextLifecycleTests {
    /// A contacts store with Ada Lovelace (p1) and Alan Turing (p2) saved.
    func twoContacts() throws -> ContextFixture {
        let fixture = try ContextFixture("Contacts")
        for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
            let contact = try fixture.context.insert("Contact")
            try contact.set("firstName", first)
            try contact.set("lastName", last)
        }
        try fixture.context.save()
        return fixture
    }

    func contact(_ context: Context, _ last: String) throws -> ManagedObject? {
        try context.findFirst("Contact", where: ["lastName": .string(last)])
    }

    func lastNames(_ context: Context) throws -> [String?] {
        try context.findAll("Contact", sortedBy: "lastName").map { try $0.string("lastName") }
    }

    func error(_ body: () throws -> Void) -> ContextError? {
        do {
            try body()
            return nil
        } catch {
            return error as? ContextError
        }
    }

    // MARK: - Identity

    @Test func testFetchingTwiceGivesTheIdenticalObject() throws {
        let fixture = try twoContacts()
        let context = try fixture.reopened()
        let first = try context.findAll("Contact", sortedBy: "lastName")
        let second = try context.findAll("Contact", sortedBy: "lastName")
        #expect(first.count == 2)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(try context.object(with: first[0].objectID) === first[0])
        #expect(try contact(context, "Turing") === first[1])
    }

    @Test func testObjectIDURIRoundTrips() throws {
        let fixture = try twoContacts()
        let ada = try #require(try contact(fixture.context, "Lovelace"))
        let uuid = fixture.store.metadata.uuid
        #expect(ada.uri == "x-coredata://\(uuid)/Contact/p1")
        let parsed = try #require(ObjectID(uri: ada.uri, storeUUID: uuid))
        #expect(parsed == ada.objectID)
        #expect(try fixture.reopened().object(with: parsed).string("lastName") == "Lovelace")
        #expect(ObjectID(uri: ada.uri, storeUUID: UUID().uuidString) == nil)
        let draft = try fixture.context.insert("Contact")
        #expect(draft.uri.hasPrefix("x-coredata:///Contact/t"))
        #expect(ObjectID(uri: draft.uri, storeUUID: uuid) == nil)
        #expect(ObjectID(uri: "x-coredata://\(uuid)/Contact/p0", storeUUID: uuid) == nil)
    }

    @Test func testObjectWithIDOfAMissingRowFails() throws {
        let fixture = try twoContacts()
        let missing = try #require(
            ObjectID(
                uri: "x-coredata://\(fixture.store.metadata.uuid)/Contact/p42",
                storeUUID: fixture.store.metadata.uuid))
        let failure = error { _ = try fixture.context.object(with: missing) }
        #expect(failure?.code == .objectNotFound)
        #expect(failure?.message == "Contact/p42 is not in the store")
        #expect(failure?.objects == [missing])
    }

    // MARK: - Undoing

    @Test func testRollbackDiscardsInsertsUpdatesAndDeletes() throws {
        let fixture = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        let alan = try #require(try contact(context, "Turing"))
        let grace = try context.insert("Contact")
        try grace.set("lastName", "Hopper")
        try ada.set("lastName", "Byron")
        try context.delete(alan)
        #expect(try lastNames(context) == ["Byron", "Hopper"])

        context.rollback()
        #expect(!context.hasChanges)
        #expect(try ada.string("lastName") == "Lovelace")
        #expect(!alan.isDeleted && !ada.hasChanges)
        #expect(!grace.isInserted)
        // A rolled-back insert no longer belongs to the context.
        #expect(throws: ContextError.self) { try grace.set("lastName", "Hopper") }
        #expect(try lastNames(context) == ["Lovelace", "Turing"])
        #expect(try contact(context, "Turing") === alan)
        try context.save()
        #expect(try fixture.rows("ZCONTACT") == 2)
        #expect(try fixture.maxKey("Contact") == 2)
        try fixture.expectSound()
    }

    @Test func testResetForgetsEveryObject() throws {
        let fixture = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try ada.set("nickname", "Ada")
        context.reset()
        #expect(!context.hasChanges)
        let again = try #require(try contact(context, "Lovelace"))
        #expect(again !== ada)
        #expect(try again.string("nickname") == nil)
        let failure = error { try ada.set("nickname", "again") }
        #expect(failure?.code == .foreignObject)
        #expect(failure?.message.contains("Contact/p1") == true)
    }

    @Test func testHasChangesFollowsInsertsEditsDeletesAndSaves() throws {
        let fixture = try twoContacts()
        let context = try fixture.reopened()
        #expect(!context.hasChanges)
        let ada = try #require(try contact(context, "Lovelace"))
        #expect(!context.hasChanges)
        try ada.set("nickname", "Countess")
        #expect(context.hasChanges && ada.hasChanges)
        try context.save()
        #expect(!context.hasChanges && !ada.hasChanges)
        try context.delete(ada)
        #expect(context.hasChanges && ada.isDeleted)
        try context.save()
        #expect(!context.hasChanges)
        _ = try context.insert("Contact")
        #expect(context.hasChanges)
    }

    // MARK: - Errors

    @Test func testMisuseFailsWithErrorsNamingEntityAndProperty() throws {
        let fixture = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))

        let wrongType = error { try ada.set("firstName", Int64(3)) }
        #expect(wrongType?.code == .wrongType)
        #expect(
            wrongType?.message == "Contact.firstName is string; a value of type Int64 does not fit")
        #expect(try ada.string("firstName") == "Ada")

        let unknownKey = error { _ = try ada.value(forKey: "age") }
        #expect(unknownKey?.code == .unknownProperty)
        #expect(unknownKey?.message == "Contact has no attribute 'age'")
        let unknownRelationship = error { _ = try ada.object(forKey: "manager") }
        #expect(unknownRelationship?.message == "Contact has no relationship 'manager'")
        let wrongKind = error { _ = try ada.objects(forKey: "lastName") }
        #expect(wrongKind?.code == .wrongPropertyKind)
        #expect(wrongKind?.message == "Contact.lastName is an attribute, not a relationship")

        let unknownEntity = error { _ = try context.insert("Person") }
        #expect(unknownEntity?.code == .unknownEntity)
        #expect(unknownEntity?.message == "the model has no entity 'Person' (entities: Contact)")

        let shapes = try ContextFixture(model: GraphModels.shapes())
        let abstract = error { _ = try shapes.context.insert("Shape") }
        #expect(abstract?.code == .abstractEntity)
        #expect(abstract?.message == "Shape is abstract and cannot have instances")
        #expect(!context.hasChanges)
    }

    @Test func testObjectsOfAnotherContextAreRefused() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        let (_, other) = try fixture.secondContext()
        let author = try fixture.context.insert("Author")
        let stranger = try other.insert("Book")
        let linking = error { try author.add(stranger, to: "books") }
        #expect(linking?.code == .foreignObject)
        #expect(
            linking?.message == "Book/t1 belongs to another context (or was forgotten by reset)")
        #expect(try author.objects(forKey: "books").isEmpty)
        let deleting = error { try fixture.context.delete(stranger) }
        #expect(deleting?.code == .foreignObject)
        #expect(deleting?.objects == [stranger.objectID])
    }

    // MARK: - Failed saves

    @Test func testFailedValidationLeavesStoreAndContextAsBefore() throws {
        let fixture = try ContextFixture("Notes")
        let context = fixture.context
        let first = try context.insert("Note")
        try first.set("title", "First")
        try context.save()
        let before = try fixture.integerRows("SELECT Z_PK, Z_OPT FROM ZNOTE")

        try first.set("title", String(repeating: "x", count: 201))
        let second = try context.insert("Note")
        try second.set("title", "Second")
        let stamp = try second.date("date")
        #expect {
            try context.save()
        } throws: { error in
            (error as? ValidationError)?.failures.map(\.description) == [
                "Note/p1.title: maxLength: 201 characters, at most 200 allowed"
            ]
        }
        // The store is untouched…
        #expect(try fixture.integerRows("SELECT Z_PK, Z_OPT FROM ZNOTE") == before)
        #expect(try fixture.maxKey("Note") == 1)
        // …and so is the context.
        #expect(second.isInserted && second.objectID.isTemporary)
        #expect(try second.date("date") == stamp)
        #expect(try first.string("title")?.count == 201)
        #expect(context.hasChanges && first.hasChanges)
        #expect(try context.count("Note") == 2)

        try first.set("title", "First, shorter")
        try context.save()
        #expect(second.objectID.primaryKey == 2)
        #expect(
            try fixture.integerRows("SELECT Z_PK, Z_OPT FROM ZNOTE ORDER BY Z_PK") == [
                [1, 2], [2, 1],
            ])
        try fixture.expectSound()
    }

    // MARK: - Observers

    @Test func testObserversSeeChangesWillSaveAndPermanentIDsOnDidSave() throws {
        let fixture = try twoContacts()
        let context = fixture.context
        var events: [(ContextEvent, ChangeSet)] = []
        let token = context.observe(.objectsDidChange) { events.append((.objectsDidChange, $0)) }
        context.observe(.willSave) { events.append((.willSave, $0)) }
        context.observe(.didSave) { events.append((.didSave, $0)) }

        let ada = try #require(try contact(context, "Lovelace"))
        let grace = try context.insert("Contact")
        try grace.set("firstName", "Grace")
        try grace.set("lastName", "Hopper")
        try ada.set("nickname", "Countess")
        let temporary = grace.objectID
        context.processPendingChanges()
        #expect(events.count == 1)
        #expect(events.first?.1.inserted == [temporary])
        #expect(events.first?.1.updated == [ada.objectID])

        try context.save()
        #expect(events.map(\.0) == [.objectsDidChange, .willSave, .didSave])
        #expect(events[1].1.inserted == [temporary])
        #expect(events[2].1.inserted == [grace.objectID])
        #expect(grace.objectID.primaryKey == 3)
        #expect(events[2].1.updated == [ada.objectID])
        #expect(events[2].1.deleted.isEmpty)

        context.removeObserver(token)
        try context.delete(ada)
        try context.save()
        #expect(events.map(\.0).suffix(2) == [.willSave, .didSave])
        #expect(events.last?.1.deleted == [ada.objectID])
    }
}
