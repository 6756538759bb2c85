import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

/// Issue 15: names SQLite takes to be the same (it ignores case) passed
/// `schema check`, and `create` then failed "table ZITEM already exists".
struct SchemaValidatorSQLNamesTests {
    func issues(_ entities: String) throws -> [SchemaIssue] {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {\(entities)}}
            """
        let model = try SchemaDecoder().decode(json, file: "m.json")
        return SchemaValidator().validate(model, file: "m.json")
    }

    @Test func testEntitiesWhoseTablesDifferOnlyInCase() throws {
        let found = try issues(
            """
            "Item": {"attributes": {"a": {"type": "string"}}},
            "ITEM": {"attributes": {"b": {"type": "string"}}}
            """)
        #expect(found.map(\.path) == ["$.entities.Item"])
        #expect(
            found.first?.message
                == "the table of entity Item would be named ZITEM, the name of the table of "
                + "entity ITEM; SQLite table and index names ignore case and share one "
                + "namespace, so rename one of them")
    }

    @Test func testSubentitiesDifferingInCaseShareTheirRootsTable() throws {
        // Only roots get tables: these two live in ZBASE and do not clash.
        let found = try issues(
            """
            "Base": {"attributes": {"a": {"type": "string"}}},
            "Item": {"parent": "Base"},
            "ITEM": {"parent": "Base"}
            """)
        #expect(found == [])
    }

    @Test func testJoinTablesOfRelationshipsDifferingInCase() throws {
        let found = try issues(
            """
            "Note": {"relationships": {
              "tags": {"destination": "Tag", "inverse": "notes", "toMany": true},
              "tAgs": {"destination": "Tag", "inverse": "nOtes", "toMany": true}}},
            "Tag": {"relationships": {
              "notes": {"destination": "Note", "inverse": "tags", "toMany": true},
              "nOtes": {"destination": "Note", "inverse": "tAgs", "toMany": true}}}
            """)
        #expect(found.map(\.path) == ["$.entities.Note.relationships.tags"])
        #expect(
            found.first?.message.hasPrefix(
                "the join table of Note.tags would be named Z_1TAGS, the name of the join "
                    + "table of Note.tAgs;") == true)
    }

    @Test func testIndexesDifferingInCase() throws {
        let found = try issues(
            """
            "Item": {"attributes": {"a": {"type": "string"}, "b": {"type": "string"}},
              "uniquenessConstraints": [["a"]],
              "indexes": [{"name": "byA", "elements": [{"property": "a"}]},
                          {"name": "BYA", "elements": [{"property": "b"}]},
                          {"name": "unique_a", "elements": [{"property": "b"}]}]}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.Item.indexes[1].name", "$.entities.Item.indexes[2].name",
            ])
        #expect(
            found.last?.message.hasPrefix(
                "the index of fetch index 'unique_a' of Item would be named Z_Item_unique_a, "
                    + "the name of the index of uniqueness constraint [a] of Item (Z_Item_UNIQUE_a);"
            )
                == true)
    }
}
