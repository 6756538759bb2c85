import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// Issue 16, point 1: versions ordered by the whole version ending their
/// folder names, the base first and the current version last.
struct XcodeModelVersionOrderTests {
    /// The version folders of the Xcode Server client's model, in their
    /// real order (the unnumbered one is 1.0.0, the base).
    static let xcodeServerFolders = [
        "XCServerCoreData", "XCServerCoreData1.1.0", "XCServerCoreData1.2.0",
        "XCServerCoreData2.0.0", "XCServerCoreData2.0.1", "XCServerCoreData2.0.2",
        "XCServerCoreData2.0.3",
    ].map { "\($0).xcdatamodel" }

    /// An `XCServerCoreData.xcdatamodeld` whose version `n` (0 for the base)
    /// has a `Bot` with the attributes `a0` … `a<n+2>`: each version adds
    /// one, so only the real order is a plain history.
    static func xcodeServerBundle(in folder: TemporaryDirectory) throws -> URL {
        let bundle = folder.file("XCServerCoreData.xcdatamodeld")
        for (index, name) in xcodeServerFolders.enumerated() {
            let version = bundle.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let attributes = (0...(index + 2)).map {
                #"<attribute name="a\#($0)" optional="YES" attributeType="String"/>"#
            }.joined()
            let contents = XcodeModelVersionReaderTests.contents(
                #"<entity name="Bot">\#(attributes)</entity>"#)
            try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        }
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>XCServerCoreData2.0.3.xcdatamodel</string></dict></plist>
            """
        try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return bundle
    }

    @Test func testXcodeServerModelConvertsInItsRealOrderAndSaysSo() throws {
        let folder = try TemporaryDirectory()
        let bundle = try XcodeModelReader().read(at: try Self.xcodeServerBundle(in: folder))
        #expect(bundle.versionFolders == Self.xcodeServerFolders)
        #expect(bundle.versions.map { $0.entities[0].attributes.count } == Array(3...9))
        #expect(bundle.warnings.isEmpty, "\(bundle.warnings)")
        #expect(
            bundle.orderExplanation.hasPrefix(
                "version order: XCServerCoreData.xcdatamodel, "
                    + "XCServerCoreData1.1.0.xcdatamodel (1.1.0), "))
        #expect(
            bundle.orderExplanation.contains("a folder without one is the base and comes first"))
    }

    @Test func testAGivenOrderOverridesAndAnAbsurdOneIsWarnedAbout() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.xcodeServerBundle(in: folder)
        // The old rule's order: the base (as "1") between 2.0.0 and 2.0.1.
        var misordered = Array(Self.xcodeServerFolders.dropFirst())
        misordered.insert(Self.xcodeServerFolders[0], at: 3)
        let bundle = try XcodeModelReader(order: misordered).read(at: url)
        #expect(bundle.versionFolders == misordered)
        #expect(bundle.orderExplanation.contains("as given by --order"))
        #expect(
            bundle.warnings.map(\.description) == [
                "XCServerCoreData.xcdatamodel: version 4 lacks 3 properties that versions 3 and 5 "
                    + "both have (Bot.a3, Bot.a4, Bot.a5); is the version order right? Use --order "
                    + "to give it"
            ])
    }

    @Test func testAGivenOrderNamesUnknownAndRepeatedFolders() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.xcodeServerBundle(in: folder)
        let error = try #require(throws: XcodeModelError.self) {
            try XcodeModelReader(order: ["XCServerCoreData", "Nope", "XCServerCoreData"]).read(
                at: url)
        }
        #expect(error.issues.map(\.file) == ["--order", "--order"])
        #expect(error.issues[0].message.hasPrefix("no version folder Nope.xcdatamodel"))
        #expect(error.issues[1].message == "XCServerCoreData.xcdatamodel is listed twice")
    }

    @Test func testWholeVersionsCompareAsNumbers() throws {
        let order = try XcodeModelVersionOrder(
            folders: ["M 1.10.0", "M 1.9.2", "M", "M 2"].map { "\($0).xcdatamodel" },
            bundleName: "M", current: nil)
        #expect(order.folders == ["M", "M 1.9.2", "M 1.10.0", "M 2"].map { "\($0).xcdatamodel" })
        for (name, version) in [
            ("Model 2", [2]), ("Model_v7", [7]), ("V3", [3]), ("Model", nil),
            ("XCServerCoreData1.2.0", [1, 2, 0]),
        ] as [(String, [Int]?)] {
            let expected: XcodeModelVersionOrder.Version = version.map { .number($0) } ?? .none
            #expect(
                XcodeModelVersionOrder.version(of: name + ".xcdatamodel", bundleName: "Model")
                    == expected, "\(name)")
        }
        // A bundle whose name ends in a digit: its own name is the base.
        #expect(
            XcodeModelVersionOrder.version(of: "Core2.xcdatamodel", bundleName: "Core2") == .none)
        #expect(
            XcodeModelVersionOrder.version(of: "Core2 3.xcdatamodel", bundleName: "Core2")
                == .number([3]))
    }

    @Test func testTheCurrentUnnumberedVersionIsLast() throws {
        let order = try XcodeModelVersionOrder(
            folders: ["Model.xcdatamodel", "Model_v1.xcdatamodel", "Model_v2.xcdatamodel"],
            bundleName: "Model", current: "Model.xcdatamodel")
        #expect(
            order.folders == ["Model_v1.xcdatamodel", "Model_v2.xcdatamodel", "Model.xcdatamodel"])
        #expect(order.explanation.contains("has no number but is the current version"))
    }

    @Test func testConflictingAndUnreadableVersionsAreLocated() throws {
        let conflicting = try #require(throws: XcodeModelError.self) {
            try XcodeModelVersionOrder(
                folders: [
                    "Model 2.xcdatamodel", "Model_v2.0.xcdatamodel", "Model 1..2.xcdatamodel",
                ],
                bundleName: "Model", current: nil)
        }
        #expect(
            conflicting.issues.map(\.description) == [
                "Model 1..2.xcdatamodel: cannot read '1..2' as a version (numbers of at most 9 "
                    + "digits, at most 6 parts, separated by single dots); name the order with --order",
                "Model_v2.0.xcdatamodel: its version 2.0 equals that of Model 2.xcdatamodel; name "
                    + "the order with --order",
            ])
        let twoBases = try #require(throws: XcodeModelError.self) {
            try XcodeModelVersionOrder(
                folders: ["Alpha.xcdatamodel", "Beta.xcdatamodel"], bundleName: "Model",
                current: nil)
        }
        #expect(twoBases.issues.map(\.file) == ["Beta.xcdatamodel"])
    }
}
