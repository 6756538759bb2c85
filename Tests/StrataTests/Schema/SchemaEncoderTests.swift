import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

struct SchemaEncoderTests {
    /// A model that sets every field of every type to a non-default value.
    func richModel() -> Model {
        var attributes: [Attribute] = []
        func add(_ name: String, _ type: AttributeType, _ change: (inout Attribute) -> Void) {
            var attribute = Attribute(name: name, type: type)
            change(&attribute)
            attributes.append(attribute)
        }
        add("text", .string) {
            $0.isOptional = true
            $0.isTransient = true
            $0.isIndexed = true
            $0.defaultValue = .literal(.string("tab\t\"quote\" \\ é 😀 \u{01}"))
            $0.minLength = 1
            $0.maxLength = 200
            $0.pattern = "^[^\\n]*$"
            $0.importKeys = ["Body", "text body"]
            $0.renamedFrom = "body"
            $0.versionHashModifier = "2"
            $0.preservesValueOnDeletion = true
            $0.userInfo = ["mappedKeyName": "Body", "": "empty key", "note": "é \"q\""]
        }
        add("small", .integer16) {
            $0.defaultValue = .literal(.integer(-32768))
            $0.minValue = -32768
            $0.maxValue = 32767
        }
        add("big", .integer64) { $0.defaultValue = .literal(.integer(.max)) }
        add("ratio", .double) {
            $0.defaultValue = .literal(.real(0.1))
            $0.minValue = -1e-300
            $0.maxValue = 1.5e300
        }
        add("amount", .decimal) { $0.defaultValue = .literal(.real(3)) }
        add("scale", .float) { $0.defaultValue = .literal(.real(-0.0)) }
        add("done", .boolean) { $0.defaultValue = .literal(.boolean(false)) }
        add("created", .date) {
            $0.defaultValue = .now
            $0.touchesOnSave = true
            $0.dateFormat = "yyyy-MM-dd"
            $0.minValue = -31_622_400.25
            $0.maxValue = 0.1234567891234
        }
        add("due", .date) { $0.defaultValue = .literal(.date(86_400.5)) }
        add("photo", .binary) {
            $0.defaultValue = .literal(.data(Data([0, 255, 7])))
            $0.allowsExternalStorage = true
            $0.isMedia = true
        }
        add("id", .uuid) { $0.defaultValue = .uuid }
        add("fixedID", .uuid) {
            $0.defaultValue = .literal(
                .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))))
        }
        add("link", .uri) { $0.defaultValue = .literal(.string("https://example.com/?a=1")) }
        add("shape", .transformable) {
            $0.valueTransformer = "ShapeTransformer"
            $0.allowsExternalStorage = true
        }
        var entry = Entity(name: "Entry", parent: "Base", attributes: attributes)
        entry.renamedFrom = "Item"
        entry.versionHashModifier = "v3"
        entry.uniquenessConstraints = [["id"], ["text", "small"]]
        entry.indexes = [
            FetchIndex(name: "byText", elements: [.init(property: "text")]),
            FetchIndex(
                name: "area",
                elements: [
                    .init(property: "small", order: .descending, kind: .rtree),
                    .init(property: "big", kind: .rtree),
                ]),
        ]
        entry.userInfo = ["relatedByAttribute": "id"]
        var children = Relationship(
            name: "children", destination: "Entry", inverse: "parent", isToMany: true)
        children.isOrdered = true
        children.isOptional = true
        children.isTransient = true
        children.minCount = 1
        children.maxCount = 5
        children.deleteRule = .cascade
        children.relatedBy = "text"
        children.renamedFrom = "kids"
        children.versionHashModifier = "x"
        children.userInfo = ["relatedByAttribute": "text"]
        var parent = Relationship(name: "parent", destination: "Entry", inverse: "children")
        parent.maxCount = 1
        parent.deleteRule = .noAction
        entry.relationships = [children, parent]
        var base = Entity(name: "Base")
        base.isAbstract = true
        return Model(
            name: "Diary", version: 3, versionIdentifier: "3.0 \"beta\"",
            entities: [entry, base, Entity(name: "Empty weird name")],
            fetchRequests: [
                FetchRequestTemplate(
                    name: "recent", entity: "Entry", predicate: "created > $DATE",
                    options: ["fetchLimit": "10", "resultType": "2"]),
                FetchRequestTemplate(name: "all", entity: "Entry"),
            ],
            configurations: [
                ModelConfiguration(name: "Local", entities: ["Entry", "Base"]),
                ModelConfiguration(name: "Cloud", entities: ["Entry"], isUsedWithCloudKit: true),
            ])
    }

    @Test func testDecodingTheEncodingGivesTheSameModel() throws {
        let model = richModel()
        let text = try SchemaEncoder().encode(model)
        let decoded = try SchemaDecoder().decode(text, file: "3.json")
        #expect(decoded == model)
        #expect(try SchemaEncoder().encode(decoded) == text)
    }

    @Test func testMinimalModelsRoundTrip() throws {
        for model in [
            Model(name: "M", version: 1, entities: []),
            Model(name: "M", version: 2, entities: [Entity(name: "A")]),
        ] {
            #expect(try SchemaDecoder().decode(SchemaEncoder().encode(model), file: "m") == model)
        }
    }

    @Test func testOutputIsCanonicalWithDefaultsOmitted() throws {
        var text = Attribute(name: "text", type: .string)
        text.isOptional = true
        text.maxLength = 20000
        var created = Attribute(name: "creationTime", type: .date)
        created.defaultValue = .now
        created.isIndexed = true
        let entry = Entity(
            name: "DiaryEntry", attributes: [text, created],
            relationships: [
                Relationship(
                    name: "media", destination: "Medium", inverse: "diaryEntry", isToMany: true)
            ])
        let medium = Entity(
            name: "Medium",
            relationships: [
                Relationship(name: "diaryEntry", destination: "DiaryEntry", inverse: "media")
            ])
        let model = Model(
            name: "Diary", version: 2, versionIdentifier: "2.0", entities: [medium, entry])
        #expect(
            try SchemaEncoder().encode(model) == """
                {
                  "format": "strata-schema/1",
                  "model": "Diary",
                  "version": 2,
                  "versionIdentifier": "2.0",
                  "entities": {
                    "DiaryEntry": {
                      "attributes": {
                        "creationTime": { "type": "date", "default": "now", "indexed": true },
                        "text": { "type": "string", "optional": true, "maxLength": 20000 }
                      },
                      "relationships": {
                        "media": { "destination": "Medium", "inverse": "diaryEntry", "toMany": true }
                      }
                    },
                    "Medium": {
                      "relationships": {
                        "diaryEntry": { "destination": "DiaryEntry", "inverse": "media" }
                      }
                    }
                  }
                }

                """)
    }

    @Test func testIndexesUserInfoRequestsAndConfigurationsAreCanonical() throws {
        var url = Attribute(name: "url", type: .string)
        url.userInfo = ["b": "2", "a": "1"]
        var entity = Entity(name: "Bookmark", attributes: [url])
        entity.indexes = [
            FetchIndex(name: "byURL", elements: [.init(property: "url", order: .descending)])
        ]
        let model = Model(
            name: "M", version: 1, entities: [entity],
            fetchRequests: [FetchRequestTemplate(name: "all", entity: "Bookmark")],
            configurations: [ModelConfiguration(name: "Cloud", entities: ["Bookmark"])])
        #expect(
            try SchemaEncoder().encode(model) == """
                {
                  "format": "strata-schema/1",
                  "model": "M",
                  "version": 1,
                  "entities": {
                    "Bookmark": {
                      "indexes": [
                        {"name": "byURL", "elements": [{"property": "url", "order": "descending"}]}
                      ],
                      "attributes": {
                        "url": { "type": "string", "userInfo": { "a": "1", "b": "2" } }
                      }
                    }
                  },
                  "fetchRequests": {
                    "all": { "entity": "Bookmark" }
                  },
                  "configurations": {
                    "Cloud": { "entities": ["Bookmark"] }
                  }
                }

                """)
    }

    @Test func testDatesAreWrittenAsISO8601WhenExact() throws {
        var due = Attribute(name: "due", type: .date)
        due.defaultValue = .literal(.date(86_400.5))
        due.maxValue = 0.1234567891234
        let model = Model(name: "M", version: 1, entities: [Entity(name: "A", attributes: [due])])
        let text = try SchemaEncoder().encode(model)
        #expect(text.contains(#""default": "2001-01-02T00:00:00.500Z""#))
        #expect(text.contains(#""maxValue": 0.1234567891234"#))
    }

    @Test func testNonFiniteNumbersAreRefused() {
        var ratio = Attribute(name: "ratio", type: .double)
        ratio.maxValue = .infinity
        let model = Model(name: "M", version: 1, entities: [Entity(name: "A", attributes: [ratio])])
        do {
            _ = try SchemaEncoder().encode(model)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.map(\.path) == ["$.entities.A.attributes.ratio.maxValue"])
        }
    }
}
