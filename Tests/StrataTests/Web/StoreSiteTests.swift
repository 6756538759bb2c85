import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema
@testable import StrataStore
@testable import StrataWeb

struct StoreSiteTests {
    @Test func theModelPageListsEntitiesWithCountsAndTheDiagram() throws {
        let fixture = try WebFixture(entries: 12)
        let page = try fixture.site().respond(webRequest("/"))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<a href=\"/entity/Entry\">Entry</a>"))
        #expect(page.text.contains("<a href=\"/entity/PinnedEntry\">PinnedEntry</a>"))
        #expect(page.text.contains("<td>11</td>"))  // Entry's own rows; PinnedEntry has 1.
        #expect(page.text.contains("ok (SQLite"))
    }

    @Test func aValueThatLooksLikeMarkupShowsAsText() throws {
        let fixture = try WebFixture(entries: 3)
        let site = try fixture.site()
        for path in ["/entity/Entry", "/object/Entry/1"] {
            let page = site.respond(webRequest(path))
            #expect(page.status == 200)
            #expect(!page.text.contains("<script>alert(1)</script>"), "\(path)")
            #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
        }
    }

    @Test func theEntityPageWalksEveryObjectByKeysetBothWays() throws {
        let fixture = try WebFixture(entries: 120)
        let site = try fixture.site()
        let seen = Self.walk(site, "/entity/Entry")
        // Subentities included (every tenth is a PinnedEntry), in key order.
        #expect(seen.count == 120)
        #expect(Set(seen).count == 120)
        #expect(seen.contains("/object/PinnedEntry/10"))
        // The last page (the last 50), then back by "Previous" to the first.
        let last = site.respond(webRequest("/entity/Entry", ["last": "1"]))
        #expect(Self.objectLinks(last.text) == Array(seen.suffix(50)))
        #expect(!last.text.contains(">Next →</a>"))
        let previous = try #require(Self.link(last.text, "← Previous"))
        let before = site.respond(webRequest("/entity/Entry", Self.query(of: previous)))
        #expect(Self.objectLinks(before.text) == Array(seen.dropLast(50).suffix(50)))
        let first = try #require(Self.link(before.text, "← Previous"))
        let start = site.respond(webRequest("/entity/Entry", Self.query(of: first)))
        #expect(Self.objectLinks(start.text) == Array(seen.prefix(20)))
        #expect(!start.text.contains(">← Previous</a>"))
    }

    @Test func sortingByAnAttributeDescendingPutsNilLast() throws {
        let fixture = try WebFixture(entries: 30)
        let site = try fixture.site()
        let scores = Self.walk(site, "/entity/Entry", ["sort": "score", "order": "desc"])
        #expect(scores.count == 30)
        // Descending: highest first, NULL last, ties by descending key.
        let context = try Context(
            store: try Store.open(at: fixture.url, mode: .readOnly), model: fixture.model)
        let expected = try context.fetch(FetchRequest(entity: "Entry")).map {
            (try $0.value(forKey: "score"), $0.objectID)
        }.sorted { lhs, rhs in
            let order = AttributeValue.compare(lhs.0, rhs.0)
            return order != 0 ? order > 0 : lhs.1.key > rhs.1.key
        }.map { "/object/\($0.1.entityName)/\($0.1.key)" }
        #expect(scores == expected)
    }

    @Test func aPredicateFiltersAndASyntaxErrorIsShownWithItsCaret() throws {
        let fixture = try WebFixture(entries: 30)
        let site = try fixture.site()
        let filtered = site.respond(webRequest("/entity/Entry", ["where": "title ENDSWITH '7'"]))
        #expect(
            Self.objectLinks(filtered.text)
                == ["/object/Entry/7", "/object/Entry/17", "/object/Entry/27"].map { $0 })
        #expect(filtered.text.contains("3 objects matching"))
        let broken = site.respond(webRequest("/entity/Entry", ["where": "title == "]))
        #expect(broken.status == 200)
        #expect(broken.text.contains("<pre class=\"error\">  title == \n           ^\nexpected"))
        let unknown = site.respond(webRequest("/entity/Entry", ["where": "colour == 'red'"]))
        #expect(unknown.text.contains("<pre class=\"error\">  colour == &#39;red&#39;\n  ^\n"))
    }

    @Test func theObjectPageRendersValuesByTypeAndLinksRelationships() throws {
        let fixture = try WebFixture(entries: 3)
        let page = try fixture.site().respond(webRequest("/object/Entry/1"))
        #expect(page.status == 200)
        let text = page.text
        // The date in ISO 8601 (seconds since 2001: 800,003,600).
        #expect(text.contains("2026-05-09T"))
        // The transformable decoded from its keyed archive.
        #expect(text.contains("&quot;mood&quot; : &quot;calm&quot;"))
        // The photo inline, served by the view, with its size and digest.
        #expect(text.contains("<img class=\"media\" src=\"/media/Entry/1/photo\""))
        #expect(text.contains("SHA-256 "))
        // A javascript: URI is text, not a link.
        #expect(!text.contains("href=\"javascript:"))
        // Relationships as links, with their inverse.
        #expect(text.contains("to-many → Tag, inverse entries"))
        #expect(text.contains("<a href=\"/object/Tag/1\">Tag 1: paris</a>"))
        // Attributes without a value share one row; the label comes first.
        let third = try fixture.site().respond(webRequest("/object/Entry/3")).text
        #expect(
            third.contains(
                "<th class=\"muted\">no value</th><td class=\"muted\">link, payload, photo, score</td>"
            ))
        #expect(third.contains("<table class=\"attributes\">\n<tr><th>title<br>"))
        // A linked object's picture shows beside its link; bytes that are
        // not a picture (Entry 2's SVG) do not.
        let tag = try fixture.site().respond(webRequest("/object/Tag/1")).text
        #expect(tag.contains("<img class=\"thumb\" src=\"/media/Entry/1/photo\""))
        let other = try fixture.site().respond(webRequest("/object/Tag/2")).text
        #expect(!other.contains("/media/Entry/2/photo"))
    }

    @Test func aToManyIsPagedOnTheObjectPage() throws {
        let fixture = try WebFixture(entries: 120)
        let site = try fixture.site()
        let first = site.respond(webRequest("/object/Tag/1"))
        #expect(first.text.contains("60 objects"))
        #expect(first.text.contains("Page 1 of 2"))
        let second = site.respond(webRequest("/object/Tag/1", ["rel": "entries", "page": "2"]))
        #expect(second.text.contains("Page 2 of 2"))
        #expect(Self.objectLinks(second.text).filter { $0.contains("Entry") }.count == 10)
    }

    @Test func mediaIsServedByItsSniffedTypeWithRanges() throws {
        let fixture = try WebFixture(entries: 3)
        let site = try fixture.site()
        let photo = site.respond(webRequest("/media/Entry/1/photo"))
        #expect(photo.status == 200)
        #expect(photo.header("Content-Type") == "image/png")
        #expect(photo.body == WebFixture.png)
        var ranged = webRequest("/media/Entry/1/photo")
        ranged.headers["range"] = "bytes=0-7"
        let part = site.respond(ranged)
        #expect(part.status == 206)
        #expect(part.header("Content-Range") == "bytes 0-7/\(WebFixture.png.count)")
        #expect(part.body == WebFixture.png.prefix(8))
        ranged.headers["range"] = "bytes=9999-"
        #expect(site.respond(ranged).status == 416)
        // SVG from the store is never served as SVG.
        let svg = site.respond(webRequest("/media/Entry/2/photo"))
        #expect(svg.header("Content-Type") == "application/octet-stream")
        #expect(svg.header("Content-Disposition")?.hasPrefix("attachment") == true)
    }

    @Test func pathsThatAreNotPagesAreNotFound() throws {
        let fixture = try WebFixture(entries: 3)
        let site = try fixture.site()
        for path in [
            "/media/../../etc/passwd", "/../../etc/passwd", "/entity/../etc", "/object/Entry/0",
            "/object/Entry/-1", "/object/Entry/1x", "/object/Nope/1", "/object/Entry/99",
            "/media/Entry/1/title", "/media/Entry/1/..%2F..%2Fetc%2Fpasswd", "/entity/Nope",
            "/style.css/x", "/migration",
        ] {
            #expect(site.respond(webRequest(path)).status == 404, "\(path)")
        }
    }

    @Test func aPageAnchoredOnAnotherEntityOrNothingIsNotFound() throws {
        let fixture = try WebFixture(entries: 3)
        let site = try fixture.site()
        for anchor in ["Tag/p1", "Nope/p1", "Entry/p99"] {
            #expect(
                site.respond(webRequest("/entity/Entry", ["after": anchor])).status == 404,
                "\(anchor)")
        }
    }

    @Test func aTokenIsAskedOfEveryRequestAndSetAsACookie() throws {
        let fixture = try WebFixture(entries: 3)
        let site = try fixture.site { $0.token = "s3cret" }
        #expect(site.respond(webRequest("/")).status == 401)
        #expect(site.respond(webRequest("/", ["token": "s3cre"])).status == 401)
        let opened = site.respond(webRequest("/", ["token": "s3cret"]))
        #expect(opened.status == 200)
        #expect(
            opened.header("Set-Cookie") == "strata_token=s3cret; Path=/; HttpOnly; SameSite=Strict")
        var withCookie = webRequest("/entity/Entry")
        withCookie.cookies["strata_token"] = "s3cret"
        #expect(site.respond(withCookie).status == 200)
        var withHeader = webRequest("/entity/Entry")
        withHeader.headers["authorization"] = "Bearer s3cret"
        #expect(site.respond(withHeader).status == 200)
    }

    @Test func theMigrationPreviewShowsStagesFindingsAndTheDiagram() throws {
        let folder = try TemporaryDirectory()
        let schemas = ContextFixture.schemas.appendingPathComponent("Diary")
        let chain = try SchemaChain.load(directory: schemas)
        let url = folder.file("Old.sqlite")
        let store = try Store.create(at: url, model: try #require(chain.model(version: 1)))
        let context = try Context(store: store, model: try #require(chain.model(version: 1)))
        try context.insert("DiaryEntry").set("text", "Paris\nArrived at dawn. #travel")
        try context.save()
        try store.close()
        var options = StoreSite.Options()
        options.schemas = schemas
        let site = try StoreSite(storeAt: url, options: options)
        let page = site.respond(webRequest("/migration"))
        #expect(page.status == 200)
        let text = page.text
        #expect(text.contains("The store is at version 1; the newest version of Diary is 4."))
        #expect(text.contains("<h2>Stage 1-2"))
        #expect(text.contains("<td>DiaryEntry.title</td><td>add-attribute</td>"))
        #expect(text.contains("<h2>Preflight</h2>"))
        #expect(text.contains("<h2>With --as-core-data</h2>"))
        #expect(text.contains("<div class=\"diagram\"><svg"))
        // The model page links to it.
        #expect(site.respond(webRequest("/")).text.contains("<a href=\"/migration\">"))
    }

    // MARK: - Reading pages

    /// The object links of every page from `path`, following "Next →".
    static func walk(_ site: StoreSite, _ path: String, _ first: [String: String] = [:])
        -> [String]
    {
        var seen: [String] = []
        var query = first
        for _ in 0..<100 {
            let page = site.respond(webRequest(path, query))
            #expect(page.status == 200)
            seen += objectLinks(page.text)
            guard let next = link(page.text, "Next →") else { break }
            query = self.query(of: next)
        }
        return seen
    }

    /// The object links of a page, in order, without repeats next to each other.
    static func objectLinks(_ html: String) -> [String] {
        html.matches(of: /<td><a href="(\/object\/[A-Za-z]+\/[0-9]+)">/).map { String($0.1) }
            + html.matches(of: /<li><a href="(\/object\/[A-Za-z]+\/[0-9]+)">/).map { String($0.1) }
    }

    /// The href of the link reading `text`.
    static func link(_ html: String, _ text: String) -> String? {
        for match in html.matches(of: /<a href="([^"]*)">([^<]*)<\/a>/) where match.2 == text {
            return String(match.1).replacingOccurrences(of: "&amp;", with: "&")
        }
        return nil
    }

    /// The query arguments of a link, decoded.
    static func query(of link: String) -> [String: String] {
        var query: [String: String] = [:]
        guard let mark = link.firstIndex(of: "?") else { return query }
        for pair in link[link.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            query[parts[0]] = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
        }
        return query
    }
}
