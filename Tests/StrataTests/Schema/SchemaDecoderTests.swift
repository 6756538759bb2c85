import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

struct SchemaDecoderTests {
    /// The issues of decoding `json`, or none when it decodes.
    func issues(_ json: String) -> [SchemaIssue] {
        do {
            _ = try SchemaDecoder().decode(json, file: "t.json")
            return []
        } catch {
            return error.issues
        }
    }

    /// A schema with one entity `E` holding `attributes` and `relationships`.
    func schema(attributes: String = "", relationships: String = "") -> String {
        """
        {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {
          "E": {"attributes": {\(attributes)}, "relationships": {\(relationships)}}}}
        """
    }

    @Test func testDesignExampleDecodesEveryField() throws {
        let json = """
            {"format": "strata-schema/1", "model": "Diary", "version": 2,
             "versionIdentifier": "2.0", "entities": {
              "DiaryEntry": {
                "abstract": false, "renamedFrom": "Entry", "versionHashModifier": "v2",
                "uniquenessConstraints": [["creationTime", "text"]],
                "attributes": {
                  "creationTime": {"type": "date", "default": "now", "indexed": true,
                                   "minValue": "2001-01-02T00:00:00Z", "dateFormat": "yyyy"},
                  "updateTime": {"type": "date", "default": "now", "touch": "save"},
                  "text": {"type": "string", "optional": true, "maxLength": 20000,
                           "minLength": 1, "pattern": ".*", "importKeys": ["Body", "body"]},
                  "icon": {"type": "binary", "optional": true, "media": true,
                           "externalStorage": true, "preserveAfterDeletion": true},
                  "id": {"type": "uuid", "default": "uuid"}
                },
                "relationships": {
                  "media": {"destination": "Medium", "inverse": "diaryEntry", "toMany": true,
                            "ordered": true, "minCount": 1, "maxCount": 9,
                            "deleteRule": "cascade", "relatedBy": "type"}
                }
              },
              "Medium": {"attributes": {"type": {"type": "string"}},
                         "relationships": {"diaryEntry": {"destination": "DiaryEntry",
                                                          "inverse": "media"}}}}}
            """
        let model = try SchemaDecoder().decode(json, file: "2.json")
        #expect(model.name == "Diary" && model.version == 2 && model.versionIdentifier == "2.0")
        #expect(model.entities.map(\.name) == ["DiaryEntry", "Medium"])
        let entry = try #require(model.entity(named: "DiaryEntry"))
        #expect(entry.renamedFrom == "Entry" && entry.versionHashModifier == "v2")
        #expect(entry.uniquenessConstraints == [["creationTime", "text"]])
        let creation = try #require(entry.attribute(named: "creationTime"))
        #expect(creation.type == .date && creation.defaultValue == .now && creation.isIndexed)
        #expect(creation.minValue == 86_400 && creation.dateFormat == "yyyy")
        #expect(entry.attribute(named: "updateTime")?.touchesOnSave == true)
        let text = try #require(entry.attribute(named: "text"))
        #expect(text.isOptional && text.maxLength == 20000 && text.minLength == 1)
        #expect(text.pattern == ".*" && text.importKeys == ["Body", "body"])
        let icon = try #require(entry.attribute(named: "icon"))
        #expect(icon.isMedia && icon.allowsExternalStorage && icon.preservesValueOnDeletion)
        #expect(entry.attribute(named: "id")?.defaultValue == .uuid)
        let media = try #require(entry.relationship(named: "media"))
        #expect(media.destination == "Medium" && media.inverse == "diaryEntry")
        #expect(media.isToMany && media.isOrdered && media.minCount == 1 && media.maxCount == 9)
        #expect(media.deleteRule == .cascade && media.relatedBy == "type")
        #expect(
            model.entity(named: "Medium")?.relationship(named: "diaryEntry")?.deleteRule == .nullify
        )
    }

    @Test func testTextThatIsNotJSONGivesOneLocatedIssue() {
        let found = issues("{\n  \"format\": \"strata-schema/1\",\n}")
        #expect(found.count == 1)
        #expect(found.first?.path == "$")
        #expect(found.first?.line == 3 && found.first?.column == 1)
        #expect(found.first?.message == "not JSON: expected a string key after ',', found '}'")
    }

    @Test func testWrongFormatIsReportedAlone() {
        let found = issues(#"{"format": "strata-schema/2", "colour": 1}"#)
        #expect(found.map(\.path) == ["$.format"])
        #expect(found.first?.message.contains("expected \"strata-schema/1\"") == true)
    }

    @Test func testMissingAndIllTypedTopLevelKeys() {
        let missing = issues("{}")
        #expect(missing.count == 4)
        #expect(missing.allSatisfy { $0.path == "$" && $0.line == 1 && $0.column == 1 })
        #expect(
            missing.map { $0.message.prefix(20) } == [
                "missing key 'format'", "missing key 'model';", "missing key 'version",
                "missing key 'entitie",
            ])
        let illTyped = issues(
            #"{"format": "strata-schema/1", "model": 7, "version": "2", "entities": []}"#)
        #expect(illTyped.map(\.path) == ["$.model", "$.version", "$.entities"])
        #expect(illTyped[1].message == "expected a version number from 1, found string \"2\"")
        #expect(
            issues(#"{"format": "strata-schema/1", "model": "M", "version": 0, "entities": {}}"#)
                .map(\.path) == ["$.version"])
    }

    @Test func testUnknownKeysAreReportedAtEveryLevelWithTheAllowedOnes() {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "extra": 1,
             "entities": {"E": {"colour": "red",
               "attributes": {"a": {"type": "string", "lenght": 3}},
               "relationships": {"r": {"destination": "E", "inverse": "r", "many": true}}}}}
            """
        let found = issues(json)
        #expect(
            found.map(\.path) == [
                "$.extra", "$.entities.E.colour", "$.entities.E.attributes.a.lenght",
                "$.entities.E.relationships.r.many",
            ])
        #expect(
            found[0].message.hasSuffix(
                "allowed keys: format, model, version, versionIdentifier, entities, "
                    + "fetchRequests, configurations"))
        #expect(
            found[2].message.contains("unknown key 'lenght' in attribute 'a'; allowed keys: type,"))
        #expect(found[3].line == 4 && found[3].column == 64)
    }

    @Test func testUnknownAttributeTypeListsTheValidOnes() {
        let found = issues(schema(attributes: #""a": {"type": "text"}"#))
        #expect(found.map(\.path) == ["$.entities.E.attributes.a.type"])
        #expect(
            found.first?.message == "unknown attribute type string \"text\"; expected one of "
                + "string, integer16, integer32, integer64, decimal, double, float, boolean, date, "
                + "binary, uuid, uri, transformable")
    }

    @Test func testWrongValueTypesSayWhatWasFound() {
        let found = issues(
            schema(
                attributes: #""a": {"type": "string", "optional": "yes", "maxLength": -1}"#,
                relationships: #""r": {"destination": "E", "inverse": "r", "minCount": 1.5}"#))
        #expect(
            found.map(\.path) == [
                "$.entities.E.attributes.a.optional", "$.entities.E.attributes.a.maxLength",
                "$.entities.E.relationships.r.minCount",
            ])
        #expect(found[0].message == "expected true or false, found string \"yes\"")
        #expect(found[1].message == "expected an integer from 0 to 2147483647, found number -1")
        #expect(found[2].message == "expected an integer from 0 to 2147483647, found number 1.5")
    }

    @Test func testDuplicateKeysAreReportedAtTheSecondOccurrence() {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {
              "E": {"attributes": {"a": {"type": "string", "type": "date"}}},
              "E": {}}}
            """
        let found = issues(json)
        #expect(found.map(\.path) == ["$.entities.E.attributes.a.type", "$.entities.E"])
        #expect(found[0].message.hasPrefix("duplicate key 'type' (first at line 2, column 30)"))
        #expect(found[1].line == 3 && found[1].column == 3)
    }

    @Test func testDefaultsMustFitTheirType() {
        let accepted: [(String, String, AttributeDefault)] = [
            ("string", #""uuid""#, .literal(.string("uuid"))),
            ("integer16", "-32768", .literal(.integer(-32768))),
            ("integer32", "2147483647", .literal(.integer(2_147_483_647))),
            ("integer64", "-9223372036854775808", .literal(.integer(.min))),
            ("double", "2", .literal(.real(2))), ("decimal", "0.5", .literal(.real(0.5))),
            ("float", "1e30", .literal(.real(1e30))), ("boolean", "true", .literal(.boolean(true))),
            ("date", #""2001-01-01T00:01:00Z""#, .literal(.date(60))),
            ("date", "-60", .literal(.date(-60))), ("date", #""now""#, .now),
            ("binary", #""AAE=""#, .literal(.data(Data([0, 1])))), ("uuid", #""uuid""#, .uuid),
            (
                "uuid", #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#,
                .literal(.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()))
            ),
            ("uri", #""https://example.com/a""#, .literal(.string("https://example.com/a"))),
        ]
        for (type, literal, expected) in accepted {
            let json = schema(attributes: #""a": {"type": "\#(type)", "default": \#(literal)}"#)
            let model = try? SchemaDecoder().decode(json, file: "t.json")
            #expect(model?.entities.first?.attributes.first?.defaultValue == expected, "\(type)")
        }
        let refused: [(String, String, String)] = [
            ("integer16", "32768", "expected an integer from -32768 to 32767 (integer16)"),
            ("integer32", "2147483648", "expected an integer from -2147483648 to 2147483647"),
            ("integer64", "1.5", "expected an integer from"),
            ("integer16", #""now""#, "expected an integer"),
            ("float", "1e39", "expected a number within the range of float"),
            ("double", #""1""#, "expected a number"),
            ("boolean", "1", "expected true or false"),
            ("date", #""yesterday""#, "expected an ISO-8601 date"),
            ("date", #""2001-02-30""#, "expected an ISO-8601 date"),
            ("string", "5", "expected a string"),
            ("binary", #""not base64!""#, "expected base64 text"),
            ("uuid", #""now""#, "expected a UUID"),
            ("uuid", #""1234""#, "expected a UUID"),
        ]
        for (type, literal, message) in refused {
            let found = issues(
                schema(attributes: #""a": {"type": "\#(type)", "default": \#(literal)}"#))
            #expect(
                found.map(\.path) == ["$.entities.E.attributes.a.default"], "\(type) \(literal)")
            #expect(found.first?.message.hasPrefix(message) == true, "\(found)")
        }
    }

    @Test func testBoundsFollowTheTypeOfTheAttribute() throws {
        let found = issues(
            schema(
                attributes: """
                    "small": {"type": "integer16", "maxValue": 40000},
                    "when": {"type": "date", "minValue": "2001-01-01T00:00:00.5Z", "maxValue": "soon"},
                    "name": {"type": "string", "minValue": 1}
                    """))
        #expect(
            found.map(\.path) == [
                "$.entities.E.attributes.small.maxValue", "$.entities.E.attributes.when.maxValue",
                "$.entities.E.attributes.name.minValue",
            ])
        #expect(found[2].message.hasPrefix("'minValue' applies only to integer16, integer32"))
    }

    @Test func testTouchMediaAndStorageApplyOnlyToTheirTypes() {
        let found = issues(
            schema(
                attributes: """
                    "a": {"type": "date", "touch": "always"},
                    "b": {"type": "string", "touch": "save", "media": true, "externalStorage": true,
                          "valueTransformer": "T", "dateFormat": "yyyy"},
                    "c": {"type": "date", "pattern": "x", "maxLength": 3}
                    """))
        #expect(
            found.map(\.path) == [
                "$.entities.E.attributes.a.touch", "$.entities.E.attributes.b.touch",
                "$.entities.E.attributes.b.media", "$.entities.E.attributes.b.externalStorage",
                "$.entities.E.attributes.b.valueTransformer",
                "$.entities.E.attributes.b.dateFormat",
                "$.entities.E.attributes.c.pattern", "$.entities.E.attributes.c.maxLength",
            ])
        #expect(found[0].message == "expected \"save\" (the only touch), found string \"always\"")
        #expect(found[1].message == "'touch' applies only to date attributes, not string")
        #expect(
            found[3].message == "'externalStorage' applies only to binary, transformable "
                + "attributes, not string")
    }

    /// `inverse` may be missing (Core Data allows it), but not of the wrong type.
    @Test func testRelationshipsNeedADestinationAndAKnownDeleteRule() {
        let found = issues(
            schema(
                relationships: """
                    "r": {"toMany": true, "deleteRule": "destroy"},
                    "s": {"destination": "", "inverse": 3}
                    """))
        #expect(
            found.map(\.path) == [
                "$.entities.E.relationships.r",
                "$.entities.E.relationships.r.deleteRule",
                "$.entities.E.relationships.s.destination",
                "$.entities.E.relationships.s.inverse",
            ])
        #expect(
            found[0].message
                == "missing key 'destination'; expected the name of the destination entity")
        #expect(
            found[1].message == "unknown delete rule string \"destroy\"; expected one of "
                + "\"nullify\", \"cascade\", \"deny\", \"noAction\"")
    }

    @Test func testEntitiesAndConstraintsMustHaveTheirShapes() {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {
              "A": [], "B": {"abstract": 1, "uniquenessConstraints": [["x", 2], "y"],
                             "attributes": {"a": "string"}}}}
            """
        #expect(
            issues(json).map(\.path) == [
                "$.entities.A", "$.entities.B.abstract", "$.entities.B.uniquenessConstraints[0][1]",
                "$.entities.B.uniquenessConstraints[1]", "$.entities.B.attributes.a",
            ])
    }

    // MARK: - Indexes, user info, fetch requests, configurations

    @Test func testIndexesUserInfoRequestsAndConfigurationsDecode() throws {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1,
             "entities": {"E": {
               "indexes": [{"name": "byURL", "elements": [
                              {"property": "url", "order": "descending", "type": "binary"},
                              {"property": "date"}]},
                           {"name": "area", "elements": [{"property": "date", "type": "rtree"}]}],
               "userInfo": {"relatedByAttribute": "url"},
               "attributes": {"url": {"type": "string", "userInfo": {"mappedKeyName": "URL"}},
                              "date": {"type": "date"}},
               "relationships": {"r": {"destination": "E", "inverse": "r",
                                       "userInfo": {"k": "v"}}}}},
             "fetchRequests": {"recent": {"entity": "E", "predicate": "date > $D",
                                          "options": {"fetchLimit": "5"}}},
             "configurations": {"Cloud": {"entities": ["E"], "usedWithCloudKit": true}}}
            """
        let model = try SchemaDecoder().decode(json, file: "1.json")
        let entity = try #require(model.entity(named: "E"))
        #expect(
            entity.indexes == [
                FetchIndex(
                    name: "byURL",
                    elements: [
                        .init(property: "url", order: .descending), .init(property: "date"),
                    ]),
                FetchIndex(name: "area", elements: [.init(property: "date", kind: .rtree)]),
            ])
        #expect(entity.userInfo == ["relatedByAttribute": "url"])
        #expect(entity.attribute(named: "url")?.userInfo == ["mappedKeyName": "URL"])
        #expect(entity.relationship(named: "r")?.userInfo == ["k": "v"])
        #expect(
            model.fetchRequests == [
                FetchRequestTemplate(
                    name: "recent", entity: "E", predicate: "date > $D",
                    options: ["fetchLimit": "5"])
            ])
        #expect(
            model.configurations == [
                ModelConfiguration(name: "Cloud", entities: ["E"], isUsedWithCloudKit: true)
            ])
    }

    @Test func testBadIndexesUserInfoRequestsAndConfigurationsAreLocated() {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1,
             "entities": {"E": {
               "indexes": [{"elements": [{"property": "a", "order": "up"}]}, "byA",
                           {"name": "x", "elements": [{"type": "rtree"}]}],
               "userInfo": {"n": 1},
               "attributes": {"a": {"type": "string"}}}},
             "fetchRequests": {"f": {"predicate": "a == 1", "options": {"fetchLimit": 5}}},
             "configurations": {"C": {"entities": "E", "cloud": true}}}
            """
        let found = issues(json)
        #expect(
            found.map(\.path) == [
                "$.entities.E.indexes[0]", "$.entities.E.indexes[0].elements[0].order",
                "$.entities.E.indexes[1]", "$.entities.E.indexes[2].elements[0]",
                "$.entities.E.userInfo.n", "$.fetchRequests.f",
                "$.fetchRequests.f.options.fetchLimit",
                "$.configurations.C.entities", "$.configurations.C.cloud",
            ])
        #expect(found[0].message == "missing key 'name'; expected the index's name")
        #expect(found[0].line == 3 && found[0].column == 16)
        #expect(
            found[1].message
                == "expected one of \"ascending\", \"descending\", found string \"up\"")
        #expect(found[4].message == "expected a string value, found number 1")
    }
}
