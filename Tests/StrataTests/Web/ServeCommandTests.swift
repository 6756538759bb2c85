import Foundation
import Testing

@testable import StrataWeb

/// `strata serve`, `strata export --format html` and `strata archive
/// --with-html`, run as the built binary.
struct ServeCommandTests {
    /// A running `strata serve`, stopped with SIGTERM.
    final class Serving {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        /// The address it printed.
        let address: String
        var port: Int

        init(_ arguments: [String], temporary: URL? = nil) throws {
            process.executableURL = try BuiltExecutable.url(named: "strata")
            process.arguments = ["serve"] + arguments
            process.standardOutput = output
            process.standardError = errors
            if let temporary {
                var environment = ProcessInfo.processInfo.environment
                environment["TMPDIR"] = temporary.path
                process.environment = environment
            }
            try process.run()
            // The first line says where; a failure closes the pipe instead.
            let announced = LoopbackClient.announcedAddress(on: output.fileHandleForReading)
            address = announced?.address ?? ""
            port = announced?.port ?? 0
        }

        var client: LoopbackClient { LoopbackClient(port: port) }

        /// Stops the server and returns its exit status.
        func stop() -> Int32 {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { _ = stop() }
    }

    static func strata(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "strata")
        process.arguments = arguments
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-serve-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // Best effort.
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        try Data().write(to: out)
        try Data().write(to: err)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, try String(contentsOf: out, encoding: .utf8),
            try String(contentsOf: err, encoding: .utf8)
        )
    }

    @Test func serveShowsTheStoreUntilStopped() throws {
        let fixture = try WebFixture(entries: 5)
        let serving = try Serving([fixture.url.path, "--port", "0"])
        #expect(serving.address == "http://127.0.0.1:\(serving.port)/")
        let page = try serving.client.get("/entity/Entry")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("5 objects"))
        #expect(serving.stop() == 0)
    }

    @Test func anAddressBeyondTheLoopbackGetsARandomToken() throws {
        let fixture = try WebFixture(entries: 2)
        let serving = try Serving([fixture.url.path, "--port", "0", "--host", "0.0.0.0"])
        let token = try #require(serving.address.firstMatch(of: /\?token=([0-9a-f]{32})$/)?.1)
        #expect(try serving.client.get("/").status == 401)
        // One digit changed (not set: a token ending in that digit would be let in).
        let wrong = token.dropLast() + (token.last == "0" ? "1" : "0")
        #expect(try serving.client.get("/?token=\(wrong)").status == 401)
        let opened = try serving.client.get("/?token=\(token)")
        #expect(opened.status == 200)
        #expect(opened.headers["set-cookie"]?.hasPrefix("strata_token=\(token);") == true)
        #expect(
            try serving.client.get("/entity/Entry", headers: ["Cookie: strata_token=\(token)"])
                .status == 200)
    }

    @Test func aBundleIsServedFromARestoredCopyThatIsRemovedOnExit() throws {
        let fixture = try WebFixture(entries: 4)
        let bundle = fixture.folder.file("Journal.zip")
        let (archived, _, archiveErrors) = try Self.strata([
            "archive", fixture.url.path, "-o", bundle.path,
        ])
        #expect(archived == 0, "\(archiveErrors)")
        let temporary = fixture.folder.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let serving = try Serving([bundle.path, "--port", "0"], temporary: temporary)
        let page = try serving.client.get("/object/Entry/1")
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("&lt;script&gt;"))
        #expect(serving.stop() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func aMissingStoreIsAnErrorNamingIt() throws {
        let (status, _, errors) = try Self.strata([
            "serve", "/nonexistent/Diary.sqlite", "--port", "0",
        ])
        #expect(status != 0)
        #expect(errors.contains("/nonexistent/Diary.sqlite"))
    }

    @Test func exportAsHTMLIsDeterministicForAStoreAndItsBundle() throws {
        let fixture = try WebFixture(entries: 8)
        let first = fixture.folder.file("first")
        let second = fixture.folder.file("second")
        for folder in [first, second] {
            let (status, out, errors) = try Self.strata([
                "export", fixture.url.path, "--format", "html", "-o", folder.path,
            ])
            #expect(status == 0, "\(errors)")
            #expect(out.contains("open \(folder.path)/index.html"))
        }
        let files = try StaticSiteExporterTests.files(under: first)
        #expect(files == (try StaticSiteExporterTests.files(under: second)))
        for path in files {
            #expect(
                try Data(contentsOf: first.appendingPathComponent(path))
                    == Data(contentsOf: second.appendingPathComponent(path)), "\(path)")
        }
        // A bundle carries its site, listed in its manifest; it still unarchives.
        let bundle = fixture.folder.file("Journal.zip")
        let (archived, _, archiveErrors) = try Self.strata([
            "archive", fixture.url.path, "-o", bundle.path, "--with-html",
        ])
        #expect(archived == 0, "\(archiveErrors)")
        let zip = try Data(contentsOf: bundle)
        #expect(zip.range(of: Data("html/index.html".utf8)) != nil)
        #expect(zip.range(of: Data("html/object/Entry/1.html".utf8)) != nil)
        let restored = fixture.folder.file("Restored.sqlite")
        let (unarchived, _, unarchiveErrors) = try Self.strata([
            "unarchive", bundle.path, restored.path,
        ])
        #expect(unarchived == 0, "\(unarchiveErrors)")
    }
}
