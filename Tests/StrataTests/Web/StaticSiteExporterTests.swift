import Foundation
import Testing

@testable import StrataFormats
@testable import StrataWeb

struct StaticSiteExporterTests {
    @Test func twoExportsOfAStoreAreByteIdentical() throws {
        let fixture = try WebFixture(entries: 60)
        let first = fixture.folder.file("first")
        let second = fixture.folder.file("second")
        let summary = try StaticSiteExporter(storeAt: fixture.url).export(to: first)
        try StaticSiteExporter(storeAt: fixture.url).export(to: second)
        #expect(summary.mediaFiles == 2)
        // index, style-less pages: 3 listings (2 pages for Entry) + 62 objects…
        #expect(summary.pages == 1 + 2 + 1 + 1 + 60 + 2)
        let files = try Self.files(under: first)
        #expect(files == (try Self.files(under: second)))
        for path in files {
            let a = try Data(contentsOf: first.appendingPathComponent(path))
            let b = try Data(contentsOf: second.appendingPathComponent(path))
            #expect(a == b, "\(path)")
        }
    }

    @Test func everyLinkIsRelativeAndLeadsToAFileOfTheSite() throws {
        let fixture = try WebFixture(entries: 60)
        let site = fixture.folder.file("site")
        try StaticSiteExporter(storeAt: fixture.url).export(to: site)
        let files = try Self.files(under: site)
        #expect(files.contains("index.html"))
        #expect(files.contains("media/Entry/1/photo.png"))
        #expect(files.contains("media/Entry/2/photo.bin"))
        for path in files where path.hasSuffix(".html") {
            let text = try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("<script>alert"), "\(path)")
            let folder = site.appendingPathComponent(path).deletingLastPathComponent()
            for match in text.matches(of: /(?:href|src)="([^"]*)"/) {
                let link = String(match.1)
                if link.hasPrefix("http") { continue }
                #expect(!link.hasPrefix("/"), "\(path): \(link)")
                let target = folder.appendingPathComponent(link).standardizedFileURL
                #expect(
                    FileManager.default.fileExists(atPath: target.path), "\(path) links to \(link)")
            }
        }
    }

    @Test func anExistingFolderWithFilesIsNotReplaced() throws {
        let fixture = try WebFixture(entries: 3)
        let site = fixture.folder.file("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: site.appendingPathComponent("mine.txt"))
        #expect(throws: ExportError.self) {
            try StaticSiteExporter(storeAt: fixture.url).export(to: site)
        }
        #expect(try Self.files(under: site) == ["mine.txt"])
        // Nothing left beside it either.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path).sorted()
                == ["Journal.sqlite", "site"])
    }

    static func files(under folder: URL) throws -> [String] {
        var paths: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                paths.append(path)
            }
        }
        return paths.sorted()
    }
}
