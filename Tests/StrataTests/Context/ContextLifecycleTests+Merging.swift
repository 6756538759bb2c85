import Foundation
import Testing

@testable import Strata
@testable import StrataContext

/// Two contexts on one store: merging the other's saves, and conflicting
/// saves under each merge policy.
extension ContextLifecycleTests {
    private func version(_ fixture: ContextFixture) throws -> Int64? {
        try fixture.integer("SELECT Z_OPT FROM ZCONTACT WHERE Z_PK = 1")
    }

    private func storedLastName(_ fixture: ContextFixture) throws -> String? {
        try fixture.store.connection.scalar("SELECT ZLASTNAME FROM ZCONTACT WHERE Z_PK = 1")?
            .stringValue
    }

    @Test func testMergeShowsTheEditorsSavesInTheListContext() throws {
        let fixture = try twoContacts()
        let list = fixture.context
        let (_, editor) = try fixture.secondContext()
        let listed = try list.findAll("Contact", sortedBy: "lastName")
        #expect(listed.count == 2)
        editor.observe(.didSave) { changes in
            #expect(throws: Never.self) { try list.merge(changes: changes) }
        }
        var seen: [ChangeSet] = []
        list.observe(.objectsDidChange) { seen.append($0) }

        let ada = try #require(try contact(editor, "Lovelace"))
        try ada.set("lastName", "King")
        try editor.delete(try #require(try contact(editor, "Turing")))
        let grace = try editor.insert("Contact")
        try grace.set("firstName", "Grace")
        try grace.set("lastName", "Hopper")
        try editor.save()

        // The same objects, with the editor's values; the deleted one gone.
        #expect(try listed[0].string("lastName") == "King")
        #expect(listed[1].isDeleted)
        #expect(try lastNames(list) == ["Hopper", "King"])
        #expect(try contact(list, "King") === listed[0])
        #expect(seen.count == 1)
        #expect(seen.first?.updated == [listed[0].objectID])
        #expect(seen.first?.deleted == [listed[1].objectID])
        #expect(seen.first?.inserted == [grace.objectID])
        #expect(!list.hasChanges)
        try fixture.expectSound()
    }

    @Test func testConflictingSaveFailsListingTheObjectAndWritesNothing() throws {
        let fixture = try twoContacts()
        let (_, other) = try fixture.secondContext()
        let mine = try #require(try contact(fixture.context, "Lovelace"))
        let theirs = try #require(try contact(other, "Lovelace"))
        try theirs.set("lastName", "King")
        try other.save()
        #expect(try version(fixture) == 2)

        try mine.set("lastName", "Byron")
        let draft = try fixture.context.insert("Contact")
        try draft.set("firstName", "Grace")
        try draft.set("lastName", "Hopper")
        let failure = error { try fixture.context.save() }
        #expect(failure?.code == .conflict)
        #expect(failure?.objects == [mine.objectID])
        #expect(failure?.message.contains("Contact/p1") == true)
        // Nothing written: not the edit, not the insert.
        #expect(try storedLastName(fixture) == "King")
        #expect(try version(fixture) == 2)
        #expect(try fixture.rows("ZCONTACT") == 2)
        #expect(try fixture.maxKey("Contact") == 2)
        #expect(draft.isInserted && mine.hasChanges)
        #expect(try mine.string("lastName") == "Byron")
    }

    @Test func testStoreWinsKeepsTheOtherWritersValue() throws {
        let fixture = try twoContacts()
        let (_, other) = try fixture.secondContext()
        let mine = try #require(try contact(fixture.context, "Lovelace"))
        let theirs = try #require(try contact(other, "Lovelace"))
        try theirs.set("lastName", "King")
        try other.save()

        fixture.context.mergePolicy = .storeWins
        try mine.set("lastName", "Byron")
        let alan = try #require(try contact(fixture.context, "Turing"))
        try alan.set("nickname", "Prof")
        try fixture.context.save()
        #expect(try storedLastName(fixture) == "King")
        #expect(try version(fixture) == 2)
        #expect(try mine.string("lastName") == "King")
        #expect(!mine.hasChanges && !fixture.context.hasChanges)
        // The rest of the save went ahead.
        #expect(try fixture.integer("SELECT Z_OPT FROM ZCONTACT WHERE Z_PK = 2") == 2)
        try fixture.expectSound()
    }

    @Test func testContextWinsOverwritesTheOtherWritersValue() throws {
        let fixture = try twoContacts()
        let (_, other) = try fixture.secondContext()
        let mine = try #require(try contact(fixture.context, "Lovelace"))
        let theirs = try #require(try contact(other, "Lovelace"))
        try theirs.set("lastName", "King")
        try other.save()

        fixture.context.mergePolicy = .contextWins
        try mine.set("lastName", "Byron")
        try fixture.context.save()
        #expect(try storedLastName(fixture) == "Byron")
        #expect(try version(fixture) == 3)
        try fixture.expectSound()

        // Both contexts can go on saving: versions stay in step.
        try other.refresh(theirs)
        try theirs.set("firstName", "Augusta Ada")
        try other.save()
        #expect(try version(fixture) == 4)
    }

    /// `.contextWins` merges property by property: this context's changed
    /// values win, the other writer's changes to other properties stay.
    @Test func testContextWinsKeepsTheOtherWritersOtherProperties() throws {
        let fixture = try twoContacts()
        let (_, other) = try fixture.secondContext()
        let mine = try #require(try contact(fixture.context, "Lovelace"))
        let theirs = try #require(try contact(other, "Lovelace"))
        try theirs.set("nickname", "Enchantress of Numbers")
        try other.save()

        fixture.context.mergePolicy = .contextWins
        try mine.set("firstName", "Augusta Ada")
        #expect(fixture.context.updatedObjects.map(\.objectID) == [mine.objectID])
        try fixture.context.save()
        let row = try fixture.store.connection.prepare(
            "SELECT ZFIRSTNAME, ZNICKNAME, Z_OPT FROM ZCONTACT WHERE Z_PK = 1")
        #expect(try row.step())
        #expect(row.text(at: 0) == "Augusta Ada")
        #expect(row.text(at: 1) == "Enchantress of Numbers")
        #expect(row.int64(at: 2) == 3)
        // The object now shows the merged row.
        #expect(try mine.string("nickname") == "Enchantress of Numbers")
        #expect(!mine.hasChanges && fixture.context.updatedObjects.isEmpty)
        try fixture.expectSound()
    }
}
