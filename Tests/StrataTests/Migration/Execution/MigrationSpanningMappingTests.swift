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
@Suite struct MigrationSpanningMappingTests {
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

    @Test func testOverlappingSpansAreRefused() throws {
        let directory = try TemporaryDirectory()
        let adjacent = """
            {"format": "strata-mapping/1", "from": 2, "to": 3, "entities": {}}
            """
        let folder = try Self.folder(
            in: directory, mappings: ["1-3.mapping.json": Self.span, "2-3.mapping.json": adjacent])
        let error = try #require(throws: MigrationError.self) {
            try Migrator(storeAt: directory.file("none.sqlite"), schemas: folder)
        }
        #expect(
            error.message.hasSuffix(
                "2-3.mapping.json: it overlaps 1-3.mapping.json; a version pair belongs to one mapping file at most"
            ), "\(error.message)")
    }
}
