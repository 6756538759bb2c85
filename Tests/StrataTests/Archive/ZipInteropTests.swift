import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// Archives written by other tools (Info-ZIP `zip`, Python's `zipfile`),
/// read by ZipReader; skipped where the tool is missing.
struct ZipInteropTests {
    @Test func testReadsAnInfoZipArchiveWithFolders() throws {
        guard let zip = ZipWriterTests.tool("zip") else { return }
        let folder = try TemporaryDirectory()
        let source = folder.file("diary")
        try FileManager.default.createDirectory(
            at: source.appendingPathComponent("media"), withIntermediateDirectories: true)
        let photo = ZipWriterTests.noise(count: 300_000)
        try photo.write(to: source.appendingPathComponent("media/a.jpg"))
        try Data(repeating: 0x61, count: 100_000).write(
            to: source.appendingPathComponent("notes.txt"))
        let process = Process()
        process.executableURL = zip
        process.currentDirectoryURL = folder.url
        process.arguments = ["-q", "-r", "out.zip", "diary"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let reader = try ZipReader(contentsOf: folder.file("out.zip"))
        var files: [String: Data] = [:]
        var folders: [String] = []
        while let entry = try reader.next() {
            switch entry.kind {
            case .directory: folders.append(entry.path)
            case .file:
                var data = Data()
                try reader.readCurrent { data.append(contentsOf: $0) }
                files[entry.path] = data
            }
        }
        #expect(folders.sorted() == ["diary/", "diary/media/"])
        #expect(files["diary/media/a.jpg"] == photo)
        #expect(files["diary/notes.txt"] == Data(repeating: 0x61, count: 100_000))
        #expect(reader.entry(named: "diary/notes.txt")?.compression == .deflated)
    }

    @Test func testReadsPythonZip64Entries() throws {
        guard let python = ZipWriterTests.tool("python3") else { return }
        let folder = try TemporaryDirectory()
        let url = folder.file("z64.zip")
        // Zip64 local headers and data descriptors forced on small entries
        // (RawZip covers zip64 in the central directory and end records).
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", allowZip64=True) as z:
                for name, method in [("a.txt", zipfile.ZIP_STORED), ("b.txt", zipfile.ZIP_DEFLATED)]:
                    info = zipfile.ZipInfo(name)
                    info.compress_type = method
                    with z.open(info, "w", force_zip64=True) as f:
                        f.write(name.encode() * 1000)
                z.writestr("c/\\u00e9t\\u00e9.txt", "summer", zipfile.ZIP_DEFLATED)
            """
        let (status, output) = try ZipWriterTests.run(python, ["-c", script, url.path])
        #expect(status == 0, "\(output)")
        let reader = try ZipReader(contentsOf: url)
        #expect(reader.entries.map(\.path) == ["a.txt", "b.txt", "c/été.txt"])
        #expect(
            try reader.data(of: reader.entries[0])
                == Data(String(repeating: "a.txt", count: 1000).utf8))
        #expect(
            try reader.data(of: reader.entries[1])
                == Data(String(repeating: "b.txt", count: 1000).utf8))
        #expect(try reader.data(of: reader.entries[2]) == Data("summer".utf8))
    }
}
