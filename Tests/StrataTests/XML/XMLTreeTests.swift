import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// How libxml2's tree becomes `XMLElement` values.
struct XMLTreeTests {
    private func parse(_ xml: String) throws -> XMLElement {
        try XMLDocument(string: xml, source: "test.xml").root
    }

    @Test func testAttributesKeepDocumentOrder() throws {
        let root = try parse(#"<e z="1" a="2" m="3" b='4'/>"#)
        #expect(root.attributes.map(\.name) == ["z", "a", "m", "b"])
        #expect(root.attributes.map(\.value) == ["1", "2", "3", "4"])
    }

    @Test func testAttributeValuesResolveCharacterAndPredefinedReferences() throws {
        let root = try parse(#"<e v="a&amp;b &lt;&#x41;&#66;&quot;"/>"#)
        #expect(root[attribute: "v"] == #"a&b <AB""#)
    }

    @Test func testTextConcatenatesCharacterDataAndCDATAButNotChildText() throws {
        let root = try parse("<s>one <![CDATA[<two> & ]]><!-- no --><b>inner</b>three&amp;</s>")
        #expect(root.text == "one <two> & three&")
        #expect(root.children.map(\.text) == ["inner"])
    }

    @Test func testIndentationBetweenChildrenIsNotText() throws {
        let root = try parse("<a>\n    <b/>\n    <c> x </c>\n</a>\n")
        #expect(root.text == "")
        #expect(root.children.map(\.name) == ["b", "c"])
        #expect(root.children.last?.text == " x ")
    }

    @Test func testLinesAreOneBasedPerElement() throws {
        let root = try parse("<?xml version=\"1.0\"?>\n<a>\n  <b/>\n\n  <c><d/></c>\n</a>")
        #expect(root.line == 2)
        #expect(root.children.map(\.line) == [3, 5])
        #expect(root.descendants(named: "d").map(\.line) == [5])
    }

    @Test func testLineOfATagSpanningLinesIsWhereTheTagEnds() throws {
        let root = try parse("<a>\n<b\n  x=\"1\"\n  y=\"2\"/>\n</a>")
        #expect(root.children.first?.line == 4)
    }

    @Test func testCommentsAndProcessingInstructionsAreDropped() throws {
        let root = try parse("<!-- c --><a><?pi data?><!-- d --><b/></a><!-- e -->")
        #expect(root.children.map(\.name) == ["b"])
        #expect(root.text == "")
    }

    @Test func testNamespacedNamesAreQualifiedAndDeclarationsAreNotAttributes() throws {
        let root = try parse(#"<p:a xmlns:p="urn:x" xmlns="urn:y" p:k="v" k="w"><b/></p:a>"#)
        #expect(root.name == "p:a")
        #expect(root.attributes == [.init(name: "p:k", value: "v"), .init(name: "k", value: "w")])
        #expect(root.children.first?.name == "b")
    }

    @Test func testNonASCIITextAndLatin1DeclaredEncodingDecodeToUnicode() throws {
        #expect(try parse("<a n=\"Zoë\">日本</a>").text == "日本")
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>".utf8)
        latin1.append(0xEB)  // ë
        latin1.append(contentsOf: Data("</a>".utf8))
        #expect(try XMLDocument(data: latin1, source: "l.xml").root.text == "ë")
    }
}
