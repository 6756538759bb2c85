import Foundation
import Testing

@testable import Strata
@testable import StrataContext

/// The contacts tutorial app: add, edit, delete, and a list sorted by last
/// name.
struct ContactsFlowTests {
    /// Adds a contact as the app's "new contact" form does.
    @discardableResult
    private func add(_ context: Context, _ first: String, _ last: String) throws -> ManagedObject {
        let contact = try context.insert("Contact")
        try contact.set("firstName", first)
        try contact.set("lastName", last)
        return contact
    }

    private func lastNames(_ context: Context) throws -> [String?] {
        try context.findAll("Contact", sortedBy: "lastName").map { try $0.string("lastName") }
    }

    @Test func testAddedContactsListSortedByLastName() throws {
        let contacts = try ContextFixture("Contacts")
        try add(contacts.context, "Grace", "Hopper")
        try add(contacts.context, "Ada", "Lovelace")
        try add(contacts.context, "Alan", "Turing")
        try add(contacts.context, "Charles", "Babbage")
        // Before the save, the list already shows the new contacts.
        #expect(try lastNames(contacts.context) == ["Babbage", "Hopper", "Lovelace", "Turing"])
        try contacts.context.save()
        try contacts.expectSound()

        let relaunched = try contacts.reopened()
        #expect(try lastNames(relaunched) == ["Babbage", "Hopper", "Lovelace", "Turing"])
        #expect(try relaunched.count("Contact") == 4)
        #expect(try contacts.rows("ZCONTACT") == 4)
        #expect(try contacts.maxKey("Contact") == 4)
    }

    @Test func testEditRaisesZOptFromOneToTwo() throws {
        let contacts = try ContextFixture("Contacts")
        let ada = try add(contacts.context, "Ada", "Byron")
        try contacts.context.save()
        let key = try #require(ada.objectID.primaryKey)
        let version = "SELECT Z_OPT FROM ZCONTACT WHERE Z_PK = ?"
        #expect(try contacts.integer(version, [.integer(key)]) == 1)

        try ada.set("lastName", "Lovelace")
        try ada.set("nickname", "Enchantress of Numbers")
        try contacts.context.save()
        try contacts.expectSound()
        #expect(try contacts.integer(version, [.integer(key)]) == 2)

        let relaunched = try contacts.reopened()
        let reloaded = try #require(try relaunched.findFirst("Contact"))
        #expect(try reloaded.string("lastName") == "Lovelace")
        #expect(try reloaded.string("nickname") == "Enchantress of Numbers")
        #expect(try reloaded.string("firstName") == "Ada")
    }

    @Test func testSettingTheSameValueIsNotAnEdit() throws {
        let contacts = try ContextFixture("Contacts")
        let ada = try add(contacts.context, "Ada", "Lovelace")
        try contacts.context.save()
        try ada.set("lastName", "Lovelace")
        #expect(!contacts.context.hasChanges)
        try contacts.context.save()
        #expect(try contacts.integer("SELECT Z_OPT FROM ZCONTACT") == 1)
    }

    @Test func testDeleteRemovesTheRowAndTheListEntry() throws {
        let contacts = try ContextFixture("Contacts")
        try add(contacts.context, "Ada", "Lovelace")
        let alan = try add(contacts.context, "Alan", "Turing")
        try contacts.context.save()

        try contacts.context.delete(alan)
        #expect(try lastNames(contacts.context) == ["Lovelace"])
        try contacts.context.save()
        try contacts.expectSound()
        #expect(try contacts.rows("ZCONTACT") == 1)
        #expect(try lastNames(contacts.reopened()) == ["Lovelace"])
    }

    @Test func testKeysAreNotReusedAfterDeletingTheNewest() throws {
        let contacts = try ContextFixture("Contacts")
        try add(contacts.context, "Ada", "Lovelace")
        let newest = try add(contacts.context, "Alan", "Turing")
        try contacts.context.save()
        #expect(newest.objectID.primaryKey == 2)

        try contacts.context.delete(newest)
        try contacts.context.save()
        #expect(try contacts.integer("SELECT MAX(Z_PK) FROM ZCONTACT") == 1)
        #expect(try contacts.maxKey("Contact") == 2)

        let another = try add(contacts.context, "Grace", "Hopper")
        try contacts.context.save()
        try contacts.expectSound()
        #expect(another.objectID.primaryKey == 3)
        #expect(try contacts.maxKey("Contact") == 3)
        #expect(try contacts.integerRows("SELECT Z_PK FROM ZCONTACT ORDER BY Z_PK") == [[1], [3]])
    }
}
