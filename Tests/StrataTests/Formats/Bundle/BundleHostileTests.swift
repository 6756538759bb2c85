import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats

/// Bundles are untrusted: each hostile or damaged zip is refused with the
/// entry named, and the target folder is left exactly as it was.
struct BundleHostileTests {
    /// Unarchives `bytes` into a store in a fresh folder and checks the
    /// refusal and that the folder is unchanged.
    private func expectRefused(
        _ bytes: Data, limits: ZipLimits = ZipLimits(), naming entry: String?,
        _ check: (Error) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try TemporaryDirectory()
        let bundle = folder.file("bundle.zip")
        try bytes.write(to: bundle)
        let before = try BundleFixture.listing(folder.url)
        var options = UnarchiveOptions()
        options.limits = limits
        var thrown: Error?
        do {
            try BundleUnarchiver(bundle: bundle, options: options)
                .unarchive(to: folder.file("Diary.sqlite"))
        } catch {
            thrown = error
        }
        let error = try #require(thrown, sourceLocation: sourceLocation)
        #expect(check(error), "\(error)", sourceLocation: sourceLocation)
        if let entry {
            #expect("\(error)".contains("\"\(entry)\""), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(try BundleFixture.listing(folder.url) == before, sourceLocation: sourceLocation)
    }

    @Test func testTraversalAndAbsoluteNamesAreRefused() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        for (name, code) in [
            ("../evil.txt", ArchiveError.Code.parentReference),
            ("/etc/evil.txt", .absolutePath),
            ("media/../../evil.txt", .parentReference),
        ] {
            try expectRefused(
                try BundleFixture.zip(entries + [(name, Data("x".utf8))]), naming: nil
            ) { ($0 as? ArchiveError)?.code == code }
        }
    }

    @Test func testSymlinksHardLinksAndDevicesAreRefused() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        let media = try #require(entries.first { $0.0.hasPrefix("media/") }?.0)
        try expectRefused(
            try BundleFixture.zip(entries) { raw in
                if let index = raw.firstIndex(where: {
                    String(decoding: $0.name, as: UTF8.self) == media
                }) {
                    raw[index].externalAttributes = 0o120777 << 16
                }
            }, naming: media
        ) { ($0 as? ArchiveError)?.code == .symlink }
        try expectRefused(
            try BundleFixture.zip(entries) { raw in
                var link = RawZip.Entry(name: "media/extra.png", content: Data())
                link.sharesHeaderOf = 0
                raw.append(link)
            }, naming: "media/extra.png"
        ) { ($0 as? ArchiveError)?.code == .hardLink }
        try expectRefused(
            try BundleFixture.zip(entries) { raw in
                var device = RawZip.Entry(name: "media/disk.bin", content: Data())
                device.externalAttributes = 0o060644 << 16
                raw.append(device)
            }, naming: "media/disk.bin"
        ) { ($0 as? ArchiveError)?.code == .specialFile }
    }

    @Test func testBombsByRatioAndByTotalSizeAreRefused() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        try expectRefused(
            try BundleFixture.zip(entries) { raw in
                var bomb = RawZip.Entry(name: "media/zeros.bin", content: Data())
                bomb.payload = [UInt8]((try? RawDeflate.deflate(Data(count: 20 << 20))) ?? Data())
                bomb.method = 8
                bomb.size = 20 << 20
                bomb.compressedSize = UInt32(bomb.payload.count)
                raw.append(bomb)
            }, naming: "media/zeros.bin"
        ) { ($0 as? ArchiveError)?.code == .compressionRatio }
        var limits = ZipLimits()
        limits.maxTotalSize = 2_000
        try expectRefused(try BundleFixture.zip(entries), limits: limits, naming: nil) {
            ($0 as? ArchiveError)?.code == .totalTooLarge
        }
    }

    @Test func testABadChecksumIsRefused() throws {
        var entries = try BundleFixture.honestEntries(try BundleFixture())
        let index = try #require(entries.firstIndex { $0.0 == "data/Tag.jsonl" })
        // Same size, one byte changed: the zip's CRC is right, the manifest's SHA-256 not.
        var bytes = [UInt8](entries[index].1)
        bytes[bytes.count / 2] ^= 0x01
        entries[index].1 = Data(bytes)
        try expectRefused(try BundleFixture.zip(entries), naming: "data/Tag.jsonl") {
            ($0 as? BundleError)?.code == .checksumMismatch
        }
    }

    /// Every file is checked, whoever reads it: a medium the decoder reads
    /// into a row, a file no line names (the README, a medium nobody
    /// lists), and a large medium streamed into its row.
    @Test func testEveryKindOfDamagedFileIsRefusedByName() throws {
        let fixture = try BundleFixture()
        let honest = try BundleFixture.honestEntries(fixture)
        func damaged(_ entries: [(String, Data)], _ name: String) throws -> Data {
            var entries = entries
            let index = try #require(entries.firstIndex { $0.0 == name })
            var bytes = [UInt8](entries[index].1)
            bytes[bytes.count / 2] ^= 0x01  // The zip's CRC is made for the damaged bytes.
            entries[index].1 = Data(bytes)
            return try BundleFixture.zip(entries)
        }
        let medium = try #require(honest.first { $0.0.hasPrefix("media/") }?.0)
        for name in [medium, "README.txt"] {
            try expectRefused(try damaged(honest, name), naming: name) {
                ($0 as? BundleError)?.code == .checksumMismatch
            }
        }
        // Listed in the manifest, named by no line.
        let folder = try TemporaryDirectory()
        let extended = folder.file("extended.zip")
        let photo = BundleFixture.photo(42)
        var hasher = SHA256()
        hasher.update(photo)
        let unnamed = "media/\(SHA256.hex(hasher.finalize())).png"
        try BundleFixture.zip(honest + [(unnamed, photo)], keepManifest: false).write(to: extended)
        try expectRefused(
            try damaged(try BundleFixture.entries(of: extended), unnamed), naming: unnamed
        ) { ($0 as? BundleError)?.code == .checksumMismatch }
        // Larger than what is read whole: streamed into its row, and checked.
        let context = try Context(store: fixture.store, model: fixture.model)
        let entry = try #require(try context.fetch(FetchRequest(entity: "DiaryEntry")).first)
        let large = try context.insert("Medium")
        try large.set("type", "image")
        let bytes = Data(
            BundleFixture.photo(1)
                + Data(repeating: 0x42, count: Int(BundleObjectDecoder.mediumReadLimit)))
        try large.setValue(.data(bytes), forKey: "data")
        try large.setObject(entry, forKey: "diaryEntry")
        try context.save()
        let withLarge = folder.file("large.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: withLarge)
        let entries = try BundleFixture.entries(of: withLarge)
        let name = try #require(entries.first { $0.1.count == bytes.count }?.0)
        try expectRefused(try damaged(entries, name), naming: name) {
            ($0 as? BundleError)?.code == .checksumMismatch
        }
    }

    @Test func testDuplicateAndUnlistedEntriesAreRefused() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        let tags = try #require(entries.first { $0.0 == "data/Tag.jsonl" })
        try expectRefused(try BundleFixture.zip(entries + [tags]), naming: "data/Tag.jsonl") {
            ($0 as? ArchiveError)?.code == .duplicateName
        }
        try expectRefused(
            try BundleFixture.zip(entries + [("media/unlisted.txt", Data("x".utf8))]),
            naming: "media/unlisted.txt"
        ) { ($0 as? BundleError)?.code == .manifestMismatch }
    }

    @Test func testAMissingManifestOrSchemaIsRefused() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        try expectRefused(
            try BundleFixture.zip(entries.filter { $0.0 != "manifest.json" }), naming: nil
        ) { ($0 as? BundleError)?.code == .notABundle && "\($0)".contains("no manifest.json") }
        try expectRefused(
            try BundleFixture.zip(entries.filter { $0.0 != "schema.json" }, keepManifest: false),
            naming: nil
        ) { ($0 as? BundleError)?.code == .notABundle && "\($0)".contains("no schema.json") }
    }

    @Test func testLinesThatDoNotFitTheSchemaAreRefusedWithTheirLine() throws {
        let entries = try BundleFixture.honestEntries(try BundleFixture())
        let cases: [(String, String, String)] = [
            (
                "data/Medium.jsonl", #"{"_id":"Medium/p1","type":2,"data":"AAAA"}"#,
                "'type': expected text"
            ),
            (
                "data/Tag.jsonl", #"{"_id":"Tag/p1","name":"x","colour":"red"}"#,
                "'colour' is not a property"
            ),
            ("data/Tag.jsonl", #"{"_id":"Medium/p1","name":"x"}"#, "expected \"_id\""),
            (
                "data/Tag.jsonl", #"{"_id":"Tag/p1","name":"x","entries":["Tag/p2"]}"#,
                "expected the id of a DiaryEntry"
            ),
            ("data/Tag.jsonl", "not json", "not JSON"),
        ]
        for (file, line, message) in cases {
            var tampered = entries
            let index = try #require(tampered.firstIndex { $0.0 == file })
            var lines = String(decoding: tampered[index].1, as: UTF8.self)
                .split(separator: "\n").map(String.init)
            lines[0] = line
            tampered[index].1 = Data((lines.joined(separator: "\n") + "\n").utf8)
            try expectRefused(try BundleFixture.zip(tampered, keepManifest: false), naming: file) {
                ($0 as? BundleError)?.code == .invalidData && "\($0)".contains("line 1: ")
                    && "\($0)".contains(message)
            }
        }
    }

    @Test func testAManifestThatCountsOtherwiseIsRefused() throws {
        var entries = try BundleFixture.honestEntries(try BundleFixture())
        let index = try #require(entries.firstIndex { $0.0 == "manifest.json" })
        var manifest = try JSONDecoder().decode(BundleManifest.self, from: entries[index].1)
        manifest.counts["Tag"] = 7
        entries[index].1 = try JSONEncoder().encode(manifest)
        try expectRefused(try BundleFixture.zip(entries), naming: "data/Tag.jsonl") {
            ($0 as? BundleError)?.code == .manifestMismatch
        }
    }
}
