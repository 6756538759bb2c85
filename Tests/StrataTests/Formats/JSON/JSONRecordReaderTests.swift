import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// RFC 8259 documents read as records: shapes, values, positions.
struct JSONRecordReaderTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    @Test func testArrayOfObjectsGivesOneRecordPerElementWithPositions() throws {
        let path = try files.write("[\n  {\"a\": 1},\n  {\"b\": \"x\"}\n]")
        let outcomes = try files.readAll(path)
        #expect(outcomes.count == 2)
        let first = outcomes[0].record
        expectPosition(first?.position, line: 2, column: 3, byteOffset: 4, keyPath: "[0]")
        expectPosition(
            first?.field("a")?.position, line: 2, column: 9, byteOffset: 10, keyPath: "[0].a")
        #expect(first?["a"] == .integer(1))
        #expect(first?.group == nil)
        let second = outcomes[1].record
        expectPosition(second?.position, line: 3, column: 3, byteOffset: 16, keyPath: "[1]")
        expectPosition(
            second?.field("b")?.position, line: 3, column: 9, byteOffset: 22, keyPath: "[1].b")
        #expect(second?["b"] == .text("x"))
    }

    @Test func testEveryValueTypeAndNestedPositions() throws {
        let text = """
            [{"s": "text", "i": -12, "r": 2.5, "t": true, "f": false, "n": null,
              "ingredients": [{"name": "flour", "grams": 200}, {"name": "egg"}],
              "o": {"deep": [[1], {}]}}]
            """
        let outcomes = try files.outcomes(text)
        #expect(outcomes.count == 1)
        guard let record = outcomes.first?.record else {
            Issue.record("expected a record: \(outcomes)")
            return
        }
        #expect(record.fields.map(\.key) == ["s", "i", "r", "t", "f", "n", "ingredients", "o"])
        #expect(record["s"] == .text("text"))
        #expect(record["i"] == .integer(-12))
        #expect(record["r"] == .real(2.5))
        #expect(record["t"] == .boolean(true))
        #expect(record["f"] == .boolean(false))
        #expect(record["n"] == .null)
        guard case .array(let ingredients) = record["ingredients"],
            case .dictionary(let egg) = ingredients.last?.value,
            case .dictionary(let object) = record["o"],
            case .array(let deep) = object.first?.value
        else {
            Issue.record("unexpected shapes: \(record)")
            return
        }
        #expect(ingredients.map(\.key) == ["0", "1"])
        expectPosition(
            ingredients[1].position, line: 2, column: 52, byteOffset: 120,
            keyPath: "[0].ingredients[1]")
        expectPosition(
            egg[0].position, line: 2, column: 61, byteOffset: 129,
            keyPath: "[0].ingredients[1].name")
        #expect(egg[0].value == .text("egg"))
        #expect(deep.count == 2)
        expectPosition(
            deep[1].position, line: 3, column: 23, byteOffset: 160, keyPath: "[0].o.deep[1]")
        #expect(deep[1].value == .dictionary([]))
        guard case .array(let inner) = deep[0].value else {
            Issue.record("expected an array")
            return
        }
        #expect(inner.map(\.value) == [.integer(1)])
        #expect(inner.first?.position?.keyPath == "[0].o.deep[0][0]")
    }

    @Test func testObjectOfArraysSetsGroupAndKeyPaths() throws {
        let text = #"{"recipes": [{"n": 1}], "types": [{"t": 2}, {"t": 3}], "none": []}"#
        let outcomes = try files.outcomes(text)
        #expect(outcomes.compactMap(\.record?.group) == ["recipes", "types", "types"])
        #expect(
            outcomes.compactMap(\.record?.position.keyPath) == [
                "recipes[0]", "types[0]", "types[1]",
            ])
        expectPosition(
            outcomes[2].record?.position, line: 1, column: 45, byteOffset: 44, keyPath: "types[1]")
        expectPosition(
            outcomes[2].record?.field("t")?.position, line: 1, column: 51, byteOffset: 50,
            keyPath: "types[1].t")
    }

    @Test func testEmptyArrayAndEmptyObjectGiveNoRecords() throws {
        #expect(try files.outcomes(" [ ] ").isEmpty)
        #expect(try files.outcomes("{}\n").isEmpty)
        #expect(try files.outcomes(#"{"a": [], "b": []}"#).isEmpty)
    }

    @Test func testStringEscapesAndSurrogatePairs() throws {
        let text = #"[{"e": "\"\\\/\b\f\n\r\t\u00e9\u20AC\uD83D\uDE00 é€😀"}]"#
        let record = try files.outcomes(text).first?.record
        #expect(record?["e"] == .text("\"\\/\u{08}\u{0C}\n\r\té€😀 é€😀"))
    }

    @Test func testNumbersKeepTheirKind() throws {
        let text = """
            [{"zero": -0, "negativeReal": -0.0, "exponent": 1E2, "fraction": 0.5e-1,
              "max": 9223372036854775807, "min": -9223372036854775808,
              "aboveMax": 9223372036854775808, "unsignedMax": 18446744073709551615,
              "beyond": 18446744073709551616, "belowMin": -9223372036854775809,
              "tiny": 1e-400, "realLooking": 18446744073709551615.0}]
            """
        guard let record = try files.outcomes(text).first?.record else {
            Issue.record("expected a record")
            return
        }
        #expect(record["zero"] == .integer(0))
        guard case .real(let negativeZero) = record["negativeReal"] else {
            Issue.record("expected a real")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(record["exponent"] == .real(100))
        #expect(record["fraction"] == .real(0.05))
        #expect(record["max"] == .integer(.max))
        #expect(record["min"] == .integer(.min))
        #expect(record["aboveMax"] == .unsignedInteger(9_223_372_036_854_775_808))
        #expect(record["unsignedMax"] == .unsignedInteger(.max))
        #expect(record["beyond"] == .real(18_446_744_073_709_551_616))
        #expect(record["belowMin"] == .real(-0x1p63))  // -2^63 - 1 as a Double is -2^63
        #expect(record["tiny"] == .real(0))
        #expect(record["realLooking"] == .real(18_446_744_073_709_551_615.0))
    }

    @Test func testNumberBeyondDoubleRangeIsAnInvalidValueAndReadingGoesOn() throws {
        let outcomes = try files.outcomes("[{\"a\": 1},\n {\"big\": 1e400}, {\"c\": 3}]")
        #expect(outcomes.count == 3)
        expectError(
            outcomes[1], .invalidValue, line: 2, column: 10, byteOffset: 20, keyPath: "[1]",
            message: "number out of range")
        #expect(outcomes[2].record?["c"] == .integer(3))
    }

    @Test func testEveryKindOfWhitespaceAndLineBreak() throws {
        // Space, tab, LF, CR and CRLF between tokens; CR alone ends a line too, so the
        // lines are: "\t[ ", "{\t\"a\"", ":", "1 ,\"b\" : [ 2 ,\t3 ] }", ",", " {}", "]".
        let text = "\t[ \r\n{\t\"a\"\r:\n1 ,\"b\" : [ 2 ,\t3 ] }\r,\r\n {}\n]\n\t "
        let outcomes = try files.outcomes(text)
        #expect(outcomes.count == 2)
        let record = outcomes[0].record
        expectPosition(record?.position, line: 2, column: 1, byteOffset: 5, keyPath: "[0]")
        expectPosition(
            record?.field("a")?.position, line: 4, column: 1, byteOffset: 13, keyPath: "[0].a")
        expectPosition(
            record?.field("b")?.position, line: 4, column: 10, byteOffset: 22, keyPath: "[0].b")
        expectPosition(
            outcomes[1].record?.position, line: 6, column: 2, byteOffset: 38, keyPath: "[1]")
    }

    @Test func testStructuralCharactersInsideStringsAreText() throws {
        let text = #"[{"a": "[ ] { } , : \" \\", "[": "}"}, {"b": "\\\""}, {"c": ",]"}]"#
        let outcomes = try files.outcomes(text)
        #expect(
            outcomes.map { $0.record?.fields.map(\.value) ?? [] } == [
                [.text(#"[ ] { } , : " \"#), .text("}")], [.text(#"\""#)], [.text(",]")],
            ])
    }

    @Test func testColumnsCountCharactersAndOffsetsCountBytes() throws {
        let text = "[{\"éé\": \"€\"}, {\"b\": 2}]"
        let outcomes = try files.outcomes(text)
        expectPosition(
            outcomes[0].record?.field("éé")?.position, line: 1, column: 9, byteOffset: 10,
            keyPath: "[0].éé")
        expectPosition(
            outcomes[1].record?.position, line: 1, column: 15, byteOffset: 18, keyPath: "[1]")
        expectPosition(
            outcomes[1].record?.field("b")?.position, line: 1, column: 21, byteOffset: 24,
            keyPath: "[1].b")
    }

    @Test func testByteOrderMarkIsSkipped() throws {
        let path = try files.write([0xEF, 0xBB, 0xBF] + Array(#"[{"a": 1}]"#.utf8))
        let outcomes = try files.readAll(path)
        expectPosition(
            outcomes.first?.record?.position, line: 1, column: 2, byteOffset: 4, keyPath: "[0]")
        #expect(outcomes.first?.record?["a"] == .integer(1))
    }

    @Test func testOriginalTextIsTheElementsExactBytes() throws {
        let element = "{ \"a\" : 1.50,\n  \"b\": \"\\u00e9\" }"
        let outcomes = try files.outcomes("[\(element) , {}]")
        #expect(outcomes.first?.record?.originalText == Data(element.utf8))
        #expect(outcomes.last?.record?.originalText == Data("{}".utf8))
    }

    @Test func testBytesReadAdvancesWithEachRecordUpToTheFileSize() throws {
        let text = "[" + (0..<50).map { #"{"n": \#($0)}"# }.joined(separator: ",\n") + "]"
        let path = try files.write(text)
        let reader = try JSONRecordReader(path: path, lines: nil, limits: .init(), chunkSize: 64)
        #expect(reader.totalBytes == Int64(text.utf8.count))
        #expect(reader.bytesRead == 0)
        var previous: Int64 = 0
        var count = 0
        while let record = try reader.nextRecord() {
            #expect(reader.bytesRead > previous)
            #expect(
                reader.bytesRead == record.position.byteOffset
                    + Int64(record.originalText?.count ?? 0))
            previous = reader.bytesRead
            count += 1
        }
        #expect(count == 50)
        #expect(reader.bytesRead == reader.totalBytes)
    }

    @Test func testShapeIsDetectedFromExtensionAndContents() throws {
        let twoLines = "{\"a\": 1}\n{\"a\": 2}\n"
        #expect(try JSONRecordReader(path: files.write(twoLines, name: "a.json")).isLines)
        #expect(try JSONRecordReader(path: files.write(twoLines, name: "a.ndjson")).isLines)
        #expect(try JSONRecordReader(path: files.write("[{}]", name: "a.JSONL")).isLines)
        #expect(try !JSONRecordReader(path: files.write("[{}]\n[{}]", name: "b.json")).isLines)
        #expect(try !JSONRecordReader(path: files.write(#"{"r": [{}]}"#, name: "c.json")).isLines)
        #expect(
            try !JSONRecordReader(path: files.write("{\n\"r\": [{}]\n}\n{}", name: "d.json"))
                .isLines)
        #expect(
            try !JSONRecordReader(path: files.write("{\"a\": 1} {\"a\": 2}", name: "e.json"))
                .isLines)
        #expect(
            try !JSONRecordReader(path: files.write(twoLines, name: "f.json"), lines: false).isLines
        )
        #expect(try JSONRecordReader(path: files.write("", name: "g.txt"), lines: true).isLines)
    }

    @Test func testUnreadableFileIsAnUnreadableError() throws {
        #expect {
            _ = try JSONRecordReader(path: files.folder.file("missing.json").path)
        } throws: { ($0 as? ImportError)?.code == .unreadable }
        #expect {
            _ = try JSONRecordReader(path: files.folder.url.path)
        } throws: { ($0 as? ImportError)?.code == .unreadable }
    }
}
