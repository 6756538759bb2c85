import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 25: a store of an unpublished build, whose hashes match no
/// published version, migrates from the model in its `Z_MODELCACHE` also
/// when that model has entity inheritance three levels deep and the cache
/// lists inherited properties again on each subentity, as Core Data
/// archives them.
struct MigrationModelCacheInheritanceTests {
    /// The attributes the published versions have beyond the store's
    /// model: version 1 `ClientMessage.editedAt` (the unpublished build
    /// lacked it), version 2 also `Conversation.isArchived` and
    /// `AssetClientMessage.previewKey`.
    static let added = ["editedAt", "isArchived", "previewKey"]

    /// Versions 1 and 2 of the published chain.
    static func chain() throws -> SchemaChain {
        let storeModel = try ModelCacheInheritanceTests.messages()
        func adding(_ attribute: Attribute, to entity: String, in model: inout Model) throws {
            var edited = try #require(model.entity(named: entity))
            edited.attributes.append(attribute)
            model.entities = model.entities.map { $0.name == entity ? edited : $0 }
        }
        var editedAt = Attribute(name: "editedAt", type: .date)
        editedAt.isOptional = true
        var first = storeModel
        try adding(editedAt, to: "ClientMessage", in: &first)
        var second = first
        second.version = 2
        var isArchived = Attribute(name: "isArchived", type: .boolean)
        isArchived.defaultValue = .literal(.boolean(false))
        try adding(isArchived, to: "Conversation", in: &second)
        var previewKey = Attribute(name: "previewKey", type: .string)
        previewKey.isOptional = true
        try adding(previewKey, to: "AssetClientMessage", in: &second)
        for model in [first, second] {
            let issues = SchemaValidator().validate(model, file: "\(model.version).json")
            if !issues.isEmpty { throw SchemaError(issues: issues) }
        }
        return SchemaChain(versions: [first, second])
    }

    /// Two conversations; two system messages, two client messages and
    /// three asset messages (each with its asset); reactions on a client
    /// message and on an asset message.
    static func fill(_ context: Context) throws {
        let home = try context.make("Conversation", ["name": .string("home")])
        let work = try context.make("Conversation", ["name": .string("work")])
        var messages: [ManagedObject] = []
        for (index, conversation) in [home, work].enumerated() {
            let system = try context.make(
                "SystemMessage",
                ["systemType": .integer(Int64(index + 1)), "cachedCategory": .integer(8)])
            try system.setObject(conversation, forKey: "conversation")
            let client = try context.make(
                "ClientMessage",
                [
                    "delivered": .boolean(index == 0), "cachedCategory": .integer(2),
                    "serverTimestamp": .date(1000.5 * Double(index + 1)),
                ])
            try client.setObject(conversation, forKey: "conversation")
            messages.append(client)
        }
        for index in 0..<3 {
            let asset = try context.make("Asset", ["name": .string("picture\(index)")])
            let message = try context.make(
                "AssetClientMessage",
                [
                    "assetID": .string("asset\(index)"), "size": .integer(Int64(100 * index)),
                    "delivered": .boolean(true), "cachedCategory": .integer(4),
                ])
            try message.setObject(index == 2 ? work : home, forKey: "conversation")
            try message.setObject(asset, forKey: "asset")
            messages.append(message)
        }
        for (unicode, message) in [("👍", messages[0]), ("❤️", messages[2]), ("😂", messages[2])] {
            let reaction = try context.make("Reaction", ["unicode": .string(unicode)])
            try reaction.setObject(message, forKey: "message")
        }
    }

    /// Every object of the store, entity by entity (subentities within
    /// their parents too), as ``StepTestStore/describe(_:)`` lines without
    /// the attributes the published versions added.
    static func objects(_ store: Store, model: Model) throws -> [String] {
        let context = try Context(store: store, model: model)
        var lines: [String] = []
        for entity in model.entities {
            for object in try context.findAll(entity.name) {
                let parts = try StepTestStore.describe(object).split(separator: " ")
                lines.append(
                    "\(entity.name): "
                        + parts.filter { part in
                            !added.contains { part.hasPrefix("\($0)=") }
                        }.joined(separator: " "))
            }
        }
        return lines
    }

    @Test func testAStoreOfAnUnpublishedBuildMigratesFromItsInheritingModelCache() throws {
        let storeModel = try ModelCacheInheritanceTests.messages()
        let chain = try Self.chain()
        let folder = try TemporaryDirectory()
        let url = folder.file("Messages.sqlite")
        let before: [String] = try {
            let store = try Store.create(at: url, model: storeModel)
            defer { try? store.close() }  // Saved below; a failure fails the test.
            let context = try Context(store: store, model: storeModel)
            try Self.fill(context)
            try context.save()
            // Core Data's cache of the store's model: each subentity lists
            // the properties it inherits again, as copies.
            let cache = try ModelCacheArchiveBuilder.cache(of: storeModel, inherited: .copies)
            try store.connection.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try store.connection.execute(
                "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", [.blob(cache)])
            return try Self.objects(store, model: storeModel)
        }()
        #expect(before.count == 3 + 3 + 5 + 2 + 7 + 3 + 2, "\(before)")

        // The cache decodes into the store's model, with the store's hashes,
        // which no published version has.
        try {
            let store = try Store.open(at: url, mode: .readOnly)
            defer { try? store.close() }  // Reading only.
            let content = try #require(try ModelCache.read(from: store.connection))
            let decoded = try ModelCache.decode(content, modelName: chain.name)
            #expect(SchemaValidator().validate(decoded, file: "Z_MODELCACHE") == [])
            #expect(decoded.entities == storeModel.entities)
            #expect(
                decoded.versionHashes.mapValues { Data($0) } == store.metadata.versionHashes)
            #expect(Store.matchingVersions(of: store.metadata.versionHashes, in: chain).isEmpty)
        }()

        let migrator = Migrator(storeAt: url, chain: chain)
        let preview = try migrator.preview()
        #expect(preview.currentVersion == 1 && preview.targetVersion == 2)
        #expect(
            preview.versionNotes.first?.contains(
                "the source is the store's own model (Z_MODELCACHE), nearest published version 1"
            ) == true, "\(preview.versionNotes)")
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")
        let report = try migrator.run()
        #expect(report.finalVersion == 2)

        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Reading only.
        #expect(try store.connection.integrityCheck() == ["ok"])
        #expect(store.metadata.versionHashes == chain.newest.versionHashes.mapValues { Data($0) })
        #expect(try store.checkRelationships(model: chain.newest) == [])
        #expect(try Self.objects(store, model: chain.newest) == before)
    }
}
