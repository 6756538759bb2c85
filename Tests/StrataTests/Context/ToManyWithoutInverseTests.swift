import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataMigration
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// To-many relationships without an inverse (a messenger's `Reaction.users`),
/// next to a to-one without one (`Message.sender`): converted from Xcode with
/// a warning, laid out as a join table of their own (unverified layout),
/// hashed without an inverse name, kept by the context, queried by
/// predicates, and migrated with every link kept.
struct ToManyWithoutInverseTests {
    static let messenger = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel">
            <entity name="Message">
                <attribute name="text" optional="YES" attributeType="String"/>
                <relationship name="reactions" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Reaction" inverseName="message" inverseEntity="Reaction"/>
                <relationship name="sender" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
            </entity>
            <entity name="Reaction">
                <attribute name="emoji" optional="YES" attributeType="String"/>
                <relationship name="message" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Message" inverseName="reactions" inverseEntity="Message"/>
                <relationship name="users" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="User"/>
            </entity>
            <entity name="User">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    private func convert() throws -> XcodeModelBundle {
        let folder = try TemporaryDirectory()
        let version = folder.file("Messenger.xcdatamodeld/Messenger.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(Self.messenger.utf8).write(to: version.appendingPathComponent("contents"))
        return try XcodeModelReader().read(at: folder.file("Messenger.xcdatamodeld"))
    }

    @Test func testConvertsWithWarningsAndLaysOutAJoinTableWithItsHash() throws {
        let bundle = try convert()
        #expect(
            bundle.warnings.map { "\($0.line ?? 0) \($0.element ?? "")" } == [
                "6 <relationship name=\"sender\">", "11 <relationship name=\"users\">",
            ])
        let model = try #require(bundle.versions.first)
        #expect(SchemaValidator().validate(model).isEmpty)
        #expect(SchemaValidator().warnings(model).count == 2)
        let text = try SchemaEncoder().encode(model)
        #expect(try SchemaDecoder().decode(Data(text.utf8), file: "1.json") == model)

        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Messenger.sqlite"), model: model)
        defer { try? store.close() }
        // Message 1, Reaction 2, User 3: the table is named after Reaction.users.
        let sql = try #require(
            try store.connection.scalar(
                "SELECT sql FROM sqlite_master WHERE name = 'Z_2USERS'")?.stringValue)
        #expect(sql.contains("Z_2REACTION INTEGER"))
        #expect(sql.contains("Z_3USERS INTEGER"))
        #expect(sql.contains("PRIMARY KEY (Z_2REACTION, Z_3USERS)"))
        #expect(
            try store.connection.scalar(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'Z_2USERS_Z_3USERS_INDEX'")
                == .integer(1))
        // §1.11: relHash = SHA256(propHash ‖ "User" ‖ u32 maxCount 0 ‖ u32 minCount 0).
        var property = SHA256()
        property.update("users".utf8)
        property.update([1, 0])  // optional
        var relationship = SHA256()
        relationship.update(property.finalize())
        relationship.update("User".utf8)
        relationship.update([0, 0, 0, 0, 0, 0, 0, 0])
        #expect(
            model.propertyVersionHashes(ofEntity: "Reaction")["users"]
                == relationship.finalize())
        #expect(
            store.metadata.versionHashes["Reaction"]
                == Data(model.versionHashes["Reaction"] ?? []))
    }

    @Test func testContextSavesFetchesQueriesAndDropsDeletedMembers() throws {
        let model = try #require(try convert().versions.first)
        let fixture = try ContextFixture(model: model)
        let context = fixture.context
        var users: [String: ManagedObject] = [:]
        for name in ["Ada", "Bob", "Cy"] {
            let user = try context.insert("User")
            try user.set("name", name)
            users[name] = user
        }
        let message = try context.insert("Message")
        try message.set("text", "Hello")
        let ada = try #require(users["Ada"])
        try message.setObject(ada, forKey: "sender")
        for (emoji, names) in [("👍", ["Ada", "Bob", "Cy"]), ("🎉", ["Bob"])] {
            let reaction = try context.insert("Reaction")
            try reaction.set("emoji", emoji)
            try reaction.setObject(message, forKey: "message")
            for name in names { try reaction.add(try #require(users[name]), to: "users") }
        }
        try context.save()
        try fixture.expectSound()
        #expect(try fixture.integer("SELECT COUNT(*) FROM Z_2USERS") == 4)

        let reread = try fixture.reopened()
        func emojis(_ predicate: String) throws -> [String] {
            try reread.fetch(
                FetchRequest(entity: "Reaction", predicate: try FetchPredicate(predicate))
            )
            .map { try $0.string("emoji") ?? "" }.sorted()
        }
        #expect(try emojis("ANY users.name == 'Bob'") == ["🎉", "👍"])
        #expect(try emojis("users.@count == 3") == ["👍"])
        let thumbs = try #require(
            try reread.fetch(
                FetchRequest(entity: "Reaction", predicate: try FetchPredicate("emoji == '👍'"))
            ).first)
        #expect(
            try thumbs.objects(forKey: "users").map { try $0.string("name") } == [
                "Ada", "Bob", "Cy",
            ])

        // Removing through the to-many.
        let cy = try #require(try thumbs.objects(forKey: "users").last)
        try thumbs.remove(cy, from: "users")
        try reread.save()
        #expect(try fixture.integer("SELECT COUNT(*) FROM Z_2USERS") == 3)

        // Deleting a destination: it drops out at once and after the save.
        let bob = try #require(try thumbs.objects(forKey: "users").last)
        try reread.delete(bob)
        #expect(try thumbs.objects(forKey: "users").map { try $0.string("name") } == ["Ada"])
        try reread.save()
        let after = try fixture.reopened()
        let reactions = try after.findAll("Reaction", sortedBy: "emoji")
        #expect(try reactions.map { try $0.objects(forKey: "users").count } == [0, 1])
        #expect(try fixture.store.checkRelationships(model: fixture.model).isEmpty)

        // Delete rules apply from the source side: the reaction's own rows go.
        try after.delete(try #require(reactions.last))
        try after.save()
        #expect(try fixture.integer("SELECT COUNT(*) FROM Z_2USERS WHERE Z_2REACTION = 1") == 0)
        #expect(try fixture.reopened().findAll("User").count == 2)
    }
}

/// Migrations of to-many relationships without an inverse: added, removed,
/// gaining and losing an inverse, every link kept.
struct ToManyWithoutInverseMigrationTests {
    /// v1: `Reaction.users` without an inverse, `Message.sender` to-one
    /// without one. v2: `Message.readers` added (to-many, no inverse). v3:
    /// `readers` removed, `users` gains the inverse `User.reactions`. v4:
    /// `users` loses it again.
    static func schema(_ version: Int) -> String {
        let readers =
            version == 2
            ? #", "readers": { "destination": "User", "toMany": true, "optional": true }"# : ""
        let users =
            version == 3
            ? #""users": { "destination": "User", "inverse": "reactions", "toMany": true, "optional": true }"#
            : #""users": { "destination": "User", "toMany": true, "optional": true }"#
        let reactions =
            version == 3
            ? #", "relationships": { "reactions": { "destination": "Reaction", "inverse": "users", "toMany": true, "optional": true } }"#
            : ""
        return """
            { "format": "strata-schema/1", "model": "Messenger", "version": \(version),
              "entities": {
                "Message": { "attributes": { "text": { "type": "string", "optional": true } },
                             "relationships": { "sender": { "destination": "User", "optional": true }\(readers) } },
                "Reaction": { "attributes": { "emoji": { "type": "string", "optional": true } },
                              "relationships": { \(users) } },
                "User": { "attributes": { "name": { "type": "string", "optional": true } }\(reactions) }
              } }
            """
    }

    private func migrate(_ url: URL, _ schemas: URL, to version: Int) throws {
        var options = MigrationOptions()
        options.targetVersion = version
        options.acceptsLossySteps = true
        _ = try Migrator(storeAt: url, schemas: schemas, options: options).run()
    }

    /// Each reaction's users and each message's sender, by name.
    private func links(_ url: URL, _ model: Model) throws -> [String] {
        let store = try Store.open(at: url)
        defer { try? store.close() }
        let context = try Context(store: store, model: model)
        var found: [String] = []
        for reaction in try context.findAll("Reaction", sortedBy: "emoji") {
            let names = try reaction.objects(forKey: "users").map { try $0.string("name") ?? "" }
            found.append(
                (try reaction.string("emoji") ?? "") + " " + names.sorted().joined(separator: ","))
        }
        for message in try context.findAll("Message", sortedBy: "text") {
            found.append(
                (try message.string("text") ?? "") + " "
                    + (try message.object(forKey: "sender")?.string("name") ?? "-"))
        }
        #expect(try store.checkRelationships(model: model).isEmpty)
        return found
    }

    @Test func testAddingRemovingGainingAndLosingAnInverseKeepsEveryLink() throws {
        let folder = try TemporaryDirectory()
        let schemas = folder.file("Schemas/Messenger")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        for version in 1...4 {
            try Data(Self.schema(version).utf8)
                .write(to: schemas.appendingPathComponent("\(version).json"))
        }
        let chain = try SchemaChain.load(directory: schemas)
        let url = folder.file("Messenger.sqlite")
        let v1 = try #require(chain.model(version: 1))
        do {
            let store = try Store.create(at: url, model: v1)
            let context = try Context(store: store, model: v1)
            var users: [String: ManagedObject] = [:]
            for name in ["Ada", "Bob", "Cy"] {
                let user = try context.insert("User")
                try user.set("name", name)
                users[name] = user
            }
            let message = try context.insert("Message")
            try message.set("text", "Hello")
            let bob = try #require(users["Bob"])
            try message.setObject(bob, forKey: "sender")
            for (emoji, names) in [("a", ["Ada", "Bob"]), ("b", ["Cy"]), ("c", [])] {
                let reaction = try context.insert("Reaction")
                try reaction.set("emoji", emoji)
                for name in names { try reaction.add(try #require(users[name]), to: "users") }
            }
            try context.save()
            try store.close()
        }
        let expected = ["a Ada,Bob", "b Cy", "c ", "Hello Bob"]
        #expect(try links(url, v1) == expected)

        let two = try MigrationPlan(chain: chain, from: 1, to: 2)
        #expect(
            two.steps.map { "\($0.kind.rawValue) \($0.label)" } == ["add-relationship inferred"])
        try migrate(url, schemas, to: 2)
        let v2 = try #require(chain.model(version: 2))
        #expect(try links(url, v2) == expected)
        do {
            let store = try Store.open(at: url)
            let context = try Context(store: store, model: v2)
            let message = try #require(try context.findAll("Message").first)
            for user in try context.findAll("User", sortedBy: "name").prefix(2) {
                try message.add(user, to: "readers")
            }
            try context.save()
            try store.close()
        }

        let three = try MigrationPlan(chain: chain, from: 2, to: 3)
        let labels = three.steps.map { "\($0.kind.rawValue) \($0.label) \($0.names)" }
        #expect(labels.contains("remove-relationship lossy Message.readers"), "\(labels)")
        #expect(labels.contains("change-version-hash inferred Reaction.users"), "\(labels)")
        try migrate(url, schemas, to: 3)
        let v3 = try #require(chain.model(version: 3))
        #expect(try links(url, v3) == expected)
        do {
            // The gained inverse lists the same links from the other side.
            let store = try Store.open(at: url)
            defer { try? store.close() }
            let context = try Context(store: store, model: v3)
            let bob = try #require(try context.findAll("User", sortedBy: "name").dropFirst().first)
            #expect(try bob.objects(forKey: "reactions").map { try $0.string("emoji") } == ["a"])
        }

        let four = try MigrationPlan(chain: chain, from: 3, to: 4)
        #expect(
            four.steps.map { "\($0.kind.rawValue) \($0.label) \($0.names) \($0.reason)" }
                .contains(
                    "change-version-hash inferred Reaction.users loses its inverse reactions; "
                        + "links move to the join table Z_2USERS"),
            "\(four.steps.map(\.reason))")
        try migrate(url, schemas, to: 4)
        #expect(try links(url, chain.newest) == expected)
    }

    @Test func testGainingAToOneInverseKeepsTheLowestOwnerAndIsLossy() throws {
        let folder = try TemporaryDirectory()
        let schemas = folder.file("Schemas/Messenger")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        let one = Self.schema(1)
        let two =
            one
            .replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
            .replacingOccurrences(
                of: #""users": { "destination": "User", "toMany": true, "optional": true }"#,
                with:
                    #""users": { "destination": "User", "inverse": "reaction", "toMany": true, "optional": true }"#
            )
            .replacingOccurrences(
                of: #""name": { "type": "string", "optional": true } }"#,
                with: #""name": { "type": "string", "optional": true } }, "relationships": { "#
                    + #""reaction": { "destination": "Reaction", "inverse": "users", "optional": true } }"#
            )
        try Data(one.utf8).write(to: schemas.appendingPathComponent("1.json"))
        try Data(two.utf8).write(to: schemas.appendingPathComponent("2.json"))
        let chain = try SchemaChain.load(directory: schemas)
        let url = folder.file("Messenger.sqlite")
        let v1 = try #require(chain.model(version: 1))
        do {
            let store = try Store.create(at: url, model: v1)
            let context = try Context(store: store, model: v1)
            var users: [String: ManagedObject] = [:]
            for name in ["Ada", "Bob", "Cy"] {
                let user = try context.insert("User")
                try user.set("name", name)
                users[name] = user
            }
            for (emoji, names) in [("a", ["Ada", "Bob"]), ("b", ["Bob", "Cy"])] {
                let reaction = try context.insert("Reaction")
                try reaction.set("emoji", emoji)
                for name in names { try reaction.add(try #require(users[name]), to: "users") }
            }
            try context.save()
            try store.close()
        }
        let plan = try MigrationPlan(chain: chain, from: 1, to: 2)
        #expect(
            plan.steps.map { "\($0.kind.rawValue) \($0.label) \($0.names)" }.contains(
                "change-version-hash lossy Reaction.users"))
        try migrate(url, schemas, to: 2)
        // Bob was listed by both: he keeps the lowest, "a".
        #expect(try links(url, chain.newest) == ["a Ada,Bob", "b Cy"])
    }
}
