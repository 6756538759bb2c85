import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Chunk boundaries at every byte: reading with chunks of 1…16 bytes gives
/// exactly what reading with 1 MiB chunks gives, records, errors and
/// positions alike.
struct JSONRecordReaderChunkTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    static var limits: ImportLimits {
        var limits = ImportLimits()
        limits.maximumRecordBytes = 120
        limits.maximumDepth = 4
        return limits
    }

    /// The outcomes of `input` at 1 MiB, after checking that every chunk
    /// size from 1 to 16 gives the same.
    func sameAtEveryChunkSize(
        _ input: [UInt8], name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [JSONOutcome] {
        let path = try files.write(input, name: name)
        let reference = try files.readAll(path, limits: Self.limits)
        for chunkSize in 1...16 {
            let outcomes = try files.readAll(path, limits: Self.limits, chunkSize: chunkSize)
            #expect(
                outcomes == reference, "chunk size \(chunkSize)", sourceLocation: sourceLocation)
        }
        return reference
    }

    static let trickyElements = [
        #"{"s": "[ ] { } , : \" \\ \/", "[": "]", "}": "{"}"#,
        "{\"u\": \"é€😀\\u00e9\\uD83D\\uDE00\", \"n\": [-0, 1.5e-3, 18446744073709551615]}",
        "{\r\n  \"nested\": [[[1]], {\"a\": {}}],\r  \"esc\": \"\\\\\\\"\"\n}",
        "42",
        #"{"dup": 1, "dup": 2}"#,
        #"{"deep": [[[[1]]]]}"#,
        #"{"long": "........................................................................................................................"}"#,
        "{\"e\": \"\\uD800\"}",
        "{\"z\": \"last\"}",
    ]

    @Test func testArrayDocumentIsTheSameAtEveryChunkSize() throws {
        let text = "[\n  " + Self.trickyElements.joined(separator: " ,\n\t") + "\r\n]\n"
        let input = [0xEF, 0xBB, 0xBF] + Array(text.utf8) + [0x20]
        let outcomes = try sameAtEveryChunkSize(input, name: "tricky.json")
        #expect(outcomes.count == 9)
        #expect(outcomes.compactMap(\.record).count == 4)
        #expect(
            outcomes.compactMap(\.error).map(\.code) == [
                .structure, .structure, .tooLarge, .tooLarge, .encoding,
            ])
        #expect(outcomes[0].record?["s"] == .text(#"[ ] { } , : " \ /"#))
        #expect(outcomes[8].record?.position.line == 13)
    }

    @Test func testObjectOfArraysIsTheSameAtEveryChunkSize() throws {
        let text =
            "{\"first\": [" + Self.trickyElements[0...2].joined(separator: ",")
            + "],\n \"sec\\\"ond\": [\n"
            + Self.trickyElements[3...].joined(separator: ",") + "], \"empty\": []}"
        let outcomes = try sameAtEveryChunkSize(Array(text.utf8), name: "groups.json")
        #expect(outcomes.count == 9)
        #expect(outcomes.compactMap(\.record?.group) == ["first", "first", "first", "sec\"ond"])
        #expect(outcomes.last?.record?.position.keyPath == "sec\"ond[5]")
    }

    @Test func testLinesAreTheSameAtEveryChunkSize() throws {
        let lines = Self.trickyElements.map { $0.replacingOccurrences(of: "\r\n", with: " ") }
            .map {
                $0.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(
                    of: "\n", with: " ")
            }
        let text = lines.joined(separator: "\r\n\n") + "\n{\"bad\": tru}\n{\"ok\": 1}"
        let outcomes = try sameAtEveryChunkSize(Array(text.utf8), name: "tricky.ndjson")
        #expect(outcomes.count == 11)
        #expect(
            outcomes.compactMap(\.error).map(\.code) == [
                .structure, .structure, .tooLarge, .tooLarge, .encoding, .syntax,
            ])
        #expect(outcomes.last?.record?.position.line == 19)
    }

    @Test func testDetectedLinesAreTheSameAtEveryChunkSize() throws {
        let text = "{\"a\": \"} {\"}  \n\n\t{\"b\": 2}\n"
        let outcomes = try sameAtEveryChunkSize(Array(text.utf8), name: "lines.json")
        #expect(outcomes.compactMap(\.record).count == 2)
    }

    @Test func testTruncatedDocumentIsTheSameAtEveryChunkSize() throws {
        let text = "[{\"a\": \"x\"},\n {\"b\": [1, {\"c\": \"\\\""
        let outcomes = try sameAtEveryChunkSize(Array(text.utf8), name: "cut.json")
        #expect(outcomes.count == 2)
        expectError(outcomes.last, .syntax, line: 2, column: 18, message: "unterminated string")
    }
}

/// Memory stays bounded by the limits, not by the input.
struct JSONRecordReaderMemoryTests {
    @Test func testOversizedRecordIsNotBuffered() throws {
        let files = try JSONTestFiles()
        var limits = ImportLimits()
        limits.maximumRecordBytes = 1024
        let huge = "{\"a\": \"" + String(repeating: "x", count: 200_000) + "\"}"
        for (name, text) in [("big.json", "[\(huge), {}]"), ("big.ndjson", "\(huge)\n{}\n")] {
            let reader = try JSONRecordReader(
                path: files.write(text, name: name), lines: nil, limits: limits, chunkSize: 256)
            let outcomes = files.readAll(reader)
            #expect(outcomes.map { $0.error?.code } == [.tooLarge, nil])
            #expect(reader.input.capacity <= 4096, "\(name)")
        }
    }
}
