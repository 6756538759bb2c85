import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct XMLDocumentTests {
    private static let bookmarks = "Fixtures/coredata/ddg-bookmarks/BookmarksModel.xcdatamodeld"

    private func fixture(_ file: String, in directory: String) throws -> URL {
        try #require(
            Bundle.module.url(forResource: file, withExtension: nil, subdirectory: directory))
    }

    // MARK: - Real files

    @Test func testCoreDataModelContentsParsesWithAttributesInOrderAndLines() throws {
        let url = try fixture("contents", in: Self.bookmarks + "/BookmarksModel 2.xcdatamodel")
        let document = try XMLDocument(contentsOf: url)
        #expect(document.source == url.path)
        let root = document.root
        #expect(root.name == "model")
        #expect(root.line == 2)
        #expect(root[attribute: "type"] == "com.apple.IDECoreDataModeler.DataModel")
        #expect(root[attribute: "userDefinedModelVersionIdentifier"] == "")
        #expect(root.attributes.first?.name == "type")

        let entity = try #require(root.child(named: "entity"))
        #expect(entity[attribute: "name"] == "BookmarkEntity")
        #expect(entity.line == 3)
        let attributes = entity.children(named: "attribute")
        #expect(
            attributes.map { $0[attribute: "name"] } == [
                "isFavorite", "isFolder", "title", "url", "uuid",
            ])
        #expect(attributes.map(\.line) == [4, 5, 6, 7, 8])
        #expect(
            attributes[3].attributes.map(\.name) == [
                "name", "optional", "attributeType", "versionHashModifier",
            ])
        #expect(entity.children(named: "relationship").count == 4)
        let indexes = entity.descendants(named: "fetchIndexElement")
        #expect(indexes.map { $0[attribute: "property"] } == ["uuid", "url"])
        #expect(indexes.map(\.line) == [14, 17])
    }

    @Test func testEveryFixtureModelParses() throws {
        let root = try #require(Bundle.module.resourceURL).appending(path: "Fixtures/coredata")
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "contents" } ?? []
        #expect(files.count >= 8)
        for file in files {
            let document = try XMLDocument(contentsOf: file)
            #expect(document.root.name == "model")
            #expect(!document.root.children(named: "entity").isEmpty)
        }
    }

    @Test func testPropertyListWithExternalDTDParsesWithoutReadingTheDTD() throws {
        let document = try XMLDocument(
            contentsOf: try fixture(".xccurrentversion", in: Self.bookmarks))
        #expect(document.root.name == "plist")
        let dict = try #require(document.root.child(named: "dict"))
        #expect(
            dict.children.map(\.text) == ["_XCCurrentVersionName", "BookmarksModel 6.xcdatamodel"])
    }

    /// The XML layer has no plist reader: Foundation's reads this file on Linux.
    @Test func testPropertyListSerializationReadsCurrentVersionFile() throws {
        let data = try Data(contentsOf: try fixture(".xccurrentversion", in: Self.bookmarks))
        let plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String
        #expect(name == "BookmarksModel 6.xcdatamodel")
    }

    // MARK: - Malformed input

    struct Malformed: Sendable, CustomTestStringConvertible {
        let xml: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { message }
    }

    @Test(arguments: [
        Malformed(xml: "", line: 1, column: 1, message: "Document is empty"),
        Malformed(xml: "\n  ", line: 2, column: 3, message: "Start tag expected, '<' not found"),
        Malformed(xml: "garbage", line: 1, column: 1, message: "Start tag expected, '<' not found"),
        Malformed(
            xml: "<a>\n<b>\n</a>", line: 3, column: 5,
            message: "Opening and ending tag mismatch: b line 2 and a"),
        Malformed(
            xml: "<a>\n  <b>", line: 2, column: 6,
            message: "Premature end of data in tag b line 2"),
        Malformed(
            xml: "<a>\n<b x=1/></a>", line: 2, column: 6, message: #"AttValue: " or ' expected"#),
        Malformed(
            xml: "<a x=\"1\" x=\"2\"/>", line: 1, column: 15, message: "Attribute x redefined"),
        Malformed(
            xml: "<a></a>\n<b/>", line: 2, column: 1,
            message: "Extra content at the end of the document"),
        Malformed(xml: "<a>\n&nbsp;</a>", line: 2, column: 7, message: "Entity 'nbsp' not defined"),
        Malformed(
            xml: "<a>\n <p:b/></a>", line: 2, column: 6,
            message: "Namespace prefix p on b is not defined"),
    ])
    func testMalformedXMLThrowsLocatedError(_ malformed: Malformed) throws {
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(string: malformed.xml, source: "bad.xml")
        }
        #expect(error.file == "bad.xml")
        #expect(error.message == malformed.message)
        #expect(error.line == malformed.line)
        #expect(error.column == malformed.column)
    }

    @Test func testInvalidUTF8IsAnErrorAtTheBadBytes() throws {
        var data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>".utf8)
        data.append(contentsOf: [0xFF, 0xFE, 0x80])
        data.append(contentsOf: Data("</a>".utf8))
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(data: data, source: "junk.xml")
        }
        #expect(error.description.hasPrefix("junk.xml:2:4: Input is not proper UTF-8"))
        #expect(!error.message.contains("\n"))
    }

    /// Issue 15, point 4: the tree is built recursively, one call per
    /// level, so libxml2's limit of 256 levels must hold for deep input.
    @Test func testHundredThousandNestedElementsAreALocatedError() throws {
        let xml =
            String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(string: xml, source: "deep.xml")
        }
        #expect(error.file == "deep.xml")
        #expect(error.line == 1)
        #expect(error.message.contains("depth"))
    }

    @Test func testBinaryJunkIsAnError() throws {
        let junk = Data((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(data: junk, source: "junk.bin")
        }
        #expect(error.line == 1)
    }

    @Test func testMissingFileNamesThePath() throws {
        let url = FileManager.default.temporaryDirectory.appending(
            path: "no-such-\(UUID())/contents")
        let error = try #require(throws: XMLError.self) { try XMLDocument(contentsOf: url) }
        #expect(error.description == "\(url.path): cannot read the file (no such file)")
    }

    @Test func testNonFileURLIsRefused() throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/model.xml"))
        let error = try #require(throws: XMLError.self) { try XMLDocument(contentsOf: url) }
        #expect(error.message == "only local files can be read")
    }
}
