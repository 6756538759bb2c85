import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema

struct SchemaValidatorTests {
    /// The validation issues of a model with the given entities (JSON object
    /// members), which must decode cleanly.
    func issues(_ entities: String) throws -> [SchemaIssue] {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {\(entities)}}
            """
        let model = try SchemaDecoder().decode(json, file: "m.json")
        return SchemaValidator().validate(model, file: "m.json")
    }

    @Test func testValidCoreDataShapesGiveNoIssues() throws {
        // Abstract root with two subentities, a reflexive ordered to-many with
        // its to-one inverse, a many-to-many, a one-to-one, a self-inverse
        // many-to-many, and an inverse declared on an ancestor.
        let found = try issues(
            """
            "Item": {"abstract": true,
              "attributes": {"title": {"type": "string", "optional": true,
                                       "importKeys": ["Title", "name"]},
                             "uuid": {"type": "uuid", "default": "uuid"}},
              "uniquenessConstraints": [["uuid"]],
              "relationships": {
                "parent": {"destination": "Folder", "inverse": "children", "optional": true},
                "tags": {"destination": "Tag", "inverse": "items", "toMany": true,
                         "relatedBy": "label"}}},
            "Folder": {"parent": "Item",
              "attributes": {"isRoot": {"type": "boolean", "default": false}},
              "uniquenessConstraints": [["title", "parent"]],
              "relationships": {
                "children": {"destination": "Item", "inverse": "parent", "toMany": true,
                             "ordered": true, "deleteRule": "cascade"},
                "subfolders": {"destination": "Folder", "inverse": "superfolder",
                               "toMany": true, "ordered": true, "minCount": 0, "maxCount": 10},
                "superfolder": {"destination": "Folder", "inverse": "subfolders", "maxCount": 1}}},
            "Bookmark": {"parent": "Item",
              "attributes": {"url": {"type": "uri", "importKeys": ["URL"]},
                             "visits": {"type": "integer32", "default": 0, "minValue": 0}},
              "relationships": {
                "favicon": {"destination": "Icon", "inverse": "bookmark", "optional": true,
                            "deleteRule": "cascade"}}},
            "Icon": {"attributes": {"data": {"type": "binary", "media": true}},
              "relationships": {"bookmark": {"destination": "Bookmark", "inverse": "favicon"}}},
            "Tag": {"attributes": {"label": {"type": "string", "minLength": 1, "maxLength": 40,
                                             "pattern": "[a-z]+", "default": "new"}},
              "relationships": {
                "items": {"destination": "Item", "inverse": "tags", "toMany": true},
                "related": {"destination": "Tag", "inverse": "related", "toMany": true}}}
            """)
        #expect(found == [])
    }

    @Test func testDuplicatePropertyNamesIncludingInheritedOnes() throws {
        let found = try issues(
            """
            "Base": {"attributes": {"name": {"type": "string"}}},
            "Sub": {"parent": "Base",
              "attributes": {"name": {"type": "string"}, "link": {"type": "string"}},
              "relationships": {"link": {"destination": "Sub", "inverse": "link"}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.Sub.attributes.name", "$.entities.Sub.relationships.link",
            ])
        #expect(found[0].message.hasPrefix("'name' is already a property of Base"))
        #expect(found[1].message.hasPrefix("'link' is also an attribute of Sub"))
    }

    @Test func testMissingDestinationIsOneIssue() throws {
        let found = try issues(
            """
            "A": {"relationships": {"b": {"destination": "B", "inverse": "a"}}}
            """)
        #expect(found.map(\.path) == ["$.entities.A.relationships.b.destination"])
        #expect(
            found.first?.message == "destination 'B' is not an entity of the model; entities: A")
    }

    @Test func testInverseMustExistLeadBackAndNameThisRelationship() throws {
        let missing = try issues(
            """
            "A": {"relationships": {"b": {"destination": "B", "inverse": "owner"}}},
            "B": {"relationships": {"a": {"destination": "A", "inverse": "b"}}}
            """)
        #expect(missing.map(\.path) == ["$.entities.A.relationships.b.inverse"])
        #expect(missing.first?.message == "inverse 'owner' is not a relationship of B; it has a")

        let elsewhere = try issues(
            """
            "A": {"relationships": {"b": {"destination": "B", "inverse": "c"}}},
            "B": {"relationships": {"c": {"destination": "C", "inverse": "b"}}},
            "C": {"relationships": {"b": {"destination": "B", "inverse": "c"}}}
            """)
        #expect(elsewhere.map(\.path) == ["$.entities.A.relationships.b.inverse"])
        #expect(elsewhere.first?.message.hasPrefix("inverse B.c leads to C, not to A") == true)

        let notReciprocal = try issues(
            """
            "A": {"relationships": {"b": {"destination": "B", "inverse": "a"},
                                    "other": {"destination": "B", "inverse": "a"}}},
            "B": {"relationships": {"a": {"destination": "A", "inverse": "other"}}}
            """)
        #expect(notReciprocal.map(\.path) == ["$.entities.A.relationships.b.inverse"])
        #expect(
            notReciprocal.first?.message == "inverse B.a names 'other' as its inverse, not "
                + "'b'; both ends must name each other")
    }

    @Test func testOrderedToOneAndCountsOutOfOrder() throws {
        let found = try issues(
            """
            "A": {"relationships": {
              "one": {"destination": "A", "inverse": "many", "ordered": true, "maxCount": 2},
              "many": {"destination": "A", "inverse": "one", "toMany": true, "minCount": 5,
                       "maxCount": 3}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.A.relationships.many.minCount",
                "$.entities.A.relationships.one.ordered",
                "$.entities.A.relationships.one.maxCount",
            ])
        #expect(found[0].message == "minCount 5 is above maxCount 3")
    }

    @Test func testBoundsPatternAndDefaultsOfAttributes() throws {
        let found = try issues(
            """
            "A": {"attributes": {
              "a": {"type": "integer16", "minValue": 5, "maxValue": 1},
              "b": {"type": "string", "minLength": 4, "maxLength": 2},
              "c": {"type": "string", "pattern": "(unclosed"},
              "d": {"type": "double", "default": 10, "maxValue": 1.5},
              "e": {"type": "string", "default": "ABC", "pattern": "[a-z]+"},
              "f": {"type": "date", "default": "2000-01-01", "minValue": "2001-01-01"}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.A.attributes.a.minValue", "$.entities.A.attributes.b.minLength",
                "$.entities.A.attributes.c.pattern", "$.entities.A.attributes.d.default",
                "$.entities.A.attributes.e.default", "$.entities.A.attributes.f.default",
            ])
        #expect(found[0].message == "minValue 5 is above maxValue 1")
        #expect(found[3].message == "default 10.0 is above maxValue 1.5")
        #expect(
            found[5].message
                == "default 2000-01-01T00:00:00Z is below minValue 2001-01-01T00:00:00Z")
    }

    /// The pattern check names ICU's column of the problem; a default that
    /// cannot be checked within the limits is an issue, not a pass.
    @Test func testPatternIssuesNameTheColumnAndTheLimit() throws {
        let found = try RegexLimits.$current.withValue(tightRegexLimits) {
            try issues(
                """
                "A": {"attributes": {
                  "c": {"type": "string", "pattern": "ab(c"},
                  "e": {"type": "string", "default": "\(catastrophicText)", "pattern": "(a+)+$"}}}
                """)
        }
        #expect(
            found.map(\.path) == [
                "$.entities.A.attributes.c.pattern", "$.entities.A.attributes.e.default",
            ])
        #expect(
            found.first?.message.hasPrefix(
                "pattern \"ab(c\" is not a valid regular expression at column 4 (ICU syntax")
                == true)
        #expect(
            found.last?.message.hasPrefix(
                "default could not be checked: regular expression \"(a+)+$\": the match hit its "
                    + "time limit") == true)
    }

    @Test func testParentMustExistAndCyclesAreReportedOnce() throws {
        let found = try issues(
            """
            "A": {"parent": "B"}, "B": {"parent": "C"}, "C": {"parent": "A"},
            "D": {"parent": "A"}, "E": {"parent": "Nope"}, "F": {"parent": "F"}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.A.parent", "$.entities.E.parent", "$.entities.F.parent",
            ])
        #expect(found[0].message.hasPrefix("parent cycle A → B → C → A"))
        #expect(found[2].message.hasPrefix("parent cycle F → F"))
    }

    @Test func testUniquenessConstraintsAndRelatedByNameKnownAttributes() throws {
        let found = try issues(
            """
            "A": {"uniquenessConstraints": [["a", "nope"], [], ["a", "a"], ["bs"]],
              "attributes": {"a": {"type": "string"}},
              "relationships": {"bs": {"destination": "B", "inverse": "a", "toMany": true,
                                       "relatedBy": "code"}}},
            "B": {"relationships": {"a": {"destination": "A", "inverse": "bs"}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.A.relationships.bs.relatedBy",
                "$.entities.A.uniquenessConstraints[0][1]", "$.entities.A.uniquenessConstraints[1]",
                "$.entities.A.uniquenessConstraints[2][1]",
                "$.entities.A.uniquenessConstraints[3][0]",
            ])
        #expect(found[0].message == "relatedBy 'code' is not an attribute of B")
    }

    @Test func testImportKeysMustLeadToOneAttribute() throws {
        let found = try issues(
            """
            "P": {"attributes": {"title": {"type": "string", "importKeys": ["Name"]}}},
            "A": {"parent": "P", "attributes": {
              "body": {"type": "string", "importKeys": ["Text", "Text", "title"]},
              "note": {"type": "string", "importKeys": ["Text", "Name"]}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.A.attributes.body.importKeys[1]",
                "$.entities.A.attributes.body.importKeys[2]",
                "$.entities.A.attributes.note.importKeys[0]",
                "$.entities.A.attributes.note.importKeys[1]",
            ])
        #expect(found[1].message.hasPrefix("import key 'title' is the name of attribute 'title'"))
        #expect(
            found[2].message.hasPrefix(
                "import key 'Text' is also an import key of attribute 'body'"))
    }

    @Test func testNamesFollowCoreDataRules() throws {
        let found = try issues(
            """
            "entry": {"attributes": {"Text": {"type": "string"}, "ok_2": {"type": "string"},
                                     "bad-name": {"type": "string"}}},
            "Good": {}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.entry", "$.entities.entry.attributes.Text",
                #"$.entities.entry.attributes["bad-name"]"#,
            ])
        #expect(found[0].message.hasPrefix("entity name 'entry' is not valid"))
    }

    // MARK: - Indexes, fetch requests, configurations

    @Test func testIndexesMustNameStoredPropertiesUnderUniqueNames() throws {
        let found = try issues(
            """
            "Base": {"attributes": {"title": {"type": "string"}}},
            "E": {"parent": "Base",
              "indexes": [
                {"name": "ok", "elements": [{"property": "title"}, {"property": "owner"}]},
                {"name": "ok", "elements": [{"property": "notes"}, {"property": "items"}]},
                {"name": "twice", "elements": [{"property": "temp"}, {"property": "temp"}]},
                {"name": "none", "elements": []}],
              "attributes": {"temp": {"type": "string", "transient": true}},
              "relationships": {
                "owner": {"destination": "E", "inverse": "items"},
                "items": {"destination": "E", "inverse": "owner", "toMany": true}}}
            """)
        #expect(
            found.map(\.path) == [
                "$.entities.E.indexes[1].name", "$.entities.E.indexes[1].elements[0].property",
                "$.entities.E.indexes[1].elements[1].property",
                "$.entities.E.indexes[2].elements[0].property",
                "$.entities.E.indexes[2].elements[1].property", "$.entities.E.indexes[3].elements",
            ])
        #expect(
            found[0].message
                == "index name 'ok' is already used by index 0 of E; index names must be unique")
        #expect(
            found[1].message == "'notes' is not a stored attribute or to-one relationship of E")
        #expect(found[4].message == "'temp' appears twice in this index")
    }

    @Test func testFetchRequestsAndConfigurationsMustNameEntities() throws {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {"A": {}},
             "fetchRequests": {"all": {"entity": "B"}, "allA": {"entity": "A"}},
             "configurations": {"C": {"entities": ["A", "B", "A"]}}}
            """
        let model = try SchemaDecoder().decode(json, file: "m.json")
        let found = SchemaValidator().validate(model, file: "m.json")
        #expect(
            found.map(\.path) == [
                "$.fetchRequests.all.entity", "$.configurations.C.entities[1]",
                "$.configurations.C.entities[2]",
            ])
        #expect(found[0].message == "entity 'B' is not an entity of the model")
        #expect(found[2].message == "'A' is listed twice in this configuration")
    }
}
