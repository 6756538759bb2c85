import Foundation
import Testing

@testable import StrataWeb

#if canImport(Glibc)
    import Glibc
#endif

/// The view served over real HTTP on an ephemeral port.
struct HTTPServerTests {
    /// A fixture served until the test ends.
    final class Served {
        let fixture: WebFixture
        let server: HTTPServer
        var client: LoopbackClient { LoopbackClient(port: server.port) }

        init(entries: Int = 5, limits: HTTPLimits = HTTPLimits()) throws {
            fixture = try WebFixture(entries: entries)
            let site = try fixture.site()
            server = try HTTPServer(host: "127.0.0.1", port: 0, limits: limits) { site.respond($0) }
        }

        deinit { server.stop() }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        let served = try Served()
        for path in ["/", "/entity/Entry", "/object/Entry/1", "/media/Entry/1/photo", "/nope"] {
            let answer = try served.client.get(path)
            #expect(
                answer.headers["content-security-policy"] == "default-src 'self'; script-src 'self'"
            )
            #expect(answer.headers["x-content-type-options"] == "nosniff")
        }
        #expect(try served.client.get("/").status == 200)
        #expect(try served.client.get("/nope").status == 404)
    }

    @Test func pagesComeOverHTTPEscapedAndTyped() throws {
        let served = try Served()
        let page = try served.client.get("/object/Entry/1")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        let text = String(decoding: page.body, as: UTF8.self)
        #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!text.contains("<script>"))
        let query = try served.client.get("/entity/Entry?where=title%20ENDSWITH%20%273%27")
        #expect(String(decoding: query.body, as: UTF8.self).contains("1 object matching"))
    }

    @Test func everyPageKindIsServedWithItsType() throws {
        let served = try Served(entries: 60)
        let kinds: [(String, String)] = [
            ("/", "text/html; charset=utf-8"), ("/style.css", "text/css; charset=utf-8"),
            ("/entity/Entry", "text/html; charset=utf-8"),
            ("/entity/Entry?sort=score&order=desc", "text/html; charset=utf-8"),
            ("/object/Tag/1", "text/html; charset=utf-8"),
            ("/media/Entry/1/photo", "image/png"),
            ("/media/Entry/2/photo", "application/octet-stream"),
        ]
        for (path, type) in kinds {
            let answer = try served.client.get(path)
            #expect(answer.status == 200, "\(path)")
            #expect(answer.headers["content-type"] == type, "\(path)")
        }
        // Paging over HTTP: the first page's "Next →" leads to the rest.
        let first = String(decoding: try served.client.get("/entity/Entry").body, as: UTF8.self)
        let next = try #require(StoreSiteTests.link(first, "Next →"))
        let second = String(decoding: try served.client.get(next).body, as: UTF8.self)
        #expect(StoreSiteTests.objectLinks(first).count == 50)
        #expect(StoreSiteTests.objectLinks(second).count == 10)
        #expect(
            Set(StoreSiteTests.objectLinks(first)).isDisjoint(
                with: StoreSiteTests.objectLinks(second)))
    }

    @Test func aRangeRequestGetsPartialContent() throws {
        let served = try Served()
        let answer = try served.client.get("/media/Entry/1/photo", headers: ["Range: bytes=1-3"])
        #expect(answer.status == 206)
        #expect(answer.body == WebFixture.png[1...3])
        #expect(answer.headers["content-range"] == "bytes 1-3/\(WebFixture.png.count)")
        #expect(answer.headers["accept-ranges"] == "bytes")
    }

    @Test(arguments: [
        "/media/../../etc/passwd", "/media/..%2F..%2Fetc%2Fpasswd", "/%2e%2e/%2e%2e/etc/passwd",
        "/media/Entry/1/..%2f..%2f..%2fetc%2fpasswd", "/entity/%2e%2e", "/object/Entry/1%00",
        "/media/%252e%252e/passwd",
    ])
    func traversalAttemptsAreNotFound(path: String) throws {
        let served = try Served()
        let answer = try served.client.get(path)
        #expect([400, 404].contains(answer.status), "\(path): \(answer.status)")
        #expect(!String(decoding: answer.body, as: UTF8.self).contains("root:"))
    }

    @Test func onlyGetAndHeadAreAnswered() throws {
        let served = try Served()
        #expect(try served.client.get("/", method: "POST").status == 405)
        #expect(try served.client.get("/", method: "DELETE").status == 405)
        let head = try served.client.get("/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        let body = try served.client.get("/", headers: ["Content-Length: 5"], method: "GET")
        #expect(body.status == 413)
    }

    @Test func oversizeRequestsAreRefused() throws {
        let served = try Served()
        let longPath = "/entity/" + String(repeating: "a", count: 64 * 1024)
        #expect([413, 414, 431].contains(try served.client.get(longPath).status))
        let headers = (0..<100).map { "X-Header-\($0): 1" }
        #expect(try served.client.get("/", headers: headers).status == 431)
        let bigHeader = ["X-Big: " + String(repeating: "b", count: 64 * 1024)]
        #expect([413, 431].contains(try served.client.get("/", headers: bigHeader).status))
    }

    @Test func withoutATokenOnlyLoopbackNamesAreAnswered() throws {
        let served = try Served()
        let rebound = try served.client.send(
            Data("GET / HTTP/1.1\r\nHost: attacker.example:8080\r\nConnection: close\r\n\r\n".utf8))
        #expect(rebound.status == 421)
        for host in ["localhost:1", "127.0.0.1", "[::1]:8080"] {
            let answer = try served.client.send(
                Data("GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8))
            #expect(answer.status == 200, "\(host)")
        }
    }

    @Test func clientsThatNeverFinishTheirRequestDoNotStallOthers() throws {
        // More half-sent requests than the server has threads: each holds
        // a connection, none a worker.
        let served = try Served(
            limits: {
                var limits = HTTPLimits()
                limits.threads = 2
                return limits
            }())
        var stalled: [Int32] = []
        defer { stalled.forEach { close($0) } }
        for _ in 0..<16 {
            let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(served.server.port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            #expect(connected == 0)
            let partial = "GET /entity/Entry HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            _ = partial.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            stalled.append(socket)
        }
        #expect(try served.client.get("/entity/Entry").status == 200)
    }

    @Test func everyHeaderQueryArgumentAndCookieReachesTheHandler() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
            .text(
                "\(request.query["any"] ?? "-") \(request.query["flag"] ?? "-") "
                    + "\(request.headers["x-custom"] ?? "-") \(request.cookies["c"] ?? "-")",
                status: 200)
        }
        defer { server.stop() }
        let answer = try LoopbackClient(port: server.port).get(
            "/p?any=a%20b&flag&any=second", headers: ["X-Custom: yes", "Cookie: c=1; d=2"])
        #expect(String(decoding: answer.body, as: UTF8.self) == "a b  yes 1")
    }

    @Test func aSecondServerCannotTakeABoundPort() throws {
        let served = try Served()
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(host: "127.0.0.1", port: served.server.port) { _ in
                .text("", status: 200)
            }
        }
        #expect(throws: HTTPServerError.self) {
            try HTTPServer(host: "localhost", port: 0) { _ in .text("", status: 200) }
        }
    }
}
