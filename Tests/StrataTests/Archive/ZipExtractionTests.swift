import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct ZipExtractionTests {
    typealias Entry = RawZip.Entry

    static func file(_ name: String, _ text: String = "x", deflated: Bool = false) -> Entry {
        Entry(name: name, content: Data(text.utf8), deflated: deflated)
    }

    /// Everything under a folder: each path with its bytes, or where a link
    /// points; hidden staging folders included.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path) else { return result }
        while let relative = walker.nextObject() as? String {
            let path = folder.appendingPathComponent(relative).path
            let type = try manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            switch type {
            case .typeSymbolicLink?:
                result[relative] = "-> " + (try manager.destinationOfSymbolicLink(atPath: path))
            case .typeDirectory?:
                result[relative + "/"] = ""
            default:
                result[relative] = String(
                    decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            }
        }
        return result
    }

    /// A target folder with one file already in it.
    static func target(in folder: TemporaryDirectory) throws -> URL {
        let target = folder.file("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("old".utf8).write(to: target.appendingPathComponent("existing.txt"))
        return target
    }

    /// Writes the entries as a zip, opens it and extracts everything.
    static func extractAll(
        _ entries: [Entry], into target: URL, folder: TemporaryDirectory,
        limits: ZipLimits = ZipLimits()
    ) throws -> [URL] {
        let url = folder.file("in.zip")
        try RawZip(entries: entries).data().write(to: url)
        let reader = try ZipReader(contentsOf: url, limits: limits)
        return try ZipExtraction(into: target).extract(reader.entries, from: reader)
    }

    @Test func testExtractsFilesAndFoldersWithTheirBytes() throws {
        let folder = try TemporaryDirectory()
        let target = try Self.target(in: folder)
        var empty = Self.file("empty/", "")
        empty.externalAttributes = 0o040755 << 16
        let urls = try Self.extractAll(
            [Self.file("a.txt", "alpha"), Self.file("media/b.jpg", "beta", deflated: true), empty],
            into: target, folder: folder)
        #expect(urls.map(\.lastPathComponent) == ["a.txt", "b.jpg", "empty"])
        #expect(
            try Self.snapshot(target) == [
                "existing.txt": "old", "a.txt": "alpha", "media/": "", "media/b.jpg": "beta",
                "empty/": "",
            ])
    }

    @Test func testDestinationsObserversAndVerifiers() throws {
        let folder = try TemporaryDirectory()
        let target = try Self.target(in: folder)
        let url = folder.file("in.zip")
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "media/a.jpg", bytes: Data("AAA".utf8), compression: .stored)
            try zip.add(path: "media/b.jpg", bytes: Data("BB".utf8))
            try zip.add(path: "manifest.json", bytes: Data("{}".utf8))
        }
        let reader = try ZipReader(contentsOf: url)
        var counted: [String: Int] = [:]
        var verified: [String] = []
        try ZipExtraction(into: target).extract(
            reader.entries.filter { $0.path.hasPrefix("media/") }, from: reader,
            destination: { "store/" + $0.path.uppercased() },
            observe: { entry, chunk in counted[entry.path, default: 0] += chunk.count },
            verify: { verified.append($0.path) })
        #expect(counted == ["media/a.jpg": 3, "media/b.jpg": 2])
        #expect(verified == ["media/a.jpg", "media/b.jpg"])
        #expect(
            try Self.snapshot(target) == [
                "existing.txt": "old", "store/": "", "store/MEDIA/": "", "store/MEDIA/A.JPG": "AAA",
                "store/MEDIA/B.JPG": "BB",
            ])

        struct Mismatch: Error {}
        #expect(throws: Mismatch.self) {
            try ZipExtraction(into: target).extract(
                reader.entries, from: reader, destination: { "other/" + $0.path },
                verify: { if $0.path == "manifest.json" { throw Mismatch() } })
        }
        #expect(try Self.snapshot(target).keys.allSatisfy { !$0.hasPrefix("other") })
    }

    @Test func testAnExistingFileIsNeverOverwritten() throws {
        let folder = try TemporaryDirectory()
        let target = try Self.target(in: folder)
        let before = try Self.snapshot(target)
        let error = try #require(throws: ArchiveError.self) {
            try Self.extractAll(
                [Self.file("new.txt", "new"), Self.file("existing.txt", "evil")], into: target,
                folder: folder)
        }
        #expect(error.code == .alreadyExists)
        #expect(error.entry == "existing.txt")
        #expect(try Self.snapshot(target) == before)
    }

    @Test func testASymlinkInTheTargetIsNotFollowed() throws {
        let folder = try TemporaryDirectory()
        let target = try Self.target(in: folder)
        let outside = folder.file("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            at: target.appendingPathComponent("media"), withDestinationURL: outside)
        let before = try Self.snapshot(target)
        let error = try #require(throws: ArchiveError.self) {
            try Self.extractAll(
                [Self.file("media/evil.sh", "rm -rf")], into: target, folder: folder)
        }
        #expect(error.code == .unsafeTarget)
        #expect(error.entry == "media/evil.sh")
        #expect(try Self.snapshot(target) == before)
        #expect(try Self.snapshot(outside) == [:])
    }

    /// The list of hostile archives: each is refused with its entry
    /// named, and the target folder is left exactly as it was.
    @Test func testHostileArchivesLeaveTheTargetUnchanged() throws {
        var symlink = Self.file("link", "/etc")
        symlink.externalAttributes = 0o120777 << 16
        var hardLink = Self.file("b.txt")
        hardLink.sharesHeaderOf = 0
        var ratioBomb = Self.file("zeros.bin")
        ratioBomb.payload = [UInt8](try RawDeflate.deflate(Data(count: 20 << 20)))
        ratioBomb.method = 8
        ratioBomb.size = 20 << 20
        ratioBomb.compressedSize = UInt32(ratioBomb.payload.count)
        // Five entries of 300 KB of zeros (each under the ratio floor), a
        // few hundred bytes each in the zip, beyond a total limit of 1 MiB.
        var totalBomb: [Entry] = []
        for number in 0..<5 {
            totalBomb.append(
                Entry(name: "part\(number).bin", content: Data(count: 300_000), deflated: true))
        }
        var small = ZipLimits()
        small.maxTotalSize = 1 << 20
        var badCRC = Self.file("bad.txt", "hello")
        badCRC.crc ^= 0xffff
        let cases: [(String, [Entry], ArchiveError.Code, String?, ZipLimits)] = [
            (
                "traversal", [Self.file("ok.txt"), Self.file("../evil")], .parentReference,
                "../evil", ZipLimits()
            ),
            ("absolute", [Self.file("/tmp/evil")], .absolutePath, "/tmp/evil", ZipLimits()),
            ("symlink", [symlink], .symlink, "link", ZipLimits()),
            ("hard link", [Self.file("a.txt"), hardLink], .hardLink, "b.txt", ZipLimits()),
            ("ratio bomb", [ratioBomb], .compressionRatio, "zeros.bin", ZipLimits()),
            ("total bomb", totalBomb, .totalTooLarge, "part3.bin", small),
            (
                "bad CRC", [Self.file("good.txt", "good"), badCRC], .checksumMismatch, "bad.txt",
                ZipLimits()
            ),
            (
                "duplicate", [Self.file("a.txt", "1"), Self.file("a.txt", "2")], .duplicateName,
                "a.txt", ZipLimits()
            ),
        ]
        for (label, entries, code, entry, limits) in cases {
            let folder = try TemporaryDirectory()
            let target = try Self.target(in: folder)
            let before = try Self.snapshot(target)
            let error = try #require(throws: ArchiveError.self, "\(label)") {
                try Self.extractAll(entries, into: target, folder: folder, limits: limits)
            }
            #expect(error.code == code, "\(label): \(error)")
            #expect(error.entry == entry, "\(label): \(error)")
            #expect(try Self.snapshot(target) == before, "\(label)")
        }
    }

    @Test func testATruncatedArchiveLeavesTheTargetUnchanged() throws {
        let folder = try TemporaryDirectory()
        let target = try Self.target(in: folder)
        let before = try Self.snapshot(target)
        let whole = RawZip(entries: [Self.file("a.txt", "alpha"), Self.file("b.txt", "beta")])
            .data()
        let url = folder.file("cut.zip")
        for length in stride(from: 0, to: whole.count, by: 7) {
            try whole.prefix(length).write(to: url)
            #expect(throws: ArchiveError.self) {
                let reader = try ZipReader(contentsOf: url)
                try ZipExtraction(into: target).extract(reader.entries, from: reader)
            }
            #expect(try Self.snapshot(target) == before)
        }
    }
}
