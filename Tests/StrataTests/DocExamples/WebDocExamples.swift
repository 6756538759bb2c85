// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import StrataWeb

// The examples of the StrataWeb docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum WebDocExamples {
    /// From Sources/StrataWeb/HTTP/HTTPServer.swift.
    static func httpServer() throws {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
            .text("hello from \(request.path)\n", status: 200)
        }
        print("listening on port \(server.port)")
        server.stop()
    }

    /// From README.md.
    static func readme(storeURL: URL) throws {
        let site = try StoreSite(storeAt: storeURL)
        let server = try HTTPServer(host: "127.0.0.1", port: 8080) { request in site.respond(request) }
        defer { server.stop() }
        print("serving on port \(server.port)")
    }

    /// From Sources/StrataWeb/Site/StoreSite.swift.
    static func storeSite() throws {
        let site = try StoreSite(storeAt: URL(fileURLWithPath: "Diary.sqlite"))
        let page = site.respond(HTTPRequest(path: "/"))
        print(page.status)  // 200
    }

    /// From Sources/StrataWeb/Export/StaticSiteExporter.swift.
    static func staticSiteExporter() throws {
        let exporter = try StaticSiteExporter(storeAt: URL(fileURLWithPath: "Diary.sqlite"))
        let summary = try exporter.export(to: URL(fileURLWithPath: "Diary-site"))
        print(summary.pages, summary.mediaFiles)
    }
}
