import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 4: a value crosses a version that lacks it through a
/// mapping file spanning the versions (`1-3.mapping.json`), read from the
/// store as it is at the span's start.
struct MigrationSpanningMappingTests {
    /// v1 and v3 have `Document.location`; v2 does not.
    static func folder(in directory: TemporaryDirectory, mappings: [String: String]) throws -> URL {
        let folder = directory.file("Schemas/Docs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let location = #", "location": {"type": "binary", "optional": true}"#
        for (version, extra) in [(1, location), (2, ""), (3, location)] {
            let json = """
                {"format": "strata-schema/1", "model": "Docs", "version": \(version),
                 "entities": {"Document": {"attributes": {"name": {"type": "string"}\(extra)}}}}
                """
            try Data(json.utf8).write(to: folder.appendingPathComponent("\(version).json"))
        }
        for (name, text) in mappings {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    static let span = """
        {"format": "strata-mapping/1", "from": 1, "to": 3,
         "entities": {"Document": {"attributes": {"location": "location"}}}}
        """

    @Test func testASpanningMappingKeepsAValueAVersionBetweenLacks() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.folder(in: directory, mappings: ["1-3.mapping.json": Self.span])
        let chain = try SchemaChain.load(directory: folder)
        let url = directory.file("Docs.sqlite")
        let v1 = try #require(chain.model(version: 1))
        try {
            let store = try Store.create(at: url, model: v1)
            defer { try? store.close() }  // Saved below.
            let context = try Context(store: store, model: v1)
            let document = try context.insert("Document")
            try document.set("name", "Plan")
            try document.setValue(.data(Data([1, 2, 3])), forKey: "location")
            try context.save()
        }()
        let migrator = try Migrator(storeAt: url, schemas: folder)
        let preview = try migrator.preview()
        #expect(preview.stages.map(\.stage.name) == ["1-3"])
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")
        try migrator.run()
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        let context = try Context(store: store, model: chain.newest)
        let documents = try context.all("Document")
        #expect(try documents.first?.value(forKey: "location") == .data(Data([1, 2, 3])))
    }

    static func emptyMapping(_ from: Int, _ to: Int) -> String {
        """
        {"format": "strata-mapping/1", "from": \(from), "to": \(to), "entities": {}\(
            from == 1 ? #", "discard": ["Document.location"]"# : "")}
        """
    }

    /// The stages a store at `version` takes to version 3 with `files`.
    static func stages(
        from version: Int, files: [String: String], in directory: TemporaryDirectory
    ) throws -> [String] {
        let folder = try Self.folder(in: directory, mappings: files)
        let chain = try SchemaChain.load(directory: folder)
        let url = directory.file("Docs-\(version).sqlite")
        let store = try Store.create(at: url, model: try #require(chain.model(version: version)))
        try store.close()
        return try Migrator(storeAt: url, schemas: folder).preview().stages.map(\.stage.name)
    }

    /// Issue 26: spans that overlap coexist, as Core Data's mapping models
    /// do (1.0→2.0 beside 1.0→1.1 and 1.1→2.0).
    @Test func testTheFileStraightFromTheStoresVersionToTheTargetWins() throws {
        let directory = try TemporaryDirectory()
        let files = [
            "1-3.mapping.json": Self.span, "1-2.mapping.json": Self.emptyMapping(1, 2),
            "2-3.mapping.json": Self.emptyMapping(2, 3),
        ]
        #expect(try Self.stages(from: 1, files: files, in: directory) == ["1-3"])
        #expect(try Self.stages(from: 2, files: files, in: directory) == ["2-3"])
    }

    @Test func testWithoutADirectFileEachVersionTakesTheFileReachingFarthest() throws {
        let directory = try TemporaryDirectory()
        let files = [
            "1-2.mapping.json": Self.emptyMapping(1, 2),
            "2-3.mapping.json": Self.emptyMapping(2, 3),
        ]
        #expect(try Self.stages(from: 1, files: files, in: directory) == ["1-2", "2-3"])
    }

    @Test func testASpanBeyondTheTargetIsLeftForAShorterOne() throws {
        let directory = try TemporaryDirectory()
        let folder = try Self.folder(
            in: directory,
            mappings: ["1-3.mapping.json": Self.span, "1-2.mapping.json": Self.emptyMapping(1, 2)])
        let chain = try SchemaChain.load(directory: folder)
        let url = directory.file("Docs.sqlite")
        try Store.create(at: url, model: try #require(chain.model(version: 1))).close()
        var options = MigrationOptions()
        options.targetVersion = 2
        let preview = try Migrator(storeAt: url, schemas: folder, options: options).preview()
        #expect(preview.stages.map(\.stage.name) == ["1-2"])
    }
}
