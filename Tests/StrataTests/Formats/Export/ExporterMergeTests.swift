import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// An export of a whole entity in key order reads each to-many by one scan
/// in owner order beside the rows (``ExportRelatedRows``); a fetch with a
/// predicate reads it by one lookup per row. Both must write the same.
struct ExporterMergeTests {
    /// The NDJSON of `entity` with `fields`, whole (merged) or through a
    /// predicate every object passes (looked up per row).
    static func export(
        _ store: Store, _ model: Model, entity: String, fields: [String], nested: [String] = [],
        merged: Bool, folder: TemporaryDirectory
    ) throws -> String {
        var options = ExportOptions(entity: entity)
        options.fields = fields
        options.nested = nested
        options.includesIDs = true
        if !merged { options.predicate = try FetchPredicate("TRUEPREDICATE") }
        let output = folder.file("\(entity)-\(merged)-\(nested.count).ndjson")
        _ = try Exporter(store: store, model: model, options: options)
            .run(to: output.path, format: .ndjson)
        return try String(contentsOf: output, encoding: .utf8)
    }

    @Test func testOrderedSelfReferencingToManyOfACoreDataStoreMergesAsItIsLookedUp() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V5.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        let merged = try Self.export(
            store, model, entity: "BookmarkEntity", fields: ["title", "children"], merged: true,
            folder: folder)
        let lookedUp = try Self.export(
            store, model, entity: "BookmarkEntity", fields: ["title", "children"], merged: false,
            folder: folder)
        #expect(merged == lookedUp)
        // The folder with children keeps their stored order (Z_FOK_PARENT).
        #expect(
            merged.contains(
                #""children":["BookmarkEntity/p7","BookmarkEntity/p2","BookmarkEntity/p9"]"#))
    }

    @Test func testJoinTableAndForeignKeyToManysAndNestedObjectsMergeAsTheyAreLookedUp() throws {
        let fixture = try ImportFixture("Recipes")
        let plist = ContextFixture.schemas.deletingLastPathComponent()
            .appendingPathComponent("Samples/Recipes/recipes.plist").path
        _ = try fixture.run(
            try PropertyListRecordReader(path: plist), ImportOptions(entity: "Recipe"))
        let relationships = fixture.model.allRelationships(of: "Recipe").map(\.name)
        let toMany = fixture.model.allRelationships(of: "Recipe").filter(\.isToMany).map(\.name)
        #expect(!toMany.isEmpty)
        for nested in [[], toMany] {
            let merged = try Self.export(
                fixture.store, fixture.model, entity: "Recipe", fields: ["name"] + relationships,
                nested: nested, merged: true, folder: fixture.folder)
            let lookedUp = try Self.export(
                fixture.store, fixture.model, entity: "Recipe", fields: ["name"] + relationships,
                nested: nested, merged: false, folder: fixture.folder)
            #expect(merged == lookedUp)
            #expect(merged.contains(nested.isEmpty ? "Ingredient/p" : "\"displayOrder\":2"))
        }
    }

    @Test func testManyToManyJoinTableMergesAsItIsLookedUpFromBothSides() throws {
        let fixture = try ImportFixture("Diary")
        let diary = ContextFixture.schemas.deletingLastPathComponent()
            .appendingPathComponent("Samples/Diary/diary.txt").path
        var options = ImportOptions(entity: "DiaryEntry")
        options.mediaFolder = URL(fileURLWithPath: diary).deletingLastPathComponent()
        _ = try fixture.run(try TextBlockReader(path: diary), options)
        for (entity, fields) in [
            ("DiaryEntry", ["title", "tags", "media"]), ("Tag", ["name", "entries"]),
        ] {
            let merged = try Self.export(
                fixture.store, fixture.model, entity: entity, fields: fields, merged: true,
                folder: fixture.folder)
            let lookedUp = try Self.export(
                fixture.store, fixture.model, entity: entity, fields: fields, merged: false,
                folder: fixture.folder)
            #expect(merged == lookedUp)
            #expect(merged.contains(entity == "Tag" ? "DiaryEntry/p" : "Tag/p"))
        }
    }
}
