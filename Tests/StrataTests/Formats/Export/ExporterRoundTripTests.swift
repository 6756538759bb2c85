import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Every format's export, imported again, gives the same values: every
/// attribute type, at the edges of its range.
struct ExporterRoundTripTests {
    private func roundTrip(
        _ format: ImportFormat, as exportFormat: ExportFormat, textFits: Bool = false,
        configure: (inout ExportOptions) -> Void = { _ in }
    ) throws {
        let fixture = try ExportKindsFixture(rows: ExportKindsFixture.rows(textFits: textFits))
        var options = ExportOptions(entity: "Item")
        configure(&options)
        let output = fixture.folder.file("out.\(format.rawValue)")
        let summary = try Exporter(store: fixture.store, model: fixture.model, options: options)
            .run(to: output.path, format: exportFormat)
        #expect(summary.records == 4)
        var media: URL?
        if case .files(let folder) = options.binaries { media = folder }
        // A txt block's body reads back as `body`; the body field was `text`.
        let again = try fixture.reimport(
            output, format: format, mediaFolder: media,
            fieldMap: format == .txtBlocks ? ["body": "text"] : [:])
        let before = try ExportKindsFixture.values(of: fixture.store, model: fixture.model)
        let after = try ExportKindsFixture.values(of: again, model: fixture.model)
        #expect(after.count == before.count)
        for (index, (old, new)) in zip(before, after).enumerated() {
            for key in Set(old.keys).union(new.keys).sorted() {
                #expect(old[key] == new[key], "row \(index) \(key) (\(format.rawValue))")
            }
        }
    }

    @Test func testCSVReimportsToTheSameValues() throws {
        try roundTrip(.csv, as: .csv)
    }

    @Test func testJSONReimportsToTheSameValues() throws {
        try roundTrip(.json, as: .json)
    }

    @Test func testNDJSONReimportsToTheSameValues() throws {
        try roundTrip(.ndjson, as: .ndjson)
    }

    @Test func testPlistReimportsToTheSameValues() throws {
        try roundTrip(.plist, as: .plist)
    }

    @Test func testTextBlocksReimportToTheSameValues() throws {
        try roundTrip(.txtBlocks, as: .txtBlocks, textFits: true) { $0.bodyField = "text" }
    }

    @Test func testMediaFolderFilesReimportToTheSameBytes() throws {
        let folder = try TemporaryDirectory()
        try roundTrip(.csv, as: .csv) {
            $0.binaries = .files(folder.url.appendingPathComponent("media"))
        }
        let names = try FileManager.default.contentsOfDirectory(
            atPath: folder.url.appendingPathComponent("media").path
        ).sorted()
        // Each distinct content once, named by its SHA-256 and sniffed type.
        #expect(names.contains { $0.hasSuffix(".png") })
        #expect(names.allSatisfy { $0.count == 64 + 4 || $0.count == 64 + 4 })
    }
}
