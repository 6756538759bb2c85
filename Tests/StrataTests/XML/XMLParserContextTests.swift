import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// The security guards of every parse.
struct XMLParserContextTests {
    private static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <lolz a="&lol9;">&lol9;</lolz>
        """

    @Test func testBillionLaughsIsRefusedAtTheFirstEntityDeclaration() throws {
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(string: Self.billionLaughs, source: "lol.xml")
        }
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("DTD declaration <!ENTITY lol> is not allowed"))
        // Nothing of the expansion leaks into the message.
        #expect(!error.description.contains("lollol"))
    }

    @Test func testExternalEntityIsNeverRead() throws {
        try withSecretFile { url, secret in
            let documents = [
                // General entity in content and in an attribute.
                "<!DOCTYPE a [<!ENTITY x SYSTEM \"\(url.absoluteString)\">]><a>&x;</a>",
                "<!DOCTYPE a [<!ENTITY x SYSTEM \"\(url.path)\">]><a b=\"&x;\"/>",
                // Parameter entity, expanded inside the internal subset.
                "<!DOCTYPE a [<!ENTITY % x SYSTEM \"\(url.absoluteString)\"> %x;]><a/>",
                // Unparsed entity.
                "<!DOCTYPE a [<!NOTATION n SYSTEM \"n\">"
                    + "<!ENTITY x SYSTEM \"\(url.path)\" NDATA n>]><a/>",
                // The secret file named as the external DTD.
                "<!DOCTYPE a SYSTEM \"\(url.absoluteString)\"><a>&x;</a>",
            ]
            for xml in documents {
                do {
                    let document = try XMLDocument(string: xml, source: "xxe.xml")
                    #expect(!String(describing: document).contains(secret), "\(xml)")
                } catch {
                    #expect(!String(describing: error).contains(secret), "\(xml)")
                }
            }
        }
    }

    @Test func testExternalDTDIsNotLoadedSoItsEntitiesStayUndefined() throws {
        try withSecretFile { url, secret in
            let dtd = url.deletingLastPathComponent().appending(path: "secret.dtd")
            try Data("<!ENTITY x SYSTEM \"\(url.absoluteString)\">".utf8).write(to: dtd)
            defer { try? FileManager.default.removeItem(at: dtd) }
            let xml = "<!DOCTYPE a SYSTEM \"\(dtd.absoluteString)\">\n<a>&x;</a>"
            let error = try #require(throws: XMLError.self) {
                try XMLDocument(string: xml, source: "dtd.xml")
            }
            #expect(error.description == "dtd.xml:2:7: Entity 'x' not defined")
            #expect(!error.description.contains(secret))
        }
    }

    @Test func testAttributeListDeclarationIsRefused() throws {
        let xml = "<!DOCTYPE a [\n<!ATTLIST a injected CDATA \"yes\">\n]><a/>"
        let error = try #require(throws: XMLError.self) {
            try XMLDocument(string: xml, source: "attlist.xml")
        }
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("DTD declaration <!ATTLIST a> is not allowed"))
    }

    @Test func testElementDeclarationsInAnInternalSubsetAreHarmless() throws {
        let xml = "<!DOCTYPE a [<!ELEMENT a (#PCDATA)>]><a>x</a>"
        #expect(try XMLDocument(string: xml, source: "element.xml").root.text == "x")
    }

    /// NONET: the DTD URL is never fetched (port 9 is discard; an address
    /// from TEST-NET-1 would hang on connect if anything were fetched).
    @Test func testExternalDTDURLCausesNoNetworkAccess() throws {
        for url in ["http://192.0.2.1/a.dtd", "http://127.0.0.1:9/a.dtd", "ftp://192.0.2.1/a.dtd"] {
            let xml = "<!DOCTYPE a PUBLIC \"-//X//DTD X//EN\" \"\(url)\"><a>ok</a>"
            #expect(try XMLDocument(string: xml, source: "net.xml").root.text == "ok")
        }
    }

    @Test func testLibXML2PrintsNothingToStandardError() throws {
        let output = try capturingStandardError {
            for xml in ["<a>", "<a><b></a>", "x", Self.billionLaughs, "<a>&x;</a>", "<p:a/>"] {
                _ = try? XMLDocument(string: xml, source: "quiet.xml")
            }
        }
        // Other tests may write to stderr meanwhile; libxml2's own lines
        // read "quiet.xml:1: parser error : ...".
        #expect(!output.contains("quiet.xml"))
        #expect(!output.contains("parser error"))
    }

    // MARK: - Helpers

    private func withSecretFile(_ body: (URL, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "strata-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "SECRET-\(UUID().uuidString)"
        let url = directory.appending(path: "secret.txt")
        try Data(secret.utf8).write(to: url)
        try body(url, secret)
    }

    /// Runs `body` with file descriptor 2 sent to a temporary file, then puts
    /// it back and writes what was captured to the real stderr again.
    private func capturingStandardError(_ body: () throws -> Void) throws -> String {
        let url = FileManager.default.temporaryDirectory
            .appending(path: "strata-stderr-\(UUID().uuidString)")
        let capture = open(url.path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(capture >= 0)
        defer { close(capture); unlink(url.path) }
        fflush(nil)
        let saved = dup(2)
        try #require(saved >= 0)
        dup2(capture, 2)
        defer { close(saved) }
        do {
            try body()
        } catch {
            fflush(nil)
            dup2(saved, 2)
            throw error
        }
        fflush(nil)
        dup2(saved, 2)
        let data = try Data(contentsOf: url)
        FileHandle.standardError.write(data)
        return String(decoding: data, as: UTF8.self)
    }
}
