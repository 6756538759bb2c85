import Foundation
import Testing

@testable import Strata
@testable import StrataCodegen
@testable import StrataSchema

/// The generator's names: renamings with warnings, collisions as located
/// errors, the schema's comments as documentation.
struct SwiftClassGeneratorTests {
    private func model(_ entities: [Entity], name: String = "Test") -> Model {
        Model(name: name, version: 1, entities: entities)
    }

    @Test func testTwoEntitiesWithTheSameClassNameAreALocatedError() throws {
        let model = model([Entity(name: "Diary entry"), Entity(name: "DiaryEntry")])
        #expect {
            try SwiftClassGenerator().generate(model, file: "Schemas/Test/1.json")
        } throws: { error in
            guard let error = error as? CodegenError, let issue = error.issues.first else {
                return false
            }
            return error.issues.count == 1 && issue.file == "Schemas/Test/1.json"
                && issue.path == "$.entities.DiaryEntry"
                && issue.message.contains("Diary entry") && issue.message.contains("DiaryEntry")
        }
    }

    @Test func testAnEntityNamedLikeTheModelEnumIsALocatedError() throws {
        let model = model([Entity(name: "TestModel")])
        #expect {
            try SwiftClassGenerator().generate(model, file: "1.json")
        } throws: { error in
            (error as? CodegenError)?.issues.first?.path == "$.entities.TestModel"
        }
    }

    @Test func testTwoPropertiesWithTheSameMemberNameAreALocatedError() throws {
        let entity = Entity(
            name: "Person",
            attributes: [
                Attribute(name: "first name", type: .string),
                Attribute(name: "firstName", type: .string),
            ])
        #expect {
            try SwiftClassGenerator().generate(model([entity]), file: "1.json")
        } throws: { error in
            let paths = (error as? CodegenError)?.issues.map(\.path) ?? []
            return paths.count == 1 && paths[0].hasPrefix("$.entities.Person.attributes")
        }
    }

    @Test func testHostileNamesAreBacktickedOrRenamedWithAWarning() throws {
        let entity = Entity(
            name: "3d model",
            attributes: [
                Attribute(name: "class", type: .string),
                Attribute(name: "first name", type: .string),
                Attribute(name: "self", type: .integer16),
                Attribute(name: "context", type: .string),
            ])
        let generated = try SwiftClassGenerator().generate(model([entity]), file: "1.json")
        #expect(generated.source.contains("public final class _3dModel: ManagedObject"))
        #expect(generated.source.contains("public var `class`: String?"))
        #expect(generated.source.contains("public var firstName: String?"))
        #expect(generated.source.contains("public var selfProperty: Int16?"))
        #expect(generated.source.contains("public var contextProperty: String?"))
        #expect(generated.source.contains("typedValue(forKey: \"first name\")"))
        #expect(generated.warnings.count == 4)
        for name in ["3d model", "first name", "self", "context"] {
            #expect(generated.warnings.contains { $0.path.contains(name) && $0.file == "1.json" })
        }
    }

    @Test func testCommentsBecomeDocumentationAndAreNotHashed() throws {
        var attribute = Attribute(name: "title", type: .string)
        attribute.comment = "The entry's headline,\nshown in lists."
        var entity = Entity(name: "Entry", attributes: [attribute])
        entity.comment = "A page of the diary."
        let commented = model([entity])
        let generated = try SwiftClassGenerator().generate(commented, file: "1.json")
        #expect(generated.source.contains("/// A page of the diary.\n"))
        #expect(
            generated.source.contains("    /// The entry's headline,\n    /// shown in lists.\n"))
        let plain = model([
            Entity(name: "Entry", attributes: [Attribute(name: "title", type: .string)])
        ])
        #expect(commented.versionHashes == plain.versionHashes)
    }

    @Test func testCommentsRoundTripThroughTheSchemaFormat() throws {
        let json = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {
              "E": {"comment": "An entity.", "attributes": {
                "a": {"type": "string", "comment": "An attribute."}},
               "relationships": {"r": {"destination": "E", "inverse": "r", "optional": true,
                 "comment": "A relationship."}}}}}
            """
        let model = try SchemaDecoder().decode(Data(json.utf8), file: "1.json")
        let entity = try #require(model.entity(named: "E"))
        #expect(entity.comment == "An entity.")
        #expect(entity.attribute(named: "a")?.comment == "An attribute.")
        #expect(entity.relationship(named: "r")?.comment == "A relationship.")
        let again = try SchemaDecoder().decode(SchemaEncoder().encodeData(model), file: "1.json")
        #expect(again == model)
    }

    @Test func testAnEntityNamedLikeAFoundationTypeQualifiesThatType() throws {
        let entity = Entity(
            name: "Date", attributes: [Attribute(name: "day", type: .date)])
        let generated = try SwiftClassGenerator().generate(model([entity]), file: "1.json")
        #expect(generated.source.contains("public var day: Foundation.Date?"))
    }

    // MARK: - Issue 28, point 8: what schema check warns about

    @Test("schema check warns about an attribute named description")
    func testRenamingsNameTheEntityAttributeSwiftNameAndWhy() throws {
        let entity = Entity(
            name: "Note",
            attributes: [
                Attribute(name: "description", type: .string),
                Attribute(name: "title", type: .string),
                Attribute(name: "first name", type: .string),
            ])
        let model = model([entity])
        let renamings = SwiftClassGenerator().renamings(model, file: "1.json")
        #expect(
            renamings.map(\.description) == [
                "1.json: $.entities.Note.attributes.description: attribute 'description' of "
                    + "Note: every generated class has a member description already (from "
                    + "ManagedObject or TypedEntity), so `schema swift` names its property "
                    + "descriptionProperty",
                "1.json: $.entities.Note.attributes[\"first name\"]: attribute 'first name' of "
                    + "Note: 'first name' is not a usable Swift property name, so `schema swift` "
                    + "names its property firstName",
            ])
        // The same warnings as the generator's, from the same rules.
        let generated = try SwiftClassGenerator().generate(model, file: "1.json")
        #expect(generated.warnings == renamings)
        #expect(generated.source.contains("public var descriptionProperty: String?"))
    }
}
