import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// The code examples of the Archive folder's doc comments (``ZipWriter``,
/// ``ZipReader``, ``ZipExtraction``, ``ZipLimits``, ``ArchiveError``),
/// compiled and run as written.
struct ArchiveDocExampleTests {
    @Test func testZipWriterExamples() throws {
        let folder = try TemporaryDirectory()
        let photoURL = folder.file("photo.jpg")
        try Data([0xff, 0xd8, 0xff]).write(to: photoURL)
        var url = folder.file("a.zip")

        // From ZipWriter.
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "README.txt", bytes: Data("hello".utf8))
            try zip.add(path: "media/photo.jpg", contentsOf: photoURL, compression: .stored)
        }
        #expect(
            try ZipReader(contentsOf: url).entries.map(\.path) == ["README.txt", "media/photo.jpg"])

        url = folder.file("b.zip")
        // From ZipWriter.write(to:replacing:deflateLevel:_:).
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "a.txt", bytes: Data("a".utf8))
        }
        #expect(try ZipReader(contentsOf: url).entries.map(\.path) == ["a.txt"])

        url = folder.file("c.zip")
        try ZipWriter.write(to: url) { zip in
            // From ZipWriter.add(path:compression:writing:).
            try zip.add(path: "data/Entry.jsonl") { sink in
                for line in ["{\"a\":1}\n", "{\"a\":2}\n"] {
                    try sink.write(line)
                }
            }
        }
        let reader = try ZipReader(contentsOf: url)
        #expect(try reader.data(of: reader.entries[0]) == Data("{\"a\":1}\n{\"a\":2}\n".utf8))
    }

    @Test func testZipReaderAndExtractionExamples() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("bundle.zip")
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "manifest.json", bytes: Data("{}".utf8))
            try zip.add(path: "media/a.jpg", bytes: Data("A".utf8), compression: .stored)
        }

        // From ZipReader.
        let reader = try ZipReader(contentsOf: url)
        while let entry = try reader.next() {
            var bytes = 0
            try reader.readCurrent { chunk in bytes += chunk.count }
            print(entry.path, bytes)
        }

        let bundleURL = url
        let folderURL = folder.file("out")
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: false)
        do {
            // From ZipExtraction.
            let reader = try ZipReader(contentsOf: bundleURL)
            let media = reader.entries.filter { $0.path.hasPrefix("media/") }
            let files = try ZipExtraction(into: folderURL).extract(media, from: reader)
            #expect(files == [folderURL.appendingPathComponent("media/a.jpg")])
        }
    }

    @Test func testZipLimitsAndArchiveErrorExamples() throws {
        // From ZipLimits.
        var limits = ZipLimits()
        limits.maxEntries = 10
        limits.maxTotalSize = 100 << 20
        #expect(limits.maxEntries == 10)

        let folder = try TemporaryDirectory()
        let url = folder.file("link.zip")
        var link = RawZip.Entry(name: "photo.jpg", content: Data("/etc/passwd".utf8))
        link.externalAttributes = 0o120777 << 16
        try RawZip(entries: [link]).data().write(to: url)
        var caught = false
        // From ArchiveError.
        do {
            _ = try ZipReader(contentsOf: url)
        } catch let error as ArchiveError where error.code == .symlink {
            print("links are not allowed in a bundle: \(error)")
            caught = true
        }
        #expect(caught)
        let error: any Error = ArchiveError(.symlink, path: "a.zip", message: "m")
        #expect(ArchiveError.Code.symlink ~= error)
        #expect(!(ArchiveError.Code.hardLink ~= error))
    }

    @Test func testRawZipExample() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("evil.zip")
        // From RawZip (test support).
        var zip = RawZip()
        zip.add(RawZip.Entry(name: "../evil", content: Data("x".utf8)))
        try zip.data().write(to: url)
        #expect(throws: ArchiveError.self) { try ZipReader(contentsOf: url) }
    }
}
