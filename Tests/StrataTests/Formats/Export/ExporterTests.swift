import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataQuery
@testable import StrataStore

struct ExporterTests {
    @Test func testCoreDataStoreWithItsDataInTheWALExportsWithTheModelFromTheCache() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V5.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        let resolution = try store.resolveModel(schemas: nil)
        #expect(resolution.source == .modelCache)
        var options = ExportOptions(entity: "BookmarkEntity")
        options.fields = ["title", "children"]
        options.includesIDs = true
        options.predicate = try FetchPredicate("title == '3'")
        let output = folder.file("bookmarks.ndjson")
        let summary = try Exporter(
            store: store, model: try resolution.requiredModel(), options: options
        ).run(to: output.path, format: .ndjson)
        #expect(summary.records == 1)
        // The ordered to-many in its stored order (Z_FOK_PARENT), not by key.
        #expect(
            try String(contentsOf: output, encoding: .utf8)
                == #"{"_id":"BookmarkEntity/p4","title":"3","children":["BookmarkEntity/p7","BookmarkEntity/p2","BookmarkEntity/p9"]}"#
                + "\n")
    }

    @Test func testExternalBinaryFilesExportTheirBytes() throws {
        let fixture = try ExportKindsFixture(rows: [["photo": .data(Data([9, 8, 7]))]])
        // Core Data keeps large values in a file beside the store: 0x02 and its name.
        let external = ExternalBinary.folder(forStoreAt: fixture.store.url)
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        let bytes = Data("JFIF-like bytes kept outside the row".utf8)
        try bytes.write(to: external.appendingPathComponent("6F1E-EXTERNAL"))
        try fixture.store.connection.execute(
            "UPDATE ZITEM SET ZPHOTO = ?", [.blob(Data([0x02]) + Data("6F1E-EXTERNAL\0".utf8))])
        var options = ExportOptions(entity: "Item")
        options.fields = ["photo"]
        let output = fixture.folder.file("items.json")
        _ = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: output.path, format: .json)
        #expect(
            try String(contentsOf: output, encoding: .utf8)
                == "[\n{\"photo\":\"\(bytes.base64EncodedString())\"}\n]\n")
    }

    @Test func testNestedIngredientsReimportInOrderThroughThePlistImporter() throws {
        let fixture = try ImportFixture("Recipes")
        let plist = ContextFixture.schemas.deletingLastPathComponent()
            .appendingPathComponent("Samples/Recipes/recipes.plist").path
        let source = try PropertyListRecordReader(path: plist)
        _ = try fixture.run(source, ImportOptions(entity: "Recipe"))
        var options = ExportOptions(entity: "Recipe")
        options.fields = ["name", "overview", "prepTime", "ingredients"]
        options.nested = ["ingredients"]
        options.sortDescriptors = [SortDescriptor("name")]
        let output = fixture.folder.file("recipes-out.plist")
        _ = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: output.path, format: .plist)

        let again = try ImportFixture("Recipes")
        _ = try again.run(
            try PropertyListRecordReader(path: output.path), ImportOptions(entity: "Recipe"))
        let ingredients = """
            SELECT r.ZNAME, i.ZNAME, i.ZAMOUNT, i.ZDISPLAYORDER FROM ZINGREDIENT i
            JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE ORDER BY r.ZNAME, i.ZDISPLAYORDER, i.Z_PK
            """
        #expect(try again.rows(ingredients) == fixture.rows(ingredients))
        #expect(try again.count("SELECT COUNT(*) FROM ZINGREDIENT") > 5)
    }

    @Test func testPlistIsValidForFoundationWithEveryType() throws {
        let fixture = try ExportKindsFixture()
        let output = fixture.folder.file("items.plist")
        _ = try Exporter(
            store: fixture.store, model: fixture.model, options: ExportOptions(entity: "Item")
        ).run(to: output.path, format: .plist)
        let parsed = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: output), format: nil)
        let items = try #require(parsed as? [[String: Any]])
        #expect(items.count == 4)
        #expect(items[0]["large"] as? Int64 == Int64.min || items[0]["large"] as? Int == Int.min)
        #expect(items[0]["bytes"] as? Data == Data([0, 1, 2, 255]))
        #expect(items[1]["when"] as? String == "2000-12-30T23:59:59.500Z")
        #expect(items[2]["when"] as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(items[3].isEmpty)
        let plutil = "/opt/swift/usr/bin/plutil"
        if FileManager.default.isExecutableFile(atPath: plutil) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: plutil)
            process.arguments = ["-lint", output.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    @Test func testAnExistingFileIsNotReplacedAndAFailedExportLeavesNothing() throws {
        let fixture = try ExportKindsFixture()
        let output = fixture.folder.file("items.csv")
        try Data("keep me\n".utf8).write(to: output)
        let exporter = try Exporter(
            store: fixture.store, model: fixture.model, options: ExportOptions(entity: "Item"))
        #expect(throws: ExportError.self) { try exporter.run(to: output.path, format: .csv) }
        #expect(try String(contentsOf: output, encoding: .utf8) == "keep me\n")

        var unknown = ExportOptions(entity: "Item")
        unknown.fields = ["text", "colour"]
        let missing = fixture.folder.file("never.csv")
        #expect {
            try Exporter(store: fixture.store, model: fixture.model, options: unknown)
                .run(to: missing.path, format: .csv)
        } throws: { error in
            (error as? ExportError)?.code == .unknownField
                && "\(error)".contains("no attribute or relationship 'colour'")
        }
        // Nothing beside it either: no hidden file left.
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path)
        #expect(left.filter { !$0.hasPrefix("Kinds.sqlite") }.sorted() == ["items.csv"])

        var replacing = ExportOptions(entity: "Item")
        replacing.replacesExisting = true
        replacing.fields = ["medium"]
        _ = try Exporter(store: fixture.store, model: fixture.model, options: replacing)
            .run(to: output.path, format: .csv)
        #expect(
            try String(contentsOf: output, encoding: .utf8)
                == "medium\r\n2147483647\r\n-2147483648\r\n\r\n\r\n")
    }

    @Test func testPredicateSortAndLimitSelectTheRows() throws {
        let fixture = try ExportKindsFixture()
        var options = ExportOptions(entity: "Item")
        options.fields = ["small", "text"]
        options.predicate = try FetchPredicate("small != nil")
        options.sortDescriptors = [SortDescriptor("small", ascending: false)]
        options.limit = 1
        let output = fixture.folder.file("one.csv")
        let summary = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: output.path, format: .csv)
        #expect(summary.records == 1)
        #expect(
            try String(contentsOf: output, encoding: .utf8)
                == "small,text\r\n32767,\"two lines,\nwith \"\"quotes\"\"\r\nand CRLF\"\r\n")
    }
}
