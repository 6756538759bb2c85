import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

/// Renaming identifiers that Core Data could not pair: located errors,
/// before anything is written.
struct SchemaRenamingIdentifierTests {
    static func model(_ entities: String, version: Int = 1) throws -> Model {
        try SchemaDecoder().decode(
            """
            {"format": "strata-schema/1", "model": "Chat", "version": \(version),
             "entities": {\(entities)}}
            """, file: "\(version).json")
    }

    /// Two properties of one version claiming one identifier (an unset one
    /// is the name) are reported at the one that claims it.
    @Test func testTwoPropertiesWithOneIdentifierAreReported() throws {
        let model = try Self.model(
            """
            "Conversation": {"attributes": {
                "mutedStatus": {"type": "integer32", "optional": true},
                "isSilenced": {"type": "boolean", "optional": true,
                               "renamingIdentifier": "mutedStatus"}}}
            """)
        let issues = SchemaValidator().validate(model, file: "1.json")
        #expect(
            issues.map(\.path) == [
                "$.entities.Conversation.attributes.isSilenced.renamingIdentifier"
            ])
        #expect(
            issues.first?.message
                == "renaming identifier 'mutedStatus' is also that of property mutedStatus; each "
                + "property of Conversation needs its own (an unset one is the property's name)")
    }

    /// The same for entities.
    @Test func testTwoEntitiesWithOneIdentifierAreReported() throws {
        let model = try Self.model(
            """
            "Chat": {"attributes": {"title": {"type": "string", "optional": true}}},
            "Conversation": {"renamingIdentifier": "Chat",
                             "attributes": {"title": {"type": "string", "optional": true}}}
            """)
        let issues = SchemaValidator().validate(model, file: "1.json")
        #expect(issues.map(\.path) == ["$.entities.Conversation.renamingIdentifier"])
    }

    /// Inherited properties claim their identifiers in every subentity, however the chain is
    /// ordered: `Alpha` sorts before its parent and grandparent, and `Zed` inherits through it.
    /// Each entity's own property is the one reported.
    @Test func testAnInheritedIdentifierIsReportedAtTheSubentitysProperty() throws {
        let model = try Self.model(
            """
            "Base": {"attributes": {"title": {"type": "string", "optional": true}}},
            "Middle": {"parent": "Base",
                       "attributes": {"body": {"type": "string", "optional": true}}},
            "Alpha": {"parent": "Middle",
                      "attributes": {"heading": {"type": "string", "optional": true,
                                                 "renamingIdentifier": "title"}}},
            "Zed": {"parent": "Alpha",
                    "attributes": {"text": {"type": "string", "optional": true,
                                            "renamingIdentifier": "body"}}}
            """)
        let issues = SchemaValidator().validate(model, file: "1.json")
        #expect(
            issues.map(\.path) == [
                "$.entities.Alpha.attributes.heading.renamingIdentifier",
                "$.entities.Zed.attributes.text.renamingIdentifier",
            ])
        #expect(
            issues.map(\.message) == [
                "renaming identifier 'title' is also that of property title; each property of "
                    + "Alpha needs its own (an unset one is the property's name)",
                "renaming identifier 'body' is also that of property body; each property of "
                    + "Zed needs its own (an unset one is the property's name)",
            ])
    }

    /// Writes a chain folder of the given versions.
    static func folder(_ versions: [String]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        for (index, entities) in versions.enumerated() {
            let text = """
                {"format": "strata-schema/1", "model": "Chat", "version": \(index + 1),
                 "entities": {
                  \(entities)
                 }}
                """
            try Data(text.utf8).write(to: folder.file("\(index + 1).json"))
        }
        return folder
    }

    /// An identifier pairing an attribute with an older one of a type that
    /// does not widen to its own is an error in the newer file, with its
    /// line; so is one that names a relationship.
    @Test func testPairingsCoreDataCannotInferAreLocatedErrors() throws {
        let folder = try Self.folder([
            """
            "Conversation": {"attributes": {"lastRead": {"type": "date", "optional": true},
                                            "flag": {"type": "boolean", "optional": true}},
                             "relationships": {"peers": {"destination": "Conversation",
                                                         "inverse": "peers", "toMany": true,
                                                         "optional": true}}}
            """,
            """
            "Conversation": {"attributes": {"readCount": {"type": "integer16", "optional": true,
                                                           "renamingIdentifier": "lastRead"},
                                            "level": {"type": "integer32", "optional": true,
                                                       "renamingIdentifier": "flag"},
                                            "peerCount": {"type": "integer32", "optional": true,
                                                          "renamingIdentifier": "peers"}}}
            """,
        ])
        let error = #expect(throws: SchemaError.self) {
            _ = try SchemaChain.load(directory: folder.url)
        }
        let issues = error?.issues ?? []
        #expect(
            issues.map(\.path) == [
                "$.entities.Conversation.attributes.peerCount.renamingIdentifier",
                "$.entities.Conversation.attributes.readCount.renamingIdentifier",
            ])
        #expect(issues.allSatisfy { $0.file.hasSuffix("2.json") && $0.line != nil })
        #expect(
            issues.last?.message
                == "renaming identifier 'lastRead' pairs this integer16 attribute with "
                + "Conversation.lastRead of version 1, a date, which does not widen to integer16; "
                + "give it another renaming identifier and convert the values with a mapping")
        #expect(
            issues.first?.message.contains("an attribute cannot continue a relationship") == true)
    }
}
