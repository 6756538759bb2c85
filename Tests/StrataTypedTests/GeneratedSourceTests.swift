import Foundation
import Strata
import Testing

/// Generated code compiles under Swift 6 with warnings as errors, for every
/// bundled model and for hostile names; the committed generated files are
/// what the generator writes today.
struct GeneratedSourceTests {
    /// The committed generated files and the schema versions they come from.
    static let committed: [(file: String, schemas: String, version: Int)] = [
        (
            "Tests/StrataTypedTests/Generated/AllTypesModel.swift",
            "Tests/StrataTypedTests/Schemas/AllTypes", 1
        ),
        ("Tests/StrataTypedTests/Generated/DiaryModel.swift", "Schemas/Diary", 3),
        ("Tests/StrataTypedTests/Generated/NotesModel.swift", "Schemas/Notes", 1),
        ("Benchmarks/ContactsModel.swift", "Schemas/Contacts", 1),
    ]

    @Test func testCommittedGeneratedFilesAreCurrent() throws {
        for entry in Self.committed {
            let model = try TypedFixture.model(entry.schemas, version: entry.version)
            let generated = try SwiftClassGenerator().generate(
                model, file: "\(entry.schemas)/\(entry.version).json")
            let committed = try String(
                contentsOf: TypedFixture.packageRoot.appendingPathComponent(entry.file),
                encoding: .utf8)
            #expect(
                committed == generated.source,
                "\(entry.file) is stale: regenerate it with `strata schema swift \(entry.schemas) --version \(entry.version) -o \(entry.file)`"
            )
        }
    }

    @Test func testEveryBundledModelsClassesCompileWithoutWarnings() throws {
        let schemas = TypedFixture.packageRoot.appendingPathComponent("Schemas")
        let folders = try FileManager.default.contentsOfDirectory(atPath: schemas.path).sorted()
        #expect(folders.count >= 4)
        let compiler = try SwiftCompiler()
        for folder in folders {
            let model = try TypedFixture.model("Schemas/\(folder)")
            let generated = try SwiftClassGenerator().generate(
                model, file: "Schemas/\(folder)/\(model.version).json")
            #expect(generated.warnings.isEmpty)
            let outcome = try compiler.typecheck(generated.source, module: "\(folder)Classes")
            #expect(outcome.status == 0, "\(folder): \(outcome.output)")
            #expect(outcome.output.isEmpty, "\(folder): \(outcome.output)")
        }
    }

    @Test func testHostileNamesCompileWithoutWarnings() throws {
        let json = """
            {"format": "strata-schema/1", "model": "hostile model", "version": 1, "entities": {
              "class": {"attributes": {
                  "func": {"type": "string", "optional": true},
                  "self": {"type": "integer16", "optional": true},
                  "Type": {"type": "integer32", "default": 1},
                  "first name": {"type": "string", "default": "A \\"quoted\\" \\\\ name"},
                  "2nd": {"type": "boolean", "default": false},
                  "context": {"type": "date", "default": "now"},
                  "hashValue": {"type": "uuid", "default": "uuid"},
                  "entityName": {"type": "uri", "default": "https://example.com"},
                  "init": {"type": "binary", "optional": true},
                  "größe": {"type": "decimal", "default": 1.5},
                  "default": {"type": "float", "default": 2}},
                "relationships": {
                  "protocol": {"destination": "Date", "inverse": "in", "toMany": true,
                               "optional": true},
                  "where": {"destination": "Protocol", "inverse": "is", "optional": true}}},
              "Date": {"attributes": {"on": {"type": "date", "optional": true}},
                "relationships": {"in": {"destination": "class", "inverse": "protocol",
                                         "optional": true}}},
              "Protocol": {"parent": "Date", "attributes": {"set": {"type": "string", "optional": true}},
                "relationships": {"is": {"destination": "class", "inverse": "where",
                  "toMany": true, "ordered": true, "optional": true}}},
              "Set": {"attributes": {"String": {"type": "string", "optional": true}}},
              "Foundation": {"attributes": {"Data": {"type": "binary", "optional": true}}}
            }}
            """
        let model = try SchemaDecoder().decode(Data(json.utf8), file: "hostile/1.json")
        let generated = try SwiftClassGenerator().generate(model, file: "hostile/1.json")
        #expect(!generated.warnings.isEmpty)
        let outcome = try SwiftCompiler().typecheck(generated.source, module: "HostileClasses")
        #expect(outcome.status == 0, "\(outcome.output)\n\(generated.source)")
        #expect(outcome.output.isEmpty, "\(outcome.output)")
    }
}
