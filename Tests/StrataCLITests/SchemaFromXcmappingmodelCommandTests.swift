import Foundation
import Testing

/// Issue 26 from the command line: the sample app's Xcode model and its
/// mapping models (`Samples/MediaHistory`, SRGUserData's shape) converted
/// with `schema from-xcdatamodel --mapping-models` and `schema
/// from-xcmappingmodel`, then a version 1 store migrated through both.
struct SchemaFromXcmappingmodelCommandTests {
    static let sample = "Samples/MediaHistory"
    static let model = "\(sample)/MediaHistory.xcdatamodeld"

    @Test func testModelAndMappingModelsConvertAndAStoreMigrates() throws {
        let folder = try ScratchFolder()
        let output = folder.path("MediaHistory")
        let converted = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.model, "--mapping-models", Self.sample, "-o",
            output, "--report",
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(
            converted.stdout.contains(
                "Wrote \(output)/1-2.mapping.json: from \(Self.sample)/MediaHistory_v1_v2.cdm, "
                    + "versions 1 → 2\n"), "\(converted.stdout)")
        #expect(
            converted.stdout.contains(
                "Wrote \(output)/2-3.mapping.json: from "
                    + "\(Self.sample)/MediaHistory_v2_v3.xcmappingmodel, versions 2 → 3\n"))
        #expect(
            converted.stdout.contains(
                "  HistoryEntryToSRGHistoryEntry: HistoryEntry → SRGHistoryEntry, creates objects\n"
                    + "    copied    date, dirty, lastPlaybackPosition\n"
                    + "    renamed   deviceUid ← deviceName\n"
                    + "    renamed   uid ← mediaURN\n"), "\(converted.stdout)")

        let store = folder.path("History.sqlite")
        #expect(
            try StrataRunner.run(["create", store, "--schemas", output, "--version", "1"]).status
                == 0)
        let csv = folder.path("history.csv")
        try Data("mediaURN,deviceName\nurn:rts:video:1,iPhone\nurn:rts:audio:2,iPad\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        let imported = try StrataRunner.run([
            "import", store, csv, "--schemas", output, "--entity", "HistoryEntry",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let migrated = try StrataRunner.run(["migrate", store, "--schemas", output])
        #expect(migrated.status == 0, "\(migrated.stderr)\(migrated.stdout)")
        let query = try StrataRunner.run([
            "query", store, "SRGHistoryEntry", "--schemas", output, "--fields", "uid,deviceUid",
            "--format", "csv",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("urn:rts:video:1,iPhone"), "\(query.stdout)")
        #expect(query.stdout.contains("urn:rts:audio:2,iPad"), "\(query.stdout)")
    }

    @Test func testAPolicyIsNamedAtConversionAndMigrateRefusesIt() throws {
        let folder = try ScratchFolder()
        let output = folder.path("MediaHistory")
        let converted = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.model, "-o", output,
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        // The package with a custom policy on HistoryEntryToSRGHistoryEntry.
        let package = folder.path("Policy.xcmappingmodel")
        try FileManager.default.createDirectory(
            atPath: package, withIntermediateDirectories: true)
        let xml = try String(
            contentsOf: StrataRunner.packageRoot.appendingPathComponent(
                "\(Self.sample)/MediaHistory_v2_v3.xcmappingmodel/xcmapping.xml"),
            encoding: .utf8
        ).replacingOccurrences(
            of: #"<attribute name="sourcename" type="string">HistoryEntry</attribute>"#,
            with: #"<attribute name="sourcename" type="string">HistoryEntry</attribute>"#
                + #"<attribute name="migrationpolicyclassname" type="string">"#
                + #"MediaHistory.HistoryPolicy</attribute>"#)
        try Data(xml.utf8).write(to: URL(fileURLWithPath: package + "/xcmapping.xml"))
        let one = try StrataRunner.run([
            "schema", "from-xcmappingmodel", package, "--schemas", output,
        ])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(
            one.stdout.hasPrefix(
                "Wrote \(output)/2-3.mapping.json: from \(package), versions 2 → 3; entity mapping "
                    + "HistoryEntryToSRGHistoryEntry names the custom policy "
                    + "MediaHistory.HistoryPolicy"), "\(one.stdout)")

        let store = folder.path("History.sqlite")
        #expect(
            try StrataRunner.run(["create", store, "--schemas", output, "--version", "2"]).status
                == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let migrated = try StrataRunner.run(["migrate", store, "--schemas", output])
        #expect(migrated.status != 0)
        #expect(
            migrated.stderr.contains(
                "2-3.mapping.json: entity mapping HistoryEntryToSRGHistoryEntry (the rule for "
                    + "SRGHistoryEntry) names the custom migration policy "
                    + "MediaHistory.HistoryPolicy, app code Strata cannot run"),
            "\(migrated.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func testAMappingModelThatFitsNoVersionPairWritesNothing() throws {
        let folder = try ScratchFolder()
        let output = folder.path("Sample")
        // MediaHistory's mapping model against another app's chain.
        #expect(
            try StrataRunner.run([
                "schema", "from-xcdatamodel",
                "Tests/StrataTests/Fixtures/coredata/bnr-sample/Sample.xcdatamodeld", "-o", output,
            ]).status == 0)
        let target = folder.path("out.mapping.json")
        let one = try StrataRunner.run([
            "schema", "from-xcmappingmodel", "\(Self.sample)/MediaHistory_v1_v2.cdm", "--schemas",
            output, "-o", target,
        ])
        #expect(one.status != 0)
        #expect(
            one.stderr.contains(
                "\(Self.sample)/MediaHistory_v1_v2.cdm: its entity version hashes match no version "
                    + "pair of the chain; source: nearest version "), "\(one.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test func testTwoMappingModelsForOnePairWriteNothing() throws {
        let folder = try ScratchFolder()
        let models = folder.path("models")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        for name in ["MediaHistory_v1_v2.cdm", "Copy_v1_v2.cdm"] {
            try FileManager.default.copyItem(
                at: StrataRunner.packageRoot.appendingPathComponent(
                    "\(Self.sample)/MediaHistory_v1_v2.cdm"),
                to: URL(fileURLWithPath: "\(models)/\(name)"))
        }
        let output = folder.path("MediaHistory")
        let converted = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.model, "--mapping-models", models, "-o", output,
        ])
        #expect(converted.status != 0)
        #expect(
            converted.stderr.contains(
                "\(models)/MediaHistory_v1_v2.cdm: it joins versions 1 and 2, as "
                    + "\(models)/Copy_v1_v2.cdm does; keep one of them"), "\(converted.stderr)")
        #expect(converted.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
