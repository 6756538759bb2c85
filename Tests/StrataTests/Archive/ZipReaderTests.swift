import Foundation
import Testing

@testable import Strata
@testable import StrataCore

/// Hostile archives, each built byte by byte, each refused with its entry
/// named.
struct ZipReaderTests {
    typealias Entry = RawZip.Entry

    /// Writes the archive and opens it with a reader.
    static func open(
        _ entries: [Entry], limits: ZipLimits = ZipLimits(), in folder: TemporaryDirectory
    ) throws -> ZipReader {
        let url = folder.file("hostile.zip")
        try RawZip(entries: entries).data().write(to: url)
        return try ZipReader(contentsOf: url, limits: limits)
    }

    /// Expects opening the archive to fail with `code`, naming `entry`.
    static func expectRefused(
        _ entries: [Entry], _ code: ArchiveError.Code, entry: String?,
        limits: ZipLimits = ZipLimits(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try TemporaryDirectory()
        let error = try #require(throws: ArchiveError.self, sourceLocation: sourceLocation) {
            _ = try open(entries, limits: limits, in: folder)
        }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.entry == entry, "\(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix(folder.file("hostile.zip").path + ": "))
    }

    /// Expects the archive to open, and reading `entry` to fail with `code`.
    static func expectReadRefused(
        _ entries: [Entry], _ code: ArchiveError.Code, entry: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let folder = try TemporaryDirectory()
        let reader = try open(entries, in: folder)
        let target = try #require(reader.entry(named: entry), sourceLocation: sourceLocation)
        let error = try #require(throws: ArchiveError.self, sourceLocation: sourceLocation) {
            try reader.read(target) { _ in }
        }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.entry == entry, "\(error)", sourceLocation: sourceLocation)
    }

    static func file(_ name: String, _ text: String = "x", deflated: Bool = false) -> Entry {
        Entry(name: name, content: Data(text.utf8), deflated: deflated)
    }

    @Test func testAnHonestArchiveReadsInOrder() throws {
        let folder = try TemporaryDirectory()
        var folderEntry = Self.file("dir/", "")
        folderEntry.externalAttributes = 0o040755 << 16
        let reader = try Self.open(
            [
                Self.file("a.txt", "alpha"), folderEntry,
                Self.file("dir/b.txt", "beta", deflated: true),
            ],
            in: folder)
        var seen: [String] = []
        while let entry = try reader.next() {
            var data = Data()
            try reader.readCurrent { data.append(contentsOf: $0) }
            seen.append("\(entry.path)=\(String(decoding: data, as: UTF8.self)) \(entry.kind)")
        }
        #expect(seen == ["a.txt=alpha file", "dir/= directory", "dir/b.txt=beta file"])
        #expect(try reader.next() == nil)
        #expect(reader.entry(named: "dir/b.txt")?.compression == .deflated)
        #expect(try reader.data(of: reader.entries[0]) == Data("alpha".utf8))
    }

    @Test func testOneReaderServesReadsFromSeveralThreadsAtOnce() throws {
        let folder = try TemporaryDirectory()
        let contents = (0..<40).map { number in
            String(repeating: "entry \(number) ", count: 200 + number * 37)
        }
        let reader = try Self.open(
            contents.enumerated().map { Self.file("f\($0.offset)", $0.element, deflated: true) },
            in: folder)
        let shared = SharedReader(reader: reader)
        let results = ReadResults(count: contents.count)
        // Four threads each read every entry, in different orders.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<contents.count {
                let index = (step * (thread + 1) + thread) % contents.count
                let entry = shared.reader.entries[index]
                let data = try? shared.reader.data(of: entry)
                results.record(index, data.map { String(decoding: $0, as: UTF8.self) })
            }
        }
        #expect(results.all == contents.map { Set<String?>([$0]) })
    }

    /// The reader handed to the threads, which only call its stateless reads.
    private struct SharedReader: @unchecked Sendable {
        let reader: ZipReader
    }

    /// What each thread read of each entry.
    private final class ReadResults: @unchecked Sendable {
        private let lock = NSLock()
        private var read: [Set<String?>]
        init(count: Int) { read = Array(repeating: [], count: count) }
        func record(_ index: Int, _ text: String?) {
            lock.withLock { _ = read[index].insert(text) }
        }
        var all: [Set<String?>] { lock.withLock { read } }
    }

    @Test func testNamesAreNormalisedAndStillMatchTheirLocalHeaders() throws {
        let folder = try TemporaryDirectory()
        let reader = try Self.open([Self.file("./dir//a.txt", "alpha")], in: folder)
        #expect(reader.entries.map(\.path) == ["dir/a.txt"])
        #expect(try reader.data(of: reader.entries[0]) == Data("alpha".utf8))
    }

    @Test func testAFolderByItsModeAloneIsSpelledWithASlash() throws {
        let folder = try TemporaryDirectory()
        var modeOnly = Self.file("dir", "")
        modeOnly.externalAttributes = 0o040755 << 16
        let reader = try Self.open([modeOnly, Self.file("dir/a.txt")], in: folder)
        #expect(reader.entries.map(\.path) == ["dir/", "dir/a.txt"])
        #expect(reader.entries[0].kind == .directory)
    }

    @Test func testZip64RecordsAreRead() throws {
        let folder = try TemporaryDirectory()
        var zip = RawZip(entries: [
            Self.file("a.txt", "alpha"), Self.file("b.txt", "beta", deflated: true),
        ])
        zip.zip64 = true
        let url = folder.file("z64.zip")
        try zip.data().write(to: url)
        let reader = try ZipReader(contentsOf: url)
        #expect(reader.entries.map(\.path) == ["a.txt", "b.txt"])
        #expect(try reader.data(of: reader.entries[0]) == Data("alpha".utf8))
        #expect(try reader.data(of: reader.entries[1]) == Data("beta".utf8))
        if let unzip = ZipWriterTests.tool("unzip") {
            let (status, output) = try ZipWriterTests.run(unzip, ["-t", url.path])
            #expect(status == 0, "\(output)")
        }
    }

    @Test func testUnsafeNamesAreRefused() throws {
        try Self.expectRefused(
            [Self.file("ok"), Self.file("../evil")], .parentReference, entry: "../evil")
        try Self.expectRefused([Self.file("a/../../evil")], .parentReference, entry: "a/../../evil")
        try Self.expectRefused([Self.file("/etc/passwd")], .absolutePath, entry: "/etc/passwd")
        try Self.expectRefused([Self.file("..\\evil")], .invalidName, entry: "..\\evil")
        try Self.expectRefused([Self.file("C:/evil")], .invalidName, entry: "C:/evil")
        try Self.expectRefused([Self.file("")], .invalidName, entry: "")
        try Self.expectRefused([Self.file("a\u{1b}[2J")], .invalidName, entry: "a\u{1b}[2J")
        try Self.expectRefused([Self.file("./")], .invalidName, entry: "./")
        var latin1 = Self.file("x")
        latin1.name = [0x63, 0x61, 0x66, 0xe9]  // "café" in Latin-1: not UTF-8.
        try Self.expectRefused([latin1], .invalidName, entry: "caf\u{fffd}")
    }

    @Test func testNamesSplitOnTheSlashByteAsTheFileSystemDoes() throws {
        // "/" then a combining accent is one Character, but two folders on disk.
        let checked = try ZipName.check(Array("a/\u{301}x/y".utf8), archive: "a.zip")
        #expect(checked.components == ["a", "\u{301}x", "y"])
        #expect(checked.path == "a/\u{301}x/y")
    }

    @Test func testAControlCharacterIsEscapedInTheMessage() throws {
        let error = ArchiveError(.invalidName, path: "a.zip", entry: "a\u{1b}[2J\"", message: "m")
        #expect(error.description == #"a.zip: entry "a\u{1b}[2J\"": m"#)
    }

    @Test func testLinksAndDevicesAreRefused() throws {
        var link = Self.file("photo.jpg", "/etc/passwd")
        link.externalAttributes = 0o120777 << 16
        try Self.expectRefused([link], .symlink, entry: "photo.jpg")
        var fifo = Self.file("pipe")
        fifo.externalAttributes = 0o010644 << 16
        try Self.expectRefused([fifo], .specialFile, entry: "pipe")
        var device = Self.file("disk")
        device.externalAttributes = 0o060644 << 16
        try Self.expectRefused([device], .specialFile, entry: "disk")
        // A zip's hard link: a second name for the same local header.
        var hardLink = Self.file("b.txt")
        hardLink.sharesHeaderOf = 0
        try Self.expectRefused([Self.file("a.txt"), hardLink], .hardLink, entry: "b.txt")
    }

    @Test func testDuplicateNamesAreRefused() throws {
        try Self.expectRefused(
            [Self.file("a.txt"), Self.file("a.txt")], .duplicateName, entry: "a.txt")
        try Self.expectRefused(
            [Self.file("a.txt"), Self.file("./A.TXT")], .duplicateName, entry: "A.TXT")
        // "é" composed and decomposed.
        try Self.expectRefused(
            [Self.file("caf\u{e9}"), Self.file("cafe\u{301}")], .duplicateName, entry: "cafe\u{301}"
        )
        try Self.expectRefused([Self.file("a"), Self.file("a/b")], .duplicateName, entry: "a/b")
        try Self.expectRefused([Self.file("a/b"), Self.file("a")], .duplicateName, entry: "a")
    }

    @Test func testBombsAreRefusedBeforeReading() throws {
        // 20 MB of zeros deflate about 1000 : 1.
        var ratio = Self.file("zeros.bin")
        ratio.payload = [UInt8](try RawDeflate.deflate(Data(count: 20 << 20)))
        ratio.method = 8
        ratio.size = 20 << 20
        ratio.compressedSize = UInt32(ratio.payload.count)
        try Self.expectRefused([Self.file("a"), ratio], .compressionRatio, entry: "zeros.bin")

        var limits = ZipLimits()
        limits.maxTotalSize = 10
        try Self.expectRefused(
            [Self.file("a", "123456"), Self.file("b", "123456")], .totalTooLarge, entry: "b",
            limits: limits)
        limits = ZipLimits()
        limits.maxEntrySize = 5
        try Self.expectRefused(
            [Self.file("a", "123456")], .entryTooLarge, entry: "a", limits: limits)
        limits = ZipLimits()
        limits.maxEntries = 2
        try Self.expectRefused(
            [Self.file("a"), Self.file("b"), Self.file("c")], .tooManyEntries, entry: nil,
            limits: limits)
    }

    @Test func testAnEntryThatInflatesBeyondItsSizeIsStopped() throws {
        var liar = Self.file("a.txt", String(repeating: "abc", count: 100_000), deflated: true)
        liar.size = 1000
        try Self.expectReadRefused([liar], .sizeMismatch, entry: "a.txt")
        var short = Self.file("b.txt", "hello", deflated: true)
        short.size = 6
        try Self.expectReadRefused([short], .sizeMismatch, entry: "b.txt")
    }

    @Test func testABadChecksumIsRefused() throws {
        var bad = Self.file("a.txt", "hello", deflated: true)
        bad.crc ^= 1
        try Self.expectReadRefused([Self.file("ok"), bad], .checksumMismatch, entry: "a.txt")
    }

    @Test func testCorruptDeflatedDataIsRefused() throws {
        var bad = Self.file("a.txt", "hello")
        bad.method = 8
        bad.payload = [0xff, 0xff, 0xff, 0xff, 0xff]
        bad.compressedSize = 5
        try Self.expectReadRefused([bad], .corrupt, entry: "a.txt")
    }

    @Test func testALocalHeaderThatDisagreesIsRefused() throws {
        // unzip and zipfile trust the directory's name, a streaming reader
        // the local one: the two must agree. (Same length: honest offsets.)
        var smuggler = Self.file("photo.js!")
        smuggler.localName = Array("photo.jpg".utf8)
        try Self.expectReadRefused([smuggler], .corrupt, entry: "photo.js!")
    }

    @Test func testOverlappingEntriesAreRefused() throws {
        var second = Self.file("b.txt", "bbbb")
        second.offsetShift = -3  // Points into the first entry's data.
        try Self.expectRefused(
            [Self.file("a.txt", "aaaa"), second], .overlappingEntries, entry: "a.txt")
    }

    @Test func testUnsupportedEntriesAreRefused() throws {
        var encrypted = Self.file("a")
        encrypted.flags |= 1
        try Self.expectRefused([encrypted], .unsupported, entry: "a")
        var bzip = Self.file("b")
        bzip.method = 12
        try Self.expectRefused([bzip], .unsupported, entry: "b")
    }

    @Test func testEveryTruncationIsAnErrorNotACrash() throws {
        let folder = try TemporaryDirectory()
        let whole = RawZip(entries: [
            Self.file("a.txt", "alpha", deflated: true), Self.file("b.txt", "beta"),
        ]).data()
        let url = folder.file("cut.zip")
        for length in 0..<whole.count {
            try whole.prefix(length).write(to: url)
            #expect(throws: ArchiveError.self, "\(length) bytes") {
                let reader = try ZipReader(contentsOf: url)
                for entry in reader.entries { try reader.read(entry) { _ in } }
            }
        }
        // A zip written by ZipWriter, cut inside its data: the directory is
        // gone, so the archive is refused as truncated.
        let written = folder.file("written.zip")
        try ZipWriter.write(to: written) { zip in
            try zip.add(path: "a.bin", bytes: ZipWriterTests.noise(count: 100_000))
        }
        let bytes = try Data(contentsOf: written)
        try bytes.prefix(bytes.count / 2).write(to: url)
        let error = try #require(throws: ArchiveError.self) { try ZipReader(contentsOf: url) }
        #expect(error.code == .truncated)
    }

    @Test func testGarbageInTheDirectoryIsAnErrorNotACrash() throws {
        let folder = try TemporaryDirectory()
        let whole = [UInt8](
            RawZip(entries: [Self.file("a.txt", "alpha", deflated: true), Self.file("b", "b")])
                .data())
        let url = folder.file("flipped.zip")
        // Flip each byte in turn: every outcome is a clean read or an error.
        for index in whole.indices {
            var bytes = whole
            bytes[index] ^= 0xff
            try Data(bytes).write(to: url)
            do {
                let reader = try ZipReader(contentsOf: url)
                for entry in reader.entries { try reader.read(entry) { _ in } }
            } catch let error as ArchiveError {
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test func testDamageToAWrittenArchiveIsAnErrorNotACrash() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("written.zip")
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "a.txt", bytes: Data("alpha alpha alpha".utf8))
            try zip.add(path: "b/c.bin", bytes: Data("gamma".utf8), compression: .stored)
            try zip.add(path: "d.jsonl") { try $0.write("{\"n\":1}\n") }
        }
        let whole = [UInt8](try Data(contentsOf: url))
        let damaged = folder.file("damaged.zip")
        var refused = 0
        for index in whole.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var bytes = whole
                bytes[index] ^= mask
                try Data(bytes).write(to: damaged)
                do {
                    let reader = try ZipReader(contentsOf: damaged)
                    for entry in reader.entries { try reader.read(entry) { _ in } }
                } catch let error as ArchiveError {
                    #expect(!error.message.isEmpty)
                    refused += 1
                }
            }
        }
        // Flips in fields no reader needs (times, versions, attributes, extra
        // fields, the local copies a data descriptor overrides) are
        // harmless; the rest land on names, sizes, offsets, checksums or
        // data and are refused.
        #expect(refused > whole.count * 2 / 5)
    }
}
