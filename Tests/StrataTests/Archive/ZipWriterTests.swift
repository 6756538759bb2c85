import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct ZipWriterTests {
    /// Bytes that deflate well and span several chunks.
    static let text = Data((0..<600_000).map { UInt8(truncatingIfNeeded: $0 % 251 + $0 / 997) })

    /// Writes a small archive of every kind of entry.
    static func writeSample(to url: URL) throws {
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "README.txt", bytes: Data("hello\n".utf8))
            try zip.add(path: "data/big.bin", bytes: text, compression: .stored)
            try zip.add(path: "data/deflated.bin", bytes: text, compression: .deflated)
            try zip.add(path: "data/lines.jsonl") { sink in
                for number in 0..<1000 { try sink.write("{\"n\":\(number)}\n") }
            }
            try zip.add(path: "data/chunks.bin", compression: .stored, chunks: [text, text])
            try zip.add(path: "empty.txt", bytes: Data())
            try zip.add(path: "naïve/ümlaut.txt", bytes: Data("é".utf8))
        }
    }

    /// Every entry's bytes, read back through ZipReader.
    static func contents(of url: URL) throws -> [String: Data] {
        let reader = try ZipReader(contentsOf: url)
        var result: [String: Data] = [:]
        while let entry = try reader.next() {
            var data = Data()
            try reader.readCurrent { data.append(contentsOf: $0) }
            result[entry.path] = data
        }
        return result
    }

    @Test func testRoundTripRestoresEveryEntry() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("a.zip")
        try Self.writeSample(to: url)
        let reader = try ZipReader(contentsOf: url)
        #expect(
            reader.entries.map(\.path) == [
                "README.txt", "data/big.bin", "data/deflated.bin", "data/lines.jsonl",
                "data/chunks.bin", "empty.txt", "naïve/ümlaut.txt",
            ])
        #expect(
            reader.entries.map(\.compression) == [
                .deflated, .stored, .deflated, .deflated, .stored, .deflated, .deflated,
            ])
        let contents = try Self.contents(of: url)
        #expect(contents["README.txt"] == Data("hello\n".utf8))
        #expect(contents["data/big.bin"] == Self.text)
        #expect(contents["data/deflated.bin"] == Self.text)
        let lines = (0..<1000).map { "{\"n\":\($0)}\n" }.joined()
        #expect(contents["data/lines.jsonl"] == Data(lines.utf8))
        #expect(contents["data/chunks.bin"] == Self.text + Self.text)
        #expect(contents["empty.txt"] == Data())
        #expect(contents["naïve/ümlaut.txt"] == Data("é".utf8))
        let deflated = try #require(reader.entry(named: "data/deflated.bin"))
        #expect(deflated.compressedSize < deflated.size / 2)
    }

    @Test func testTheSameCallsGiveIdenticalBytes() throws {
        let folder = try TemporaryDirectory()
        try Self.writeSample(to: folder.file("one.zip"))
        try Self.writeSample(to: folder.file("two.zip"))
        let one = try Data(contentsOf: folder.file("one.zip"))
        #expect(one == (try Data(contentsOf: folder.file("two.zip"))))
        // The first local header: a data descriptor (flag bit 3; bit 11,
        // UTF-8, only on non-ASCII names), and the DOS date 1980-01-01 00:00
        // whatever the time zone, since no modification time is recorded.
        #expect([UInt8](one[0..<4]) == [0x50, 0x4b, 0x03, 0x04])
        #expect([UInt8](one[6..<8]) == [0x08, 0x00])
        #expect([UInt8](one[10..<14]) == [0x00, 0x00, 0x21, 0x00])
    }

    @Test func testInfoZipAndPythonReadTheArchive() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("a.zip")
        try Self.writeSample(to: url)
        if let unzip = Self.tool("unzip") {
            let (status, output) = try Self.run(unzip, ["-t", url.path])
            #expect(status == 0, "\(output)")
            #expect(output.contains("No errors detected"))
        }
        if let python = Self.tool("python3") {
            let script = """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                assert z.testzip() is None
                print(",".join(i.filename for i in z.infolist()))
                print(len(z.read("data/chunks.bin")))
                """
            let (status, output) = try Self.run(python, ["-c", script, url.path])
            #expect(status == 0, "\(output)")
            #expect(
                output == "README.txt,data/big.bin,data/deflated.bin,data/lines.jsonl,"
                    + "data/chunks.bin,empty.txt,naïve/ümlaut.txt\n1200000\n")
        }
    }

    @Test func testUnsafeAndDuplicateNamesAreRefused() throws {
        let folder = try TemporaryDirectory()
        try ZipWriter.write(to: folder.file("a.zip")) { zip in
            try zip.add(path: "a/b.txt", bytes: Data())
            for name in ["../x", "/x", "a\\b", "C:/x", "", "./x", "a//b", "x/"] {
                #expect(throws: ArchiveError.self, "\(name)") {
                    try zip.add(path: name, bytes: Data())
                }
            }
        }
        let error = try #require(throws: ArchiveError.self) {
            try ZipWriter.write(to: folder.file("b.zip")) { zip in
                try zip.add(path: "a.txt", bytes: Data())
                try zip.add(path: "A.TXT", bytes: Data())
            }
        }
        #expect(error.code == .duplicateName)
        #expect(error.entry == "A.TXT")
        #expect(try folder.namesWithoutWAL() == ["a.zip"])
    }

    @Test func testAnExistingFileIsNotReplacedUnlessAsked() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("a.zip")
        try Data("old".utf8).write(to: url)
        let error = try #require(throws: ArchiveError.self) {
            try ZipWriter.write(to: url) { try $0.add(path: "a", bytes: Data()) }
        }
        #expect(error.code == .alreadyExists)
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        #expect(throws: ArchiveError.self) { try ZipWriter(creatingAt: url) }
        try ZipWriter.write(to: url, replacing: true) {
            try $0.add(path: "a", bytes: Data("new".utf8))
        }
        #expect(try Self.contents(of: url) == ["a": Data("new".utf8)])
        #expect(try folder.namesWithoutWAL() == ["a.zip"])
    }

    @Test func testAFailingBodyLeavesNoFile() throws {
        struct Stop: Error {}
        let folder = try TemporaryDirectory()
        #expect(throws: Stop.self) {
            try ZipWriter.write(to: folder.file("a.zip")) { zip in
                try zip.add(path: "a", bytes: Data("a".utf8))
                try zip.add(path: "b") { sink in
                    try sink.write("partial")
                    throw Stop()
                }
            }
        }
        #expect(try folder.namesWithoutWAL() == [])
    }

    @Test func testAFileIsCopiedInChunks() throws {
        let folder = try TemporaryDirectory()
        let source = folder.file("source.bin")
        // A few MB of incompressible-looking bytes, several writer chunks.
        let big = Self.noise(count: 3 << 20)
        try big.write(to: source)
        let url = folder.file("a.zip")
        try ZipWriter.write(to: url) { zip in
            try zip.add(path: "stored.bin", contentsOf: source, compression: .stored)
            try zip.add(path: "deflated.bin", contentsOf: source)
        }
        let reader = try ZipReader(contentsOf: url)
        for entry in reader.entries {
            var largestChunk = 0
            var data = Data()
            try reader.read(entry) { chunk in
                largestChunk = max(largestChunk, chunk.count)
                data.append(contentsOf: chunk)
            }
            #expect(data == big, "\(entry.path)")
            #expect(largestChunk <= ZipEntryInput.chunkSize)
        }
    }

    /// An entry made on the fly, bigger than any buffer, streamed in and
    /// out: the writer takes 64 KB chunks, the reader hands back chunks of
    /// at most its buffer size, and the bytes match.
    @Test func testABigStreamedEntryRoundTrips() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("big.zip")
        let chunk = Self.noise(count: 64 * 1024)
        let chunks = 128  // 8 MiB.
        try ZipWriter.write(to: url) { zip in
            for compression in [ZipCompression.stored, .deflated] {
                try zip.add(path: "\(compression).bin", compression: compression) { sink in
                    for _ in 0..<chunks { try sink.write(chunk) }
                    #expect(sink.count == Int64(chunks * chunk.count))
                }
            }
        }
        let reader = try ZipReader(contentsOf: url)
        for entry in reader.entries {
            #expect(entry.size == Int64(chunks * chunk.count))
            var position = 0
            var matches = true
            try reader.read(entry) { part in
                #expect(part.count <= ZipEntryInput.chunkSize)
                for byte in part {
                    if byte != chunk[position % chunk.count] { matches = false }
                    position += 1
                }
            }
            #expect(matches, "\(entry.path)")
            #expect(position == chunks * chunk.count)
        }
    }

    // MARK: - Helpers

    /// Bytes that do not deflate, from a fixed seed (xorshift).
    static func noise(count: Int) -> Data {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        var bytes = [UInt8](repeating: 0, count: count)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// A tool on the PATH, if installed.
    static func tool(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Runs a tool; returns its status and its output (stdout and stderr).
    static func run(_ tool: URL, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
