import Foundation
import Testing

@testable import Strata
@testable import StrataContext

/// Objects another writer changed: the conflict idiom (a rollback re-reads
/// the conflicting rows, so a retry saves), `refreshAll()`, and fetches
/// with `refreshesRefetchedObjects`.
struct ContextRefreshTests {
    /// A Contacts store holding Ada Lovelace (p1) and Alan Turing (p2), and
    /// a second context on its own connection: the other writer.
    func twoContacts() throws -> (fixture: ContextFixture, other: Context) {
        let fixture = try ContextFixture("Contacts")
        for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing")] {
            let contact = try fixture.context.insert("Contact")
            try contact.set("firstName", first)
            try contact.set("lastName", last)
        }
        try fixture.context.save()
        return (fixture, try fixture.secondContext().1)
    }

    func contact(_ context: Context, _ last: String) throws -> ManagedObject? {
        try context.findFirst("Contact", where: ["lastName": .string(last)])
    }

    /// Ada's stored last name, nickname and `Z_OPT`.
    func storedAda(_ fixture: ContextFixture) throws -> [SQLiteValue] {
        var stored: [SQLiteValue] = []
        try fixture.store.connection.prepare(
            "SELECT ZLASTNAME, ZNICKNAME, Z_OPT FROM ZCONTACT WHERE Z_PK = 1"
        ).forEachRow { stored = $0.values() }
        return stored
    }

    /// The other writer renames Ada and saves.
    func renameAda(in other: Context, to name: String) throws {
        let theirs = try #require(try contact(other, "Lovelace"))
        try theirs.set("lastName", name)
        try other.save()
    }

    // MARK: - The conflict idiom

    @Test func theDocumentedConflictIdiomRetriesAndSaves() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try renameAda(in: other, to: "King")
        var saves = 0
        context.observe(.didSave) { _ in saves += 1 }

        // ObjectContext.md, "Several writers", line for line.
        try ada.set("nickname", "Countess")
        do {
            try context.save()
        } catch ContextError.conflict {
            context.rollback()  // ada now holds the other writer's row
            try ada.set("nickname", "Countess")
            try context.save()
        }

        // One save, the retry, on top of the other writer's: its name stays.
        #expect(saves == 1)
        #expect(try storedAda(fixture) == [.text("King"), .text("Countess"), .integer(3)])
        #expect(try ada.string("lastName") == "King")
        #expect(!context.hasChanges)
        try fixture.expectSound()
    }

    @Test func rollbackAfterAConflictLeavesAnObjectTheOtherWriterDeletedDeleted() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        let alan = try #require(try contact(context, "Turing"))
        try other.delete(try #require(try contact(other, "Lovelace")))
        try other.save()

        try ada.set("nickname", "Countess")
        try alan.set("nickname", "Prof")
        #expect {
            try context.save()
        } throws: { error in
            (error as? ContextError)?.code == .conflict
                && (error as? ContextError)?.objects == [ada.objectID]
        }
        context.rollback()
        #expect(ada.isDeleted)
        #expect(try alan.string("nickname") == nil)
        #expect(!context.hasChanges)

        try alan.set("nickname", "Prof")
        try context.save()
        let left = try context.findAll("Contact", sortedBy: "lastName")
        #expect(left.map(\.objectID) == [alan.objectID])
        #expect(try fixture.rows("ZCONTACT") == 1)
        try fixture.expectSound()
    }

    @Test func aConflictIsRememberedUntilTheRollbackAcrossFailedSaves() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try renameAda(in: other, to: "King")
        try ada.set("nickname", "Countess")
        #expect(throws: ContextError.self) { try context.save() }
        #expect(throws: ContextError.self) { try context.save() }
        context.rollback()
        #expect(try ada.string("lastName") == "King")
        try ada.set("nickname", "Countess")
        try context.save()
        #expect(try storedAda(fixture) == [.text("King"), .text("Countess"), .integer(3)])
    }

    @Test func rollbackWithoutAConflictReReadsNothing() throws {
        let (fixture, other) = try twoContacts()
        let ada = try #require(try contact(fixture.context, "Lovelace"))
        try renameAda(in: other, to: "King")
        try ada.set("nickname", "Countess")
        fixture.context.rollback()
        // The value read before the other writer's save, as Core Data keeps it.
        #expect(try ada.string("lastName") == "Lovelace")
        #expect(try ada.string("nickname") == nil)
    }

    // MARK: - refreshAll

    @Test func refreshAllShowsTheOtherWritersSavesOnTheObjectsHeld() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        let alan = try #require(try contact(context, "Turing"))
        try renameAda(in: other, to: "King")
        try other.delete(try #require(try contact(other, "Turing")))
        try other.save()

        // A refetch returns the object as the context holds it.
        let refetched = try context.findAll("Contact", sortedBy: "firstName")
        #expect(refetched.count == 1 && refetched.first === ada)
        #expect(try ada.string("lastName") == "Lovelace")

        var seen: [ChangeSet] = []
        context.observe(.objectsDidChange) { seen.append($0) }
        try context.refreshAll()
        #expect(try ada.string("lastName") == "King")
        #expect(try contact(context, "King") === ada)
        #expect(alan.isDeleted)
        #expect(seen.map(\.updated) == [[ada.objectID]])
        #expect(seen.map(\.deleted) == [[alan.objectID]])
        #expect(!context.hasChanges)

        // The version read with the row: the next save does not conflict.
        try ada.set("nickname", "Countess")
        try context.save()
        #expect(try storedAda(fixture) == [.text("King"), .text("Countess"), .integer(3)])

        // Nothing changed since: nothing is reported.
        let reported = seen.count
        try context.refreshAll()
        #expect(seen.count == reported)
    }

    @Test func refreshAllKeepsUnsavedChangesAndTheirConflict() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try ada.set("nickname", "Countess")
        try renameAda(in: other, to: "King")

        try context.refreshAll()
        #expect(try ada.string("nickname") == "Countess")
        #expect(try ada.string("lastName") == "Lovelace")
        #expect(ada.hasChanges)
        // Saving over the other writer's save still conflicts: nothing lost.
        #expect(throws: ContextError.self) { try context.save() }
        #expect(try storedAda(fixture) == [.text("King"), .null, .integer(2)])
    }

    @Test func refreshAllReportsToFetchedResultsFollowingAllChanges() throws {
        let (fixture, other) = try twoContacts()
        var request = FetchRequest(entity: "Contact")
        request.sortDescriptors = [SortDescriptor("firstName")]
        let results = try FetchedResults(
            context: fixture.context, request: request, tracking: .allChanges)
        var reports: [FetchedResultsChanges] = []
        results.onChange = { reports.append($0) }
        try results.performFetch()
        let ada = try #require(results.fetchedObjects.first)
        try renameAda(in: other, to: "King")

        try fixture.context.refreshAll()
        #expect(reports.count == 1)
        #expect(results.fetchedObjects.first === ada)
        #expect(try ada.string("lastName") == "King")
    }

    // MARK: - Fetching with refreshesRefetchedObjects

    @Test func aFetchRefreshesTheObjectsHeldOnlyWhenAsked() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try renameAda(in: other, to: "King")
        var seen: [ChangeSet] = []
        context.observe(.objectsDidChange) { seen.append($0) }

        var request = FetchRequest(entity: "Contact")
        #expect(try context.fetch(request).first === ada)
        #expect(try ada.string("lastName") == "Lovelace")

        request.refreshesRefetchedObjects = true
        #expect(try context.fetch(request).first === ada)
        #expect(try ada.string("lastName") == "King")
        // Reported with the next pending changes, not during the fetch.
        #expect(seen.isEmpty)
        context.processPendingChanges()
        #expect(seen.map(\.updated) == [[ada.objectID]])

        try ada.set("nickname", "Countess")
        try context.save()
        #expect(try storedAda(fixture) == [.text("King"), .text("Countess"), .integer(3)])
    }

    @Test func aRefreshingFetchKeepsUnsavedChanges() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try ada.set("nickname", "Countess")
        try renameAda(in: other, to: "King")

        var request = FetchRequest(entity: "Contact")
        request.refreshesRefetchedObjects = true
        let fetched = try context.fetch(request)
        #expect(fetched.contains { $0 === ada })
        #expect(try ada.string("nickname") == "Countess")
        #expect(try ada.string("lastName") == "Lovelace")
        #expect(throws: ContextError.self) { try context.save() }
        #expect(try storedAda(fixture) == [.text("King"), .null, .integer(2)])
    }

    @Test func aRefreshingFetchOfAnAbstractEntityReadsSubentityRowsWhole() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let circle = try fixture.context.insert("Circle")
        try circle.set("name", "dot")
        try circle.set("radius", 1.0)
        try fixture.context.save()
        let (_, other) = try fixture.secondContext()
        let theirs = try other.object(with: circle.objectID)
        try theirs.set("name", "disc")
        try theirs.set("radius", 2.0)
        try other.save()

        var request = FetchRequest(entity: "Shape")
        request.refreshesRefetchedObjects = true
        #expect(try fixture.context.fetch(request).first === circle)
        #expect(try circle.string("name") == "disc")
        #expect(try circle.double("radius") == 2.0)
        try circle.set("radius", 3.0)
        try fixture.context.save()
    }

    /// ObjectContext.md, "Objects other writers changed", line for line.
    @Test func theDocumentedRefreshesShowTheOtherWritersSave() throws {
        let (fixture, other) = try twoContacts()
        let context = fixture.context
        let ada = try #require(try contact(context, "Lovelace"))
        try renameAda(in: other, to: "King")

        try context.refreshAll()
        var request = FetchRequest(entity: "Contact")
        request.refreshesRefetchedObjects = true
        let contacts = try context.fetch(request)

        #expect(contacts.first === ada)
        #expect(try ada.string("lastName") == "King")
    }
}
