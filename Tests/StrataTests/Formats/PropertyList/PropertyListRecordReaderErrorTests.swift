import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats

/// Malformed and hostile XML plists: each is a located ``ImportError``, and
/// the reader goes on after errors that leave the document readable.
struct PropertyListRecordReaderErrorTests {
    private let files: PropertyListTestFiles

    init() throws {
        files = try PropertyListTestFiles()
    }

    /// Reads `body` (written after the two-line prolog) call by call: a
    /// record's first field value, or the error of that call.
    private func outcomes(
        _ body: String, limits: ImportLimits = .init()
    ) throws -> [Result<RecordValue?, ImportError>] {
        let reader = try files.reader(body, limits: limits)
        var outcomes: [Result<RecordValue?, ImportError>] = []
        for _ in 0..<10 {
            do {
                guard let record = try reader.nextRecord() else { return outcomes }
                outcomes.append(.success(record.fields.first?.value))
            } catch let error as ImportError {
                outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    /// The error of the only failing call among `outcomes`.
    private func failure(_ outcomes: [Result<RecordValue?, ImportError>]) throws -> ImportError {
        let errors = outcomes.compactMap { if case .failure(let e) = $0 { e } else { nil } }
        try #require(errors.count == 1, "\(outcomes)")
        return errors[0]
    }

    /// The values read, errors left out.
    private func values(_ outcomes: [Result<RecordValue?, ImportError>]) -> [RecordValue?] {
        outcomes.compactMap { if case .success(let v) = $0 { v } else { nil } }
    }

    // MARK: - Malformed XML

    @Test func testMismatchedTagsAreSyntaxErrorsWithFileLineAndColumn() throws {
        let body = """
            <plist version="1.0">
            <array>
            <dict>
            <key>a</key><string>x</integer>
            </dict>
            </array>
            </plist>
            """
        let path = try files.write(plist: body)
        let reader = try PropertyListRecordReader(path: path)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .syntax)
        #expect(error.position.file == path)
        #expect(error.position.line == 6)
        #expect(error.position.column > 0)
        #expect(error.position.keyPath == "[0].a")
        #expect(error.message == "Opening and ending tag mismatch: string line 6 and integer")
        // A syntax error of the file sticks.
        #expect(throws: error) { try reader.nextRecord() }
    }

    @Test func testMalformedCharacterDataIsASyntaxError() throws {
        let error = try files.error(
            PropertyListTestFiles.array(
                of: "<dict><key>a</key><string>fish & chips</string></dict>"))
        #expect(error.code == .syntax)
        #expect(error.position.line == 5)
        #expect(error.position.column > 0)
    }

    @Test func testInvalidUTF8IsASyntaxError() throws {
        var data = Data(
            (PropertyListTestFiles.prolog + "<plist><array><dict><key>a</key><string>").utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data("</string></dict></array></plist>".utf8))
        let path = try files.write(data)
        let error = try #require(throws: ImportError.self) {
            try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path))
        }
        #expect(error.code == .syntax)
        #expect(error.position.line == 3)
        #expect(error.message.hasPrefix("Input is not proper UTF-8"))
    }

    @Test func testKeyWithoutValueIsAnError() throws {
        for dict in [
            "<dict>\n<key>a</key>\n</dict>",
            "<dict>\n<key>a</key>\n<key>b</key><true/></dict>",
        ] {
            let outcomes = try outcomes(
                PropertyListTestFiles.array(of: dict, "<dict><key>next</key><true/></dict>"))
            let error = try failure(outcomes)
            #expect(error.code == .syntax)
            #expect(error.message == "key a has no value")
            #expect(error.position.line == 6)
            #expect(error.position.keyPath == "[0].a")
            #expect(values(outcomes) == [.boolean(true)], "the next record is read")
        }
    }

    @Test func testValueWithoutKeyIsAnError() throws {
        let error = try files.error(
            PropertyListTestFiles.array(
                of: "<dict>\n<key>a</key><true/>\n<string>x</string></dict>"))
        #expect(error.code == .syntax)
        #expect(error.message == "<string> in a dict has no <key>")
        #expect(error.position.line == 7)
        #expect(error.position.keyPath == "[0]")
    }

    @Test func testUnknownElementIsAnError() throws {
        let error = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key>\n<integr>1</integr></dict>"))
        #expect(error.code == .syntax)
        #expect(error.message.hasPrefix("an unknown element <integr> (expected array, data"))
        #expect(error.position.line == 6)
        #expect(error.position.column == 1)
        #expect(error.position.keyPath == "[0].a")
        let root = try files.error("<plist>\n<set/>\n</plist>")
        #expect(root.code == .syntax)
        #expect(root.position.line == 4)
    }

    @Test func testTextOutsideElementsIsAnError() throws {
        let inDict = try outcomes(
            PropertyListTestFiles.array(
                of: "<dict>\nstray<key>a</key><true/></dict>", "<dict><key>b</key><false/></dict>"))
        let error = try failure(inDict)
        #expect(error.code == .syntax)
        #expect(error.message.hasPrefix("text directly inside <dict>"))
        #expect(error.position.line == 6)  // where the text ends
        #expect(values(inDict) == [.boolean(false)])
        let inRoot = try outcomes(
            "<plist>\n<array>\nstray\n<dict><key>b</key><false/></dict></array></plist>")
        #expect(try failure(inRoot).message.hasPrefix("text directly inside <array>"))
        #expect(values(inRoot) == [.boolean(false)])
    }

    @Test func testScalarsHoldOnlyText() throws {
        let nested = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key><string>x<true/>y</string></dict>"))
        #expect(nested.code == .syntax)
        #expect(nested.message == "<true> inside <string>, which holds only text")
        let inTrue = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key><true>yes</true></dict>"))
        #expect(inTrue.message == "<true> holds text; it must be empty")
        #expect(
            try files.records(
                PropertyListTestFiles.array(of: "<dict><key>a</key><true> </true></dict>")
            ).first?.plistValue("a") == .boolean(true))
        let keyInArray = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key><array><key>k</key></array></dict>"))
        #expect(keyInArray.message == "<key> in an array; keys belong in a dict")
    }

    @Test func testDuplicateKeyIsAStructureError() throws {
        let error = try files.error(
            PropertyListTestFiles.array(
                of: "<dict>\n<key>a</key><string>1</string>\n<key>a</key><string>2</string></dict>")
        )
        #expect(error.code == .structure)
        #expect(error.message.hasPrefix("key a occurs twice in one dict"))
        #expect(error.position.line == 7)
        // Past the size at which a set takes over from scanning.
        let many = (0..<40).map { "<key>k\($0)</key><true/>" }.joined()
        let large = try files.error(
            PropertyListTestFiles.array(of: "<dict>\(many)<key>k3</key><false/></dict>"))
        #expect(large.message.hasPrefix("key k3 occurs twice"))
    }

    @Test func testReadingGoesOnAfterABadValue() throws {
        let outcomes = try outcomes(
            PropertyListTestFiles.array(
                of: "<dict><key>n</key><integer>1</integer></dict>",
                "<dict><key>n</key><integer>x</integer><key>m</key><array><dict/></array></dict>",
                "<dict><key>n</key><integer>3</integer></dict>"))
        #expect(values(outcomes) == [.integer(1), .integer(3)])
        let error = try failure(outcomes)
        #expect(error.code == .invalidValue)
        #expect(error.position.keyPath == "[1].n")
        #expect(error.position.line == 6)
    }

    // MARK: - Roots that hold no records

    @Test func testScalarRootIsAStructureError() throws {
        let reader = try files.reader(
            "<plist version=\"1.0\">\n<string>just text</string>\n</plist>")
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .structure)
        #expect(error.position.line == 4)
        #expect(
            error.message == "the root is <string>; expected an array of dicts (records)"
                + " or a dict of arrays of dicts")
        #expect(throws: error) { try reader.nextRecord() }
    }

    @Test func testArrayOfScalarsNamesEachElement() throws {
        let outcomes = try outcomes(
            "<plist>\n<array>\n<string>a</string>\n<integer>2</integer>\n</array>\n</plist>")
        #expect(outcomes.count == 2)
        let errors = outcomes.compactMap { if case .failure(let e) = $0 { e } else { nil } }
        #expect(errors.map(\.code) == [.structure, .structure])
        #expect(errors.map(\.position.keyPath) == ["[0]", "[1]"])
        #expect(errors.map(\.position.line) == [5, 6])
        #expect(errors[0].message == "<string> at [0]; expected a dict (a record)")
    }

    @Test func testNonArrayValueOfARootDictIsAStructureErrorAndReadingGoesOn() throws {
        let outcomes = try outcomes(
            """
            <plist>
            <dict>
            <key>version</key>
            <integer>2</integer>
            <key>recipes</key>
            <array><dict><key>name</key><string>Tart</string></dict></array>
            <key>types</key>
            <array><string>Dessert</string></array>
            </dict>
            </plist>
            """)
        #expect(outcomes.count == 3)
        guard case .failure(let version) = outcomes[0], case .success(let tart) = outcomes[1],
            case .failure(let type) = outcomes[2]
        else {
            Issue.record("\(outcomes)")
            return
        }
        #expect(version.code == .structure)
        #expect(version.position.keyPath == "version")
        #expect(version.position.line == 6)
        #expect(version.message.hasPrefix("<integer> at version; every value of the root dict"))
        #expect(tart == .text("Tart"))
        #expect(type.position.keyPath == "types[0]")
    }

    @Test func testEmptyOrDoubledPlistIsAStructureError() throws {
        let empty = try files.error("<plist version=\"1.0\">\n</plist>")
        #expect(empty.code == .structure)
        #expect(empty.message.hasPrefix("the plist holds no value"))
        let doubled = try files.error("<plist version=\"1.0\">\n<array/>\n<array/>\n</plist>")
        #expect(doubled.code == .structure)
        #expect(doubled.position.line == 5)
    }

    // MARK: - Hostile documents

    @Test func testBillionLaughsIsRefusedBeforeAnyExpansion() throws {
        var lines = ["<!DOCTYPE plist [", "<!ENTITY lol0 \"lol\">"]
        for level in 1...9 {
            let refs = String(repeating: "&lol\(level - 1);", count: 10)
            lines.append("<!ENTITY lol\(level) \"\(refs)\">")
        }
        lines += [
            "]>", "<plist><array><dict><key>a</key><string>&lol9;</string></dict></array></plist>",
        ]
        let path = try files.write(Data(lines.joined(separator: "\n").utf8))
        let reader = try PropertyListRecordReader(path: path)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .syntax)
        #expect(error.position.line == 2)
        #expect(error.message.hasPrefix("DTD declaration <!ENTITY lol0> is not allowed"))
        #expect(reader.bytesRead < 64 * 1024)
    }

    @Test func testExternalEntityIsRefusedAndNeverRead() throws {
        let secret = try files.write(Data("SECRET-\(UUID())".utf8), name: "secret.txt")
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist [
            <!ENTITY x SYSTEM "file://\(secret)">
            ]>
            <plist><array><dict><key>a</key><string>&x;</string></dict></array></plist>
            """
        let path = try files.write(Data(body.utf8))
        let error = try #require(throws: ImportError.self) {
            try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path))
        }
        #expect(error.code == .syntax)
        #expect(error.position.line == 3)
        #expect(error.message.hasPrefix("DTD declaration <!ENTITY x> is not allowed"))
        #expect(!error.description.contains("SECRET"))
    }

    @Test func testUndeclaredEntityIsAnErrorNotDropped() throws {
        let error = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key><string>a&nbsp;b</string></dict>"))
        #expect(error.code == .syntax)
        #expect(error.position.line == 5)
        #expect(error.message.contains("nbsp"))
    }

    // MARK: - Limits

    @Test func testNestingPastTheDepthLimitIsTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumDepth = 3  // root array, record dict, one more container
        let outcomes = try outcomes(
            PropertyListTestFiles.array(
                of: "<dict><key>a</key><array><string>ok</string></array></dict>",
                "<dict><key>a</key><array><dict><key>deep</key><true/></dict></array></dict>",
                "<dict><key>b</key><false/></dict>"),
            limits: limits)
        let error = try failure(outcomes)
        #expect(error.code == .tooLarge)
        #expect(error.position.keyPath == "[1].a[0]")
        #expect(error.message == "arrays and dicts nested deeper than 3 levels")
        #expect(values(outcomes).count == 2)
    }

    @Test func testDeepNestingMeetsTheDefaultLimitFirst() throws {
        let depth = 200
        let body =
            "<plist><array><dict><key>a</key>" + String(repeating: "<array>", count: depth)
            + String(repeating: "</array>", count: depth) + "</dict></array></plist>"
        let error = try files.error(body)
        #expect(error.code == .tooLarge)
        #expect(error.message == "arrays and dicts nested deeper than 64 levels")
    }

    @Test func testSizeLimitsAreTooLarge() throws {
        var limits = ImportLimits()
        limits.maximumFieldBytes = 4
        let field = try files.error(
            PropertyListTestFiles.array(of: "<dict><key>a</key><string>12345</string></dict>"),
            limits: limits)
        #expect(field.code == .tooLarge)
        #expect(field.position.keyPath == "[0].a")

        limits = ImportLimits()
        limits.maximumFieldCount = 2
        let count = try files.error(
            PropertyListTestFiles.array(
                of: "<dict><key>a</key><true/><key>b</key><true/><key>c</key><true/></dict>"),
            limits: limits)
        #expect(count.code == .tooLarge)
        #expect(count.message == "dict of more than 2 entries")

        limits = ImportLimits()
        limits.maximumRecordBytes = 200
        let long = String(repeating: "<key>k</key><string>x</string>", count: 1)
        let filler = (0..<20).map { "<key>k\($0)</key><string>xxxxxxxxxx</string>" }.joined()
        let outcomes = try outcomes(
            PropertyListTestFiles.array(of: "<dict>\(filler)</dict>", "<dict>\(long)</dict>"),
            limits: limits)
        #expect(try failure(outcomes).code == .tooLarge)
        #expect(values(outcomes) == [.text("x")])
    }

    @Test func testTextPastTheXMLLayersLimitIsTooLarge() throws {
        var data = Data(
            (PropertyListTestFiles.prolog + "<plist><array>\n<dict><key>a</key><string>").utf8)
        data.append(Data(repeating: 0x61, count: XMLEventBuffer.maximumTextLength + 1))
        data.append(Data("</string></dict></array></plist>".utf8))
        let path = try files.write(data)
        let reader = try PropertyListRecordReader(path: path)
        let error = try #require(throws: ImportError.self) { try reader.nextRecord() }
        #expect(error.code == .tooLarge)
        #expect(error.message == "text longer than 10000000 bytes")
        #expect(error.position.line == 4)
        #expect(throws: error) { try reader.nextRecord() }
    }

    // MARK: - Files

    @Test func testUnreadableEmptyAndForeignFiles() throws {
        let missing = files.directory.file("missing.plist").path
        let unreadable = try #require(throws: ImportError.self) {
            try PropertyListRecordReader(path: missing)
        }
        #expect(unreadable.code == .unreadable)
        #expect(unreadable.position.file == missing)

        let empty = try files.write(Data())
        let emptyError = try #require(throws: ImportError.self) {
            try PropertyListTestFiles.readAll(PropertyListRecordReader(path: empty))
        }
        #expect(emptyError.code == .syntax)
        #expect(emptyError.message == "Document is empty")

        let openStep = try files.write(Data("{ name = Tart; }".utf8))
        let openStepError = try #require(throws: ImportError.self) {
            try PropertyListRecordReader(path: openStep)
        }
        #expect(openStepError.code == .structure)

        let future = try files.write(Data("bplist15".utf8) + Data(count: 40))
        let futureError = try #require(throws: ImportError.self) {
            try PropertyListRecordReader(path: future)
        }
        #expect(futureError.code == .syntax)
    }
}
