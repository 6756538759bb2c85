import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Issue 15: `create` took more than 30 s for 2,000 entities or a 3,000-deep
/// inheritance chain (lookups by name scanned the model, each entity walked
/// its whole chain several times, the numbering recursed once per level).
/// Both now create within the suite, without a deep stack.
struct StoreCreateScaleTests {
    @Test func testThreeThousandDeepChainValidatesCreatesAndOpens() throws {
        let depth = 3000
        var entities = [Entity(name: "E0", attributes: [Attribute(name: "name", type: .string)])]
        for level in 1..<depth {
            entities.append(Entity(name: "E\(level)", parent: "E\(level - 1)"))
        }
        let model = Model(name: "Chain", version: 1, entities: entities)
        #expect(SchemaValidator().validate(model) == [])

        let folder = try TemporaryDirectory()
        let store = try Store.create(
            at: folder.url.appendingPathComponent("chain.sqlite"), model: model)
        defer { try? store.close() }
        #expect(store.entityRecords.count == depth)
        let deepest = try #require(StoreLayout(model: model).entity(named: "E\(depth - 1)"))
        #expect(deepest.tableName == "ZE0")
        #expect(deepest.attributeColumns == ["name": "ZNAME"])
        #expect(deepest.superNumber == deepest.number - 1)
        #expect(model.rootEntity(of: "E\(depth - 1)")?.name == "E0")
    }

    @Test func testTwoThousandEntitiesValidateCreateAndOpen() throws {
        let count = 2000
        let entities = (0..<count).map { index in
            Entity(
                name: "E\(index)", attributes: [Attribute(name: "name", type: .string)],
                relationships: [
                    Relationship(
                        name: "next", destination: "E\((index + 1) % count)", inverse: "previous"),
                    Relationship(
                        name: "previous", destination: "E\((index + count - 1) % count)",
                        inverse: "next"),
                ])
        }
        let model = Model(name: "Wide", version: 1, entities: entities)
        #expect(SchemaValidator().validate(model) == [])

        let folder = try TemporaryDirectory()
        let store = try Store.create(
            at: folder.url.appendingPathComponent("wide.sqlite"), model: model)
        defer { try? store.close() }
        #expect(store.entityRecords.count == count)
        #expect(store.metadata.versionHashes.count == count)
    }
}
