import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema

/// Issue 28, point 5: every format export writes, import reads back to the
/// same objects; columns and keys in the schema's order, `_id` first. Each
/// round trip carries the penguins' species by key path (`species.name`,
/// point 4), which links them again in the fresh store.
struct ExportFormatsBothWaysTests {
    /// Exports every penguin in `format`, imports the output into a fresh
    /// store, and compares every attribute of every penguin.
    private func roundTrip(
        _ format: ExportFormat, name: String,
        configure: (inout ExportOptions) -> Void = { _ in },
        reading: (inout ImportOptions, ExportSummary) -> Void
    ) throws {
        let fixture = try PenguinExportFixture()
        var options = ExportOptions(entity: "Penguin")
        options.fields = PenguinExportFixture.declared + ["species.name"]
        configure(&options)
        let output = fixture.folder.file(name)
        let summary = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: output.path, format: format)
        #expect(summary.records == 30)
        let again = try fixture.reimport(output) { reading(&$0, summary) }
        let before = try PenguinExportFixture.penguins(in: fixture.store, model: fixture.model)
        let after = try PenguinExportFixture.penguins(in: again, model: fixture.model)
        #expect(before.count == 30)
        #expect(after.keys.sorted() == before.keys.sorted(), "\(format.rawValue)")
        for (name, values) in before {
            #expect(after[name] == values, "\(name) (\(format.rawValue))")
        }
        // The links: each penguin's species again, the species made once each.
        let speciesBefore = try PenguinExportFixture.species(
            in: fixture.store, model: fixture.model)
        #expect(speciesBefore.count == 30)
        #expect(
            try PenguinExportFixture.species(in: again, model: fixture.model) == speciesBefore,
            "\(format.rawValue)")
        #expect(try PenguinExportFixture.speciesCount(in: again, model: fixture.model) == 3)
    }

    @Test("every format both ways: csv") func testCSV() throws {
        try roundTrip(.csv, name: "penguins.csv") { options, _ in options.format = .csv }
    }

    @Test("every format both ways: tsv") func testTSV() throws {
        try roundTrip(.tsv, name: "penguins.tsv") { options, _ in
            // By the name, as `strata import penguins.tsv` guesses it.
            #expect(ImportFormat.guess(path: "penguins.tsv") == .tsv)
            options.format = nil
        }
    }

    @Test("every format both ways: txt-lines") func testTextLines() throws {
        try roundTrip(.txtLines, name: "penguins.txt") {
            $0.delimiter = UInt8(ascii: ";")
        } reading: { options, summary in
            #expect(summary.columns == PenguinExportFixture.declared + ["species.name"])
            options.format = .txtLines
            options.delimiter = UInt8(ascii: ";")
            options.columns = summary.columns
        }
    }

    @Test("every format both ways: txt-files") func testTextFiles() throws {
        try roundTrip(.txtFiles, name: "penguins") { options, _ in
            options.format = .txtFiles
            // The reader adds each file's time as `modified`; left out here.
            options.fieldMap = ["title": "name", "body": "notes", "modified": ""]
        }
    }

    @Test("every format both ways: txt-blocks") func testTextBlocks() throws {
        try roundTrip(.txtBlocks, name: "penguins.txt") { options, _ in
            options.format = .txtBlocks
            options.fieldMap = ["body": "notes"]
        }
    }

    @Test("every format both ways: json") func testJSON() throws {
        try roundTrip(.json, name: "penguins.json") { options, _ in options.format = .json }
    }

    @Test("every format both ways: ndjson") func testNDJSON() throws {
        try roundTrip(.ndjson, name: "penguins.jsonl") { options, _ in
            #expect(ImportFormat.guess(path: "penguins.jsonl") == .ndjson)
        }
    }

    @Test("every format both ways: plist") func testPlist() throws {
        try roundTrip(.plist, name: "penguins.plist") { options, _ in options.format = .plist }
    }

    @Test("every format both ways: the format from the name")
    func testFormatFromTheName() {
        #expect(ExportFormat.guess(path: "a.tsv") == .tsv)
        #expect(ExportFormat.guess(path: "a.TSV") == .tsv)
        #expect(ExportFormat.guess(path: "a.ndjson") == .ndjson)
        #expect(ExportFormat.guess(path: "a.jsonl") == .ndjson)
        #expect(ExportFormat.guess(path: "a.plist") == .plist)
        #expect(ExportFormat.guess(path: "a.csv") == .csv)
        #expect(ExportFormat.guess(path: "a.dat") == nil)
    }

    @Test("export writes columns in schema order with _id first")
    func testSchemaOrder() throws {
        let fixture = try PenguinExportFixture(count: 1)
        var options = ExportOptions(entity: "Penguin")
        options.includesIDs = true
        let csv = fixture.folder.file("one.csv")
        _ = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: csv.path, format: .csv)
        let header = try String(contentsOf: csv, encoding: .utf8)
            .components(separatedBy: "\r\n").first
        #expect(header == "_id," + PenguinExportFixture.declared.joined(separator: ","))
        let json = fixture.folder.file("one.json")
        _ = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: json.path, format: .json)
        let text = try String(contentsOf: json, encoding: .utf8)
        // The first penguin has no island, mass or notes.
        let keys = ["_id", "name", "flipper", "measured", "breeding"]
        let places = keys.map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(places.allSatisfy { $0 != nil })
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
    }

    @Test("export writes columns in schema order: explicit --fields keep their order")
    func testFieldsKeepTheirOrder() throws {
        let fixture = try PenguinExportFixture(count: 1)
        var options = ExportOptions(entity: "Penguin")
        options.fields = ["notes", "name", "flipper"]
        let csv = fixture.folder.file("one.csv")
        _ = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: csv.path, format: .csv)
        #expect(try String(contentsOf: csv, encoding: .utf8).hasPrefix("notes,name,flipper\r\n"))
    }

    @Test("export writes columns in schema order: the order survives the stored schema")
    func testOrderSurvivesTheStoredSchema() throws {
        let model = try PenguinExportFixture.model()
        let text = try SchemaEncoder().encode(model)
        let again = try SchemaDecoder().decode(text, file: "again.json")
        #expect(
            again.attributesInDeclaredOrder(of: "Penguin").map(\.name)
                == PenguinExportFixture.declared)
        // The order is not part of the model's identity.
        var sorted = model
        sorted.entities = sorted.entities.map {
            var entity = $0
            entity.declaredOrder = PropertyOrder()
            return entity
        }
        #expect(sorted == model)
    }

    @Test("every format both ways: txt-lines refuses a value holding the delimiter")
    func testTextLinesRefusesTheDelimiter() throws {
        let fixture = try PenguinExportFixture(count: 2)
        var options = ExportOptions(entity: "Penguin")
        options.delimiter = UInt8(ascii: ",")
        options.fields = ["name", "notes"]
        let output = fixture.folder.file("x.txt")
        #expect {
            try Exporter(store: fixture.store, model: fixture.model, options: options)
                .run(to: output.path, format: .txtLines)
        } throws: { error in
            (error as? ExportError)?.message.contains("txt lines cannot hold this value") == true
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
