import Foundation
import Testing

/// `strata schema from-xcdatamodel`, on the real Xcode models of the fixtures.
struct SchemaFromXcdatamodelCommandTests {
    static let fixtures = "Tests/StrataTests/Fixtures/coredata"
    static let bookmarks = "\(fixtures)/ddg-bookmarks/BookmarksModel.xcdatamodeld"

    /// Copies a fixture store with its -wal and -shm files into `folder`.
    static func copyStore(_ relativePath: String, into folder: ScratchFolder) throws -> String {
        let source = StrataRunner.packageRoot.appendingPathComponent("\(fixtures)/\(relativePath)")
        let destination = folder.path(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"]
        where FileManager.default.fileExists(
            atPath: source.path + suffix)
        {
            try FileManager.default.copyItem(
                atPath: source.path + suffix, toPath: destination + suffix)
        }
        return destination
    }

    @Test func testBookmarksConvertCheckAndIdentifyEveryStore() throws {
        let folder = try ScratchFolder()
        let output = folder.path("BookmarksModel")
        let converted = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.bookmarks, "-o", output,
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr == "")
        let lines = converted.stdout.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines.first?.hasPrefix("\(Self.bookmarks): version order: ") == true)
        #expect(
            lines.dropFirst().first
                == "Wrote \(output)/1.json: BookmarksModel version 1 from BookmarksModel.xcdatamodel, 1 entity"
        )

        let check = try StrataRunner.run(["schema", "check", output])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout
                == "BookmarksModel: 6 version(s) (1–6), 1 entity in the newest, no problems\n")

        for version in 1...5 {
            let store = try Self.copyStore(
                "ddg-bookmarks/Bookmarks_V\(version).sqlite", into: folder)
            let info = try StrataRunner.run(["info", store, "--schemas", output])
            #expect(info.status == 0, "\(info.stderr)")
            #expect(
                info.stdout.contains("\nModel      BookmarksModel, version \(version)\n"),
                "\(info.stdout)")
        }
    }

    @Test func testSampleConvertsAndIdentifiesItsStore() throws {
        let folder = try ScratchFolder()
        let output = folder.path("Sample")
        let converted = try StrataRunner.run([
            "schema", "from-xcdatamodel", "\(Self.fixtures)/bnr-sample/Sample.xcdatamodeld",
            "--output", output,
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.split(separator: "\n").count == 3)
        #expect(try StrataRunner.run(["schema", "check", output]).status == 0)
        let store = try Self.copyStore("bnr-sample/TestModel.sqlite", into: folder)
        let info = try StrataRunner.run(["info", store, "--schemas", output])
        #expect(info.stdout.contains("\nModel      Sample, version 1\n"), "\(info.stdout)")
    }

    @Test func testExistingFilesAreKeptUnlessForced() throws {
        let folder = try ScratchFolder()
        let output = folder.path("out")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output + "/2.json"))
        let refused = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.bookmarks, "-o", output,
        ])
        #expect(refused.status == 1)
        #expect(refused.stdout == "")
        #expect(refused.stderr == "error: \(output) already has 2.json; use --force to replace\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["2.json"])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: output + "/2.json")) == Data("keep me".utf8))

        let forced = try StrataRunner.run([
            "schema", "from-xcdatamodel", Self.bookmarks, "-o", output, "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).count == 6)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out"])
    }

    @Test func testBrokenModelWritesNothingAndNamesTheLine() throws {
        let folder = try ScratchFolder()
        let version = folder.url.appendingPathComponent("Broken.xcdatamodeld/Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="A"><attribute name="x" attributeType="Strng"/></entity>
            </model>
            """
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let output = folder.path("out")
        let outcome = try StrataRunner.run([
            "schema", "from-xcdatamodel", folder.path("Broken.xcdatamodeld"), "-o", output,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        #expect(
            outcome.stderr.contains(
                "Broken.xcdatamodel/contents:3: <attribute name=\"x\">: unknown attributeType \"Strng\""
            ),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Issue 15: problems the schema check finds in a converted version
    /// cited `out/1.json`, a file that did not exist; they cite the model's
    /// `contents` file, the line and the element.
    @Test func testSchemaProblemsCiteTheXcodeModelNotTheOutput() throws {
        let folder = try ScratchFolder()
        let version = folder.url.appendingPathComponent("Shop.xcdatamodeld/Shop.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Item">
                    <attribute name="count" attributeType="Integer 32" minValueString="10" maxValueString="1"/>
                </entity>
                <entity name="ITEM"/>
            </model>
            """
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let output = folder.path("out")
        let outcome = try StrataRunner.run([
            "schema", "from-xcdatamodel", folder.path("Shop.xcdatamodeld"), "-o", output,
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                error: 2 problem(s) in \(folder.path("Shop.xcdatamodeld")):
                Shop.xcdatamodel/contents:3: <entity name="Item">: the table of entity Item would \
                be named ZITEM, the name of the table of entity ITEM; SQLite table and index names \
                ignore case and share one namespace, so rename one of them
                Shop.xcdatamodel/contents:4: <attribute name="count">: minValue 10 is above maxValue 1

                """, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("out/"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Issue 13: Xcode accepted `defaultValueString="NO"` on an Integer 64
    /// (and the app shipped); it converts to 0 with one located warning.
    @Test func testBooleanDefaultOnAnIntegerConvertsWithOneLocatedWarning() throws {
        let folder = try ScratchFolder()
        let version = folder.url.appendingPathComponent("Chat.xcdatamodeld/Chat.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Conversation">
                    <attribute name="isArchived" attributeType="Integer 64" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        let output = folder.path("out")
        let outcome = try StrataRunner.run([
            "schema", "from-xcdatamodel", folder.path("Chat.xcdatamodeld"), "-o", output,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            outcome.stderr == """
                warning: \(folder.path("Chat.xcdatamodeld")): Chat.xcdatamodel/contents:4: \
                <attribute name="isArchived">: defaultValueString "NO" on integer64 read as 0, \
                as Core Data does

                """, "\(outcome.stderr)")
        let schema = try String(contentsOfFile: output + "/1.json", encoding: .utf8)
        #expect(schema.contains(#""default": 0"#), "\(schema)")
    }

    @Test func testMissingOutputIsBadUsage() throws {
        let outcome = try StrataRunner.run(["schema", "from-xcdatamodel", Self.bookmarks])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: missing '-o <dir>'\n"))
    }
}

/// Issue 16: the version order of a model named as the Xcode Server
/// client's, printed, and `--order` overriding it.
struct SchemaFromXcdatamodelOrderCommandTests {
    static let folders = [
        "XCServerCoreData", "XCServerCoreData1.1.0", "XCServerCoreData1.2.0",
        "XCServerCoreData2.0.0", "XCServerCoreData2.0.1", "XCServerCoreData2.0.2",
        "XCServerCoreData2.0.3",
    ]

    /// Version `n` (0 for the base) has a `Bot` with attributes a0 … a<n+2>.
    static func bundle(in scratch: ScratchFolder) throws -> String {
        let bundle = scratch.path("XCServerCoreData.xcdatamodeld")
        for (index, name) in folders.enumerated() {
            let version = "\(bundle)/\(name).xcdatamodel"
            try FileManager.default.createDirectory(
                atPath: version, withIntermediateDirectories: true)
            let attributes = (0...(index + 2)).map {
                #"<attribute name="a\#($0)" optional="YES" attributeType="String"/>"#
            }.joined()
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel"><entity name="Bot">\(attributes)</entity></model>
                """
            try Data(contents.utf8).write(to: URL(fileURLWithPath: "\(version)/contents"))
        }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>XCServerCoreData2.0.3.xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: "\(bundle)/.xccurrentversion"))
        return bundle
    }

    @Test func testTheRealOrderIsChosenAndSaidAndOrderOverridesIt() throws {
        let scratch = try ScratchFolder()
        let bundle = try Self.bundle(in: scratch)
        let output = scratch.path("out")
        let converted = try StrataRunner.run(["schema", "from-xcdatamodel", bundle, "-o", output])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr == "")
        let lines = converted.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix(
                "\(bundle): version order: XCServerCoreData.xcdatamodel, "
                    + "XCServerCoreData1.1.0.xcdatamodel (1.1.0), ") == true)
        #expect(lines.first?.contains("a folder without one is the base and comes first") == true)
        #expect(
            lines.dropFirst().first
                == "Wrote \(output)/1.json: XCServerCoreData version 1 from XCServerCoreData.xcdatamodel, 1 entity"
        )
        #expect(
            lines.last?.hasSuffix("version 7 from XCServerCoreData2.0.3.xcdatamodel, 1 entity")
                == true)

        var misordered = Array(Self.folders.dropFirst())
        misordered.insert(Self.folders[0], at: 3)
        let overridden = try StrataRunner.run([
            "schema", "from-xcdatamodel", bundle, "-o", output, "--force",
            "--order", misordered.joined(separator: ","),
        ])
        #expect(overridden.status == 0, "\(overridden.stderr)")
        #expect(overridden.stdout.contains("as given by --order"))
        #expect(overridden.stdout.contains("version 4 from XCServerCoreData.xcdatamodel"))
        #expect(
            overridden.stderr.contains(
                "warning: \(bundle): XCServerCoreData.xcdatamodel: version 4 lacks 3 properties"),
            "\(overridden.stderr)")

        let unknown = try StrataRunner.run([
            "schema", "from-xcdatamodel", bundle, "-o", scratch.path("other"), "--order", "Nope",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("--order: no version folder Nope.xcdatamodel"))
    }
}
