import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Issue 25: Core Data's model cache lists a subentity's inherited
/// properties again in its `NSProperties`; the reader keeps each property
/// on the entity that declares it, so caches of models with entity
/// inheritance decode into valid models with the store's hashes.
struct ModelCacheInheritanceTests {
    typealias Builder = ModelCacheArchiveBuilder

    /// A messaging model with three levels of inheritance, `Message` ←
    /// `ClientMessage` ← `AssetClientMessage`, a sibling `SystemMessage`,
    /// properties on every level, and `Reaction` related to the middle one.
    static func messages() throws -> Model {
        let model = try SchemaDecoder().decode(
            """
            {"format": "strata-schema/1", "model": "Messages", "version": 1,
             "entities": {
              "Conversation": {
                "attributes": {"name": {"type": "string", "optional": true}},
                "relationships": {"messages": {"destination": "Message", "inverse": "conversation",
                                               "toMany": true, "optional": true,
                                               "deleteRule": "cascade"}}},
              "Message": {
                "attributes": {
                  "cachedCategory": {"type": "integer64", "default": 0},
                  "nonce": {"type": "uuid", "optional": true},
                  "serverTimestamp": {"type": "date", "optional": true,
                                      "versionHashModifier": "2"}},
                "relationships": {"conversation": {"destination": "Conversation",
                                                   "inverse": "messages", "optional": true,
                                                   "maxCount": 1}}},
              "SystemMessage": {
                "parent": "Message",
                "attributes": {"systemType": {"type": "integer16", "default": 0}}},
              "ClientMessage": {
                "parent": "Message",
                "attributes": {"delivered": {"type": "boolean", "default": false}},
                "relationships": {"reactions": {"destination": "Reaction", "inverse": "message",
                                                "toMany": true, "optional": true,
                                                "deleteRule": "cascade"}}},
              "AssetClientMessage": {
                "parent": "ClientMessage",
                "attributes": {"assetID": {"type": "string", "optional": true},
                               "size": {"type": "integer64", "default": 0}},
                "relationships": {"asset": {"destination": "Asset", "inverse": "message",
                                            "optional": true, "maxCount": 1,
                                            "deleteRule": "cascade"}}},
              "Reaction": {
                "attributes": {"unicode": {"type": "string", "optional": true}},
                "relationships": {"message": {"destination": "ClientMessage",
                                              "inverse": "reactions", "optional": true,
                                              "maxCount": 1}}},
              "Asset": {
                "attributes": {"name": {"type": "string", "optional": true}},
                "relationships": {"message": {"destination": "AssetClientMessage",
                                              "inverse": "asset", "optional": true,
                                              "maxCount": 1}}}
             }}
            """, file: "Messages.json")
        let issues = SchemaValidator().validate(model, file: "Messages.json")
        if !issues.isEmpty { throw SchemaError(issues: issues) }
        return model
    }

    /// Decodes the cache `Builder` writes for `model`.
    static func decode(_ model: Model, inherited: Builder.InheritedProperties) throws -> Model {
        try ModelCache.decode(Builder.cache(of: model, inherited: inherited), modelName: model.name)
    }

    // MARK: - Repeated properties

    /// Core Data's layout (copies), the same objects listed again, and no
    /// repeats at all decode alike: into the model itself, valid, with its
    /// hashes. The old reader kept the repeats on the subentities, which
    /// validation refuses ("a subentity cannot redeclare it").
    @Test(arguments: [Builder.InheritedProperties.copies, .sameObjects, .omitted])
    func testInheritedPropertiesStayWithTheEntityThatDeclaresThem(
        inherited: Builder.InheritedProperties
    ) throws {
        let model = try Self.messages()
        let decoded = try Self.decode(model, inherited: inherited)
        #expect(SchemaValidator().validate(decoded, file: "Z_MODELCACHE") == [])
        #expect(decoded.entities == model.entities)
        #expect(decoded.versionHashes == model.versionHashes)
        let grandchild = try #require(decoded.entity(named: "AssetClientMessage"))
        #expect(grandchild.attributes.map(\.name) == ["assetID", "size"])
        #expect(grandchild.relationships.map(\.name) == ["asset"])
        #expect(
            decoded.allAttributes(of: "AssetClientMessage").map(\.name) == [
                "assetID", "cachedCategory", "delivered", "nonce", "serverTimestamp", "size",
            ])
    }

    /// The archive really repeats them: without the fix's attribution the
    /// grandchild would hold all six attributes.
    @Test func testCoreDataLayoutRepeatsInheritedPropertiesOnEachLevel() throws {
        let archive = try RawDeflate.inflate(
            Builder.cache(of: try Self.messages(), inherited: .copies), limit: 1 << 20)
        let root = try #require(try KeyedArchive(data: archive).topObject())
        var listed: [String: [String]] = [:]
        for (_, value) in try root.dictionary("NSEntities") ?? [] {
            let entity = try value.object()
            listed[try entity.string("NSEntityName") ?? ""] = try
                (entity.dictionary(
                    "NSProperties") ?? []).map { try $0.key.stringValue() }.sorted()
        }
        #expect(
            listed["AssetClientMessage"] == [
                "asset", "assetID", "cachedCategory", "conversation", "delivered", "nonce",
                "reactions", "serverTimestamp", "size",
            ])
    }

    /// A sibling may declare a name its sibling's subtree has: only
    /// ancestors' properties are inherited.
    @Test func testASiblingsPropertyOfTheSameNameIsItsOwn() throws {
        var model = try Self.messages()
        var system = try #require(model.entity(named: "SystemMessage"))
        system.attributes.append(Attribute(name: "delivered", type: .string))
        model.entities = model.entities.map { $0.name == system.name ? system : $0 }
        let decoded = try Self.decode(model, inherited: .copies)
        #expect(
            decoded.entity(named: "SystemMessage")?.attribute(named: "delivered")?.type
                == .string)
        #expect(decoded.entities == model.entities)
    }

    // MARK: - Conflicting definitions

    /// `entity` of the messages model with `edit` applied, cached with only
    /// the properties each entity declares (so the edited one is the only
    /// declaration of its name on that entity), then decoded.
    static func decodeError(
        editing entity: String, _ edit: (inout Entity) -> Void
    ) throws -> ModelCacheError {
        var model = try messages()
        var edited = try #require(model.entity(named: entity))
        edit(&edited)
        model.entities = model.entities.map { $0.name == entity ? edited : $0 }
        return try #require(throws: ModelCacheError.self) {
            try decode(model, inherited: .omitted)
        }
    }

    @Test func testARepeatedAttributeOfAnotherTypeIsALocatedError() throws {
        // The grandparent's attribute, repeated by the grandchild.
        let error = try Self.decodeError(editing: "AssetClientMessage") {
            var category = Attribute(name: "cachedCategory", type: .integer32)
            category.defaultValue = .literal(.integer(0))
            $0.attributes.append(category)
        }
        #expect(error.entity == "AssetClientMessage" && error.property == "cachedCategory")
        #expect(
            error.description
                == "Model cache error: repeated with another definition than that of Message, "
                + "which AssetClientMessage inherits from (differs in type); a subentity "
                + "repeats inherited properties unchanged (entity AssetClientMessage, "
                + "property cachedCategory)")
    }

    @Test func testARepeatedRelationshipWithAnotherRuleOrOptionalityIsALocatedError() throws {
        let error = try Self.decodeError(editing: "AssetClientMessage") {
            var reactions = Relationship(
                name: "reactions", destination: "Reaction", inverse: "message", isToMany: true)
            reactions.deleteRule = .nullify
            $0.relationships.append(reactions)
        }
        #expect(error.entity == "AssetClientMessage" && error.property == "reactions")
        #expect(error.message.contains("than that of ClientMessage"))
        #expect(error.message.contains("(differs in optional, deleteRule)"))
    }

    @Test func testAnAttributeRepeatingARelationshipIsALocatedError() throws {
        let error = try Self.decodeError(editing: "ClientMessage") {
            $0.attributes.append(Attribute(name: "conversation", type: .string))
        }
        #expect(error.entity == "ClientMessage" && error.property == "conversation")
        #expect(
            error.message
                == "an attribute here but a relationship of Message, which ClientMessage "
                + "inherits from")
    }

    /// Parents on a cycle: the properties stay where the archive puts them,
    /// for validation to report; no crash, no loop.
    @Test func testBrokenInheritanceLeavesPropertiesInPlace() throws {
        let shared = Attribute(name: "shared", type: .string)
        let cycle = Model(
            name: "Broken", version: 1,
            entities: [
                Entity(name: "A", parent: "B", attributes: [shared]),
                Entity(name: "B", parent: "A", attributes: [shared]),
            ])
        let decoded = try Self.decode(cycle, inherited: .omitted)
        #expect(decoded.entities == cycle.entities)
        #expect(!SchemaValidator().validate(decoded, file: "Z_MODELCACHE").isEmpty)
    }
}
