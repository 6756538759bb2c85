import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataMigration
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// Relationships without an inverse, as real models have them (a
/// messenger's `Message.sender`, `Session.selfUser`): converted from Xcode
/// with a warning, laid out as a plain foreign key, hashed without an
/// inverse name, kept by the context and through migrations.
struct RelationshipWithoutInverseTests {
    /// Version 1 of a messenger: `Message.sender` and `Session.selfUser` are
    /// to-ones without an inverse (the session cascades to its user);
    /// `Message.conversation` has one.
    static let messenger = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel">
            <entity name="Conversation">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="messages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Message" inverseName="conversation" inverseEntity="Message"/>
            </entity>
            <entity name="Message">
                <attribute name="text" optional="YES" attributeType="String"/>
                <relationship name="conversation" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Conversation" inverseName="messages" inverseEntity="Conversation"/>
                <relationship name="sender" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
            </entity>
            <entity name="Session">
                <relationship name="selfUser" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="User"/>
            </entity>
            <entity name="User">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// Converts `contents` as `Messenger.xcdatamodel`.
    private func convert(_ contents: String) throws -> XcodeModelBundle {
        let folder = try TemporaryDirectory()
        let version = folder.file("Messenger.xcdatamodeld/Messenger.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        return try XcodeModelReader().read(at: folder.file("Messenger.xcdatamodeld"))
    }

    private func messenger() throws -> Model {
        try #require(try convert(Self.messenger).versions.first)
    }

    @Test func testXcodeModelConvertsWithALocatedWarningPerRelationship() throws {
        let bundle = try convert(Self.messenger)
        #expect(
            bundle.warnings.map { "\($0.line ?? 0) \($0.element ?? "")" } == [
                "10 <relationship name=\"sender\">", "13 <relationship name=\"selfUser\">",
            ])
        let model = try #require(bundle.versions.first)
        #expect(SchemaValidator().validate(model).isEmpty)
        #expect(SchemaValidator().warnings(model).count == 2)
        let sender = try #require(model.entity(named: "Message")?.relationship(named: "sender"))
        #expect(!sender.hasInverse)
        // The JSON form leaves "inverse" out and reads back the same model.
        let text = try SchemaEncoder().encode(model)
        #expect(!text.contains(#""sender": { "destination": "User", "inverse""#))
        #expect(try SchemaDecoder().decode(Data(text.utf8), file: "1.json") == model)
    }

    @Test func testToManyWithoutInverseConvertsWithALocatedWarning() throws {
        let contents = Self.messenger.replacingOccurrences(
            of: #"<attribute name="name" optional="YES" attributeType="String"/>"#,
            with: #"""
                <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="blocked" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="User"/>
                """#)
        let bundle = try convert(contents)
        #expect(
            bundle.warnings.map(\.description).last
                == #"Messenger.xcdatamodel/contents:17: <relationship name="blocked">: no inverseName: Core Data allows it; Strata writes a join table of its own (layout unverified), and a deleted destination drops out of it"#
        )
        let model = try #require(bundle.versions.first)
        #expect(SchemaValidator().validate(model).isEmpty)
    }

    @Test func testLayoutIsAForeignKeyWithItsIndexAndTheHashOmitsTheInverse() throws {
        let model = try messenger()
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Messenger.sqlite"), model: model)
        defer { try? store.close() }
        let sql = try #require(
            try store.connection.scalar(
                "SELECT sql FROM sqlite_master WHERE name = 'ZMESSAGE'")?.stringValue)
        #expect(sql.contains("ZSENDER INTEGER"))
        #expect(
            try store.connection.scalar(
                "SELECT COUNT(*) FROM sqlite_master WHERE name = 'ZMESSAGE_ZSENDER_INDEX'")
                == .integer(1))
        // §1.11: relHash = SHA256(propHash ‖ "User" ‖ u32 maxCount ‖ u32 minCount), no inverse name.
        var property = SHA256()
        property.update("sender".utf8)
        property.update([1, 0])  // optional
        var relationship = SHA256()
        relationship.update(property.finalize())
        relationship.update("User".utf8)
        relationship.update([1, 0, 0, 0, 0, 0, 0, 0])  // maxCount 1, minCount 0
        #expect(
            model.propertyVersionHashes(ofEntity: "Message")["sender"] == relationship.finalize())
        #expect(
            store.metadata.versionHashes["Message"] == Data(model.versionHashes["Message"] ?? []))
    }

    @Test func testContextSavesFetchesAndLeavesAKeyThatReadsAsNil() throws {
        let fixture = try ContextFixture(model: try messenger())
        let context = fixture.context
        let ada = try context.insert("User")
        try ada.set("name", "Ada")
        let chat = try context.insert("Conversation")
        let hello = try context.insert("Message")
        try hello.set("text", "Hello")
        try hello.setObject(ada, forKey: "sender")
        try hello.setObject(chat, forKey: "conversation")
        let session = try context.insert("Session")
        try session.setObject(ada, forKey: "selfUser")
        try context.save()
        try fixture.expectSound()

        let reread = try fixture.reopened()
        let found = try reread.fetch(
            FetchRequest(entity: "Message", predicate: try FetchPredicate("sender.name == 'Ada'")))
        #expect(try found.map { try $0.string("text") } == ["Hello"])
        #expect(try found.first?.object(forKey: "sender")?.string("name") == "Ada")

        // Deleting the user leaves the message's key (as Core Data does); it reads as nil.
        let user = try #require(try reread.findAll("User").first)
        try reread.delete(user)
        try reread.save()
        #expect(try fixture.integer("SELECT ZSENDER FROM ZMESSAGE") == 1)
        let after = try fixture.reopened()
        let orphan = try #require(try after.findAll("Message").first)
        #expect(try orphan.object(forKey: "sender") == nil)
        // Setting nil clears the dangling key.
        try orphan.setObject(nil, forKey: "sender")
        try after.save()
        #expect(try fixture.integer("SELECT ZSENDER FROM ZMESSAGE") == nil)
        #expect(try fixture.store.checkRelationships(model: fixture.model).isEmpty)

        // Delete rules still apply from the source side: the session cascades.
        let other = try fixture.reopened()
        let bob = try other.insert("User")
        try bob.set("name", "Bob")
        let second = try other.insert("Session")
        try second.setObject(bob, forKey: "selfUser")
        try other.save()
        try other.delete(second)
        try other.save()
        #expect(try fixture.reopened().findAll("User").isEmpty)
    }
}

/// Migrations of relationships without an inverse: added, removed, gaining
/// an inverse; every link kept.
struct RelationshipWithoutInverseMigrationTests {
    /// v1: `Message.sender` → User, no inverse. v2: `Message.reviewer` → User
    /// added, no inverse. v3: `reviewer` removed, `sender` gains the inverse
    /// `User.sent`.
    static func schema(_ version: Int) -> String {
        let reviewer =
            version == 2
            ? #", "reviewer": { "destination": "User", "optional": true }"# : ""
        let sender =
            version == 3
            ? #""sender": { "destination": "User", "inverse": "sent", "optional": true }"#
            : #""sender": { "destination": "User", "optional": true }"#
        let sent =
            version == 3
            ? #", "relationships": { "sent": { "destination": "Message", "inverse": "sender", "toMany": true, "optional": true } }"#
            : ""
        return """
            { "format": "strata-schema/1", "model": "Messenger", "version": \(version),
              "entities": {
                "Message": { "attributes": { "text": { "type": "string", "optional": true } },
                             "relationships": { \(sender)\(reviewer) } },
                "User": { "attributes": { "name": { "type": "string", "optional": true } }\(sent) }
              } }
            """
    }

    @Test func testAddingAndRemovingKeepsEveryLink() throws {
        let folder = try TemporaryDirectory()
        let schemas = folder.file("Schemas/Messenger")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        for version in 1...3 {
            try Data(Self.schema(version).utf8)
                .write(to: schemas.appendingPathComponent("\(version).json"))
        }
        let chain = try SchemaChain.load(directory: schemas)
        let url = folder.file("Messenger.sqlite")
        let v1 = try #require(chain.model(version: 1))
        do {
            let store = try Store.create(at: url, model: v1)
            let context = try Context(store: store, model: v1)
            for (text, name) in [("Hello", "Ada"), ("Hi", "Bob"), ("Hey", nil)] {
                let message = try context.insert("Message")
                try message.set("text", text)
                if let name {
                    let user = try context.insert("User")
                    try user.set("name", name)
                    try message.setObject(user, forKey: "sender")
                }
            }
            try context.save()
            try store.close()
        }

        let two = try MigrationPlan(chain: chain, from: 1, to: 2)
        #expect(
            two.steps.map { "\($0.kind.rawValue) \($0.label)" } == [
                "add-relationship inferred"
            ])
        var toTwo = MigrationOptions()
        toTwo.targetVersion = 2
        _ = try Migrator(storeAt: url, schemas: schemas, options: toTwo).run()
        do {
            let store = try Store.open(at: url)
            let v2 = try #require(chain.model(version: 2))
            let context = try Context(store: store, model: v2)
            let messages = try context.findAll("Message").sorted {
                $0.objectID.key < $1.objectID.key
            }
            let sender = try #require(try messages[1].object(forKey: "sender"))
            try messages[0].setObject(sender, forKey: "reviewer")
            try context.save()
            try store.close()
        }

        let three = try MigrationPlan(chain: chain, from: 2, to: 3)
        let labels = three.steps.map { "\($0.kind.rawValue) \($0.label) \($0.names)" }
        #expect(labels.contains("remove-relationship lossy Message.reviewer"), "\(labels)")
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        _ = try Migrator(storeAt: url, schemas: schemas, options: options).run()

        let store = try Store.open(at: url)
        defer { try? store.close() }
        let context = try Context(store: store, model: chain.newest)
        let messages = try context.findAll("Message").sorted { $0.objectID.key < $1.objectID.key }
        #expect(
            try messages.map { try $0.object(forKey: "sender")?.string("name") } == [
                "Ada", "Bob", nil,
            ])
        let ada = try #require(try messages[0].object(forKey: "sender"))
        #expect(try ada.objects(forKey: "sent").map { try $0.string("text") } == ["Hello"])
        #expect(try store.checkRelationships(model: chain.newest).isEmpty)
    }
}
