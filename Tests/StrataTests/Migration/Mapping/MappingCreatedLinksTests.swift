import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

private typealias S = MappingTestSupport

/// Issue 26: a `"from"` link reaches objects that another rule creates, as
/// Core Data's `destinationInstancesForEntityMappingNamed:sourceInstances:`
/// does. The shape is SRGUserData's version 5 to 6: `HistoryEntry` becomes
/// `SRGHistoryEntry` under a new abstract parent and `User` becomes
/// `SRGUser`, both by the mapping model, not by renaming identifiers.
struct MappingCreatedLinksTests {
    static let v5 = #"""
        {
          "HistoryEntry": {
            "attributes": {
              "mediaURN": { "type": "string", "optional": true },
              "deviceName": { "type": "string", "optional": true } },
            "relationships": {
              "user": { "destination": "User", "inverse": "historyEntries", "optional": true } } },
          "User": {
            "attributes": { "accountUid": { "type": "string", "optional": true } },
            "relationships": {
              "historyEntries": { "destination": "HistoryEntry", "inverse": "user",
                                  "toMany": true, "optional": true } } }
        }
        """#
    static let v6 = #"""
        {
          "SRGUserObject": {
            "abstract": true,
            "attributes": { "uid": { "type": "string", "optional": true } } },
          "SRGHistoryEntry": {
            "parent": "SRGUserObject",
            "attributes": { "deviceUid": { "type": "string", "optional": true } },
            "relationships": {
              "user": { "destination": "SRGUser", "inverse": "historyEntries", "optional": true } } },
          "SRGUser": {
            "attributes": { "accountUid": { "type": "string", "optional": true } },
            "relationships": {
              "historyEntries": { "destination": "SRGHistoryEntry", "inverse": "user",
                                  "toMany": true, "optional": true } } }
        }
        """#

    static let mapping = #"""
        {"format": "strata-mapping/1", "from": 5, "to": 6, "entities": {
          "SRGUser": { "source": "User", "entityMapping": "UserToSRGUser" },
          "SRGHistoryEntry": {
            "source": "HistoryEntry", "entityMapping": "HistoryEntryToSRGHistoryEntry",
            "where": "mediaURN != nil",
            "attributes": { "deviceUid": "deviceName", "uid": "mediaURN" },
            "relationships": { "user": { "from": "user" } } }
        }}
        """#

    @Test func testLinksReachTheObjectsCreatedFromTheirTargets() throws {
        let v5 = try S.model("SRGUserData", 5, Self.v5)
        let v6 = try S.model("SRGUserData", 6, Self.v6)
        let fixture = try MappingFixture(v5) { context in
            var users: [ManagedObject] = []
            for account in ["a", "b"] {
                let user = try context.insert("User")
                try user.set("accountUid", account)
                users.append(user)
            }
            for (urn, device, user) in [
                ("urn:1", "phone", 1), ("urn:2", "tablet", 0), (nil, "tv", 0), ("urn:3", "tv", 1),
            ] {
                let entry = try context.insert("HistoryEntry")
                try entry.set("mediaURN", urn)
                try entry.set("deviceName", device)
                try entry.setObject(users[user], forKey: "user")
            }
        }
        let mapping = try S.mapping(Self.mapping, from: v5, to: v6)
        #expect(
            MigrationPlan(from: v5, to: v6).steps.filter { $0.label != .inferred }
                .allSatisfy(mapping.covers))
        let context = try fixture.migrate(to: v6, with: mapping)
        let entries = try context.all("SRGHistoryEntry")
        #expect(try entries.map { try $0.string("uid") } == ["urn:1", "urn:2", "urn:3"])
        #expect(try entries.map { try $0.string("deviceUid") } == ["phone", "tablet", "tv"])
        #expect(
            try entries.map { try $0.object(forKey: "user")?.string("accountUid") } == [
                "b", "a", "b",
            ])
        let users = try context.all("SRGUser")
        #expect(
            try users.map {
                try $0.objects(forKey: "historyEntries").map { try $0.string("uid") ?? "" }.sorted()
            } == [["urn:2"], ["urn:1", "urn:3"]])
    }

    @Test func testALinkToNeitherContinuedNorCreatedObjectsIsRefused() throws {
        let v5 = try S.model("SRGUserData", 5, Self.v5)
        let v6 = try S.model("SRGUserData", 6, Self.v6)
        let text = Self.mapping.replacingOccurrences(
            of: #""SRGUser": { "source": "User", "entityMapping": "UserToSRGUser" },"#, with: "")
        let issues = S.issues(text, from: v5, to: v6)
        #expect(
            issues.map(\.message).contains {
                $0.hasPrefix("the links go to SRGUser, which is new, but the path ends at User")
            }, "\(issues)")
    }
}
