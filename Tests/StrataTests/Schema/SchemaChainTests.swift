import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

struct SchemaChainTests {
    /// A fresh folder holding `files` (name → text); removed by the caller.
    func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: url.appendingPathComponent(name))
        }
        return url
    }

    func schema(_ version: Int, model: String = "Diary", entities: String = "") -> String {
        """
        {"format": "strata-schema/1", "model": "\(model)", "version": \(version),
         "entities": {\(entities)}}
        """
    }

    /// The issues of loading `url`, or none when it loads.
    func issues(_ url: URL) -> [SchemaIssue] {
        do {
            _ = try SchemaChain.load(directory: url)
            return []
        } catch {
            return error.issues
        }
    }

    @Test func testLoadsVersionsInOrderIgnoringMappingsAndOtherFiles() throws {
        let url = try folder(
            [
                "2.json": schema(2, entities: #""Entry": {}"#), "1.json": schema(1),
                "10.json": schema(10), "1-2.mapping.json": "not read", "README.md": "x",
                ".3.json": "hidden",
            ].merging((3...9).map { ("\($0).json", schema($0)) }) { $1 })
        defer { try? FileManager.default.removeItem(at: url) }
        let chain = try SchemaChain.load(directory: url)
        #expect(chain.versions.map(\.version) == Array(1...10))
        #expect(chain.newest.version == 10 && chain.name == "Diary")
        #expect(chain.model(version: 2)?.entities.map(\.name) == ["Entry"])
        #expect(chain.model(version: 11) == nil)
    }

    @Test func testFileNameMustMatchVersion() throws {
        let url = try folder(["1.json": schema(1), "2.json": schema(3)])
        defer { try? FileManager.default.removeItem(at: url) }
        let found = issues(url)
        #expect(found.map(\.path) == ["$.version"])
        #expect(found.first?.file.hasSuffix("/2.json") == true)
        #expect(found.first?.line == 1 && found.first?.column == 49)
        #expect(found.first?.message.hasPrefix("version is 3 but the file is named 2.json") == true)
    }

    @Test func testVersionsMustStartAtOneWithoutGaps() throws {
        let url = try folder(["2.json": schema(2), "3.json": schema(3), "6.json": schema(6)])
        defer { try? FileManager.default.removeItem(at: url) }
        let found = issues(url)
        #expect(
            found.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["2.json", "6.json"])
        #expect(found.map(\.path) == ["$", "$"])
        #expect(
            found[0].message
                == "the first version is 2; 1.json is missing, a chain starts at 1.json")
        #expect(found[1].message == "version 6 follows version 3; 4.json to 5.json are missing")
    }

    @Test func testEveryFileMustNameTheSameModel() throws {
        let url = try folder(["1.json": schema(1), "2.json": schema(2, model: "Journal")])
        defer { try? FileManager.default.removeItem(at: url) }
        let found = issues(url)
        #expect(found.map(\.path) == ["$.model"])
        #expect(found.first?.message.hasPrefix("model is \"Journal\" but ") == true)
    }

    @Test func testEmptyFolderAndMisnamedFilesAreReported() throws {
        let empty = try folder(["notes.txt": ""])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(
            issues(empty).map(\.message) == [
                "no schema files; expected 1.json, 2.json, … in this folder"
            ])
        #expect(issues(empty).first?.file == empty.relativePath)

        let misnamed = try folder(["1.json": schema(1), "02.json": schema(2), "v3.json": schema(3)])
        defer { try? FileManager.default.removeItem(at: misnamed) }
        let found = issues(misnamed)
        #expect(
            found.map { URL(fileURLWithPath: $0.file).lastPathComponent } == ["02.json", "v3.json"])
        #expect(found.allSatisfy { $0.path == "$" && $0.line == nil })
        #expect(found.first?.message.hasPrefix("file name '02.json' is not <version>.json") == true)
    }

    @Test func testIssuesOfAllFilesAreLocatedAndCascadesDropped() throws {
        let broken = """
            {"format": "strata-schema/1", "model": "Diary", "version": 2, "entities": {
              "A": {"relationships": {"b": {"destination": "B", "inverse": "a"}}},
              "B": {"relationships": {"a": {"inverse": "b"}}}}}
            """
        let url = try folder(["1.json": "{", "2.json": broken])
        defer { try? FileManager.default.removeItem(at: url) }
        let found = issues(url)
        #expect(found.map(\.path) == ["$", "$.entities.B.relationships.a"])
        #expect(found[0].line == 1 && found[0].column == 2)
        #expect(found[1].message.hasPrefix("missing key 'destination'"))
    }

    @Test func testValidationIssuesGetTheLineAndColumnOfTheirKey() throws {
        let text = """
            {"format": "strata-schema/1", "model": "M", "version": 1, "entities": {
              "A": {"attributes": {"n": {"type": "integer16", "minValue": 3, "maxValue": 2}}}}}
            """
        let url = try folder(["1.json": text])
        defer { try? FileManager.default.removeItem(at: url) }
        let found = issues(url)
        #expect(found.map(\.path) == ["$.entities.A.attributes.n.minValue"])
        #expect(found.first?.line == 2 && found.first?.column == 51)
        let file = url.relativePath + "/1.json"
        #expect(
            SchemaError(issues: found).description
                == "\(file):2:51: $.entities.A.attributes.n.minValue: minValue 3 is above maxValue 2"
        )
    }

    @Test func testLoadFileReadsOneVersion() throws {
        let url = try folder(["7.json": schema(7), "schema.json": schema(3), "4.json": schema(5)])
        defer { try? FileManager.default.removeItem(at: url) }
        let chain = try SchemaChain.load(file: url.appendingPathComponent("7.json"))
        #expect(chain.versions.map(\.version) == [7])
        #expect(
            try SchemaChain.load(file: url.appendingPathComponent("schema.json")).newest.version
                == 3)
        #expect(throws: SchemaError.self) {
            try SchemaChain.load(file: url.appendingPathComponent("4.json"))
        }
    }

    @Test func testBrokenDiarySampleHasExactlyTenIssues() throws {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(
            atPath: root.appendingPathComponent("Package.swift").path)
        {
            let parent = root.deletingLastPathComponent()
            try #require(parent.path != root.path, "package root not found above the test file")
            root = parent
        }
        let found = issues(root.appendingPathComponent("Samples/BrokenSchemas/Diary"))
        let located = found.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent) \($0.path)" }
        #expect(
            located == [
                "1.json $.entities.DiaryEntry.attributes.text.type",
                "1.json $.entities.DiaryEntry.attributes.title.maxLenght",
                "2.json $.entities.DiaryEntry.attributes.rating.default",
                "2.json $.entities.DiaryEntry.relationships.media.inverse",
                "2.json $.entities.DiaryEntry.relationships.place.destination",
                "3.json $.version",
                "3.json $.entities.DiaryEntry.attributes.rating.minValue",
                "3.json $.entities.Medium.attributes.type.pattern",
                "5.json $.entities.Medium.parent",
                "5.json $",
            ])
    }
}
