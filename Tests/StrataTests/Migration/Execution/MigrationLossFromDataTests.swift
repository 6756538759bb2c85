import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 5: a loss is named only when the store holds values to
/// lose. An attribute a run's earlier stage adds and a later stage removes
/// holds nothing of the store's, so removing it never blocks.
struct MigrationLossFromDataTests {
    @Test func testRemovingWhatAnEarlierStageAddedDoesNotBlock() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("Schemas/Items")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let versions = [
            #""name": {"type": "string"}"#,
            #""name": {"type": "string"}, "scratch": {"type": "string", "optional": true}"#,
            #""name": {"type": "string"}, "label": {"type": "string", "optional": true}"#,
        ]
        for (index, attributes) in versions.enumerated() {
            let json = """
                {"format": "strata-schema/1", "model": "Items", "version": \(index + 1),
                 "entities": {"Item": {"attributes": {\(attributes)}}}}
                """
            try Data(json.utf8).write(to: folder.appendingPathComponent("\(index + 1).json"))
        }
        // The mapping makes 2-3 a stage of its own, after 1-2.
        try Data(
            #"{"format": "strata-mapping/1", "from": 2, "to": 3, "entities": {"Item": {"attributes": {"label": "name"}}}}"#
                .utf8
        ).write(to: folder.appendingPathComponent("2-3.mapping.json"))
        let chain = try SchemaChain.load(directory: folder)
        let url = directory.file("Items.sqlite")
        let v1 = try #require(chain.model(version: 1))
        try {
            let store = try Store.create(at: url, model: v1)
            defer { try? store.close() }  // Saved below.
            let context = try Context(store: store, model: v1)
            for name in ["a", "b", "c"] { try context.insert("Item").set("name", name) }
            try context.save()
        }()
        let migrator = try Migrator(storeAt: url, schemas: folder)
        let preview = try migrator.preview()
        #expect(preview.stages.map(\.stage.name) == ["1-2", "2-3"])
        #expect(preview.findings.isEmpty, "\(preview.findings)")
        try migrator.run()
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Reading only.
        let items = try Context(store: store, model: chain.newest).all("Item")
        #expect(
            try items.map { try $0.value(forKey: "label") } == ["a", "b", "c"].map { .string($0) })
    }
}
