import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// The values of `PropertyList-1.0.dtd`, each read as its ``RecordValue``:
/// `<!ELEMENT plist (array | data | date | dict | real | integer | string |
/// true | false)>`, `<!ELEMENT dict (key, %plistObject;)*>`, `<!ELEMENT
/// array (%plistObject;)*>`, the scalars `(#PCDATA)`, `true`/`false` EMPTY.
struct PropertyListRecordReaderTests {
    private let files: PropertyListTestFiles

    init() throws {
        files = try PropertyListTestFiles()
    }

    /// The single record of a root array holding `dict`.
    private func record(_ dict: String) throws -> ImportRecord {
        let records = try files.records(PropertyListTestFiles.array(of: dict))
        try #require(records.count == 1)
        return records[0]
    }

    /// The value of the only field of `<dict><key>v</key>value</dict>`.
    private func value(_ element: String) throws -> RecordValue? {
        try record("<dict><key>v</key>\(element)</dict>").plistValue("v")
    }

    /// The error reading `<dict><key>v</key>value</dict>`.
    private func valueError(_ element: String) throws -> ImportError {
        try files.error(PropertyListTestFiles.array(of: "<dict><key>v</key>\(element)</dict>"))
    }

    @Test func testEveryTypeReadsAsItsValue() throws {
        let record = try record(
            """
            <dict>
                <key>string</key><string>Crêpe</string>
                <key>integer</key><integer>-42</integer>
                <key>real</key><real>2.5</real>
                <key>yes</key><true/>
                <key>no</key><false/>
                <key>date</key><date>2024-01-31T12:00:00Z</date>
                <key>data</key><data>SGVsbG8=</data>
                <key>array</key><array><integer>1</integer><string>two</string></array>
                <key>dict</key><dict><key>inner</key><string>x</string></dict>
            </dict>
            """)
        #expect(
            record.fields.map(\.key) == [
                "string", "integer", "real", "yes", "no", "date", "data", "array", "dict",
            ])
        #expect(record.plistValue("string") == .text("Crêpe"))
        #expect(record.plistValue("integer") == .integer(-42))
        #expect(record.plistValue("real") == .real(2.5))
        #expect(record.plistValue("yes") == .boolean(true))
        #expect(record.plistValue("no") == .boolean(false))
        #expect(record.plistValue("date") == .date(Date(timeIntervalSince1970: 1_706_702_400)))
        #expect(record.plistValue("data") == .data(Data("Hello".utf8)))
        guard case .array(let elements) = record.plistValue("array") else {
            Issue.record("array")
            return
        }
        #expect(elements.map(\.key) == ["0", "1"])
        #expect(elements.map(\.value) == [.integer(1), .text("two")])
        guard case .dictionary(let inner) = record.plistValue("dict") else {
            Issue.record("dict")
            return
        }
        #expect(inner.map(\.key) == ["inner"])
        #expect(inner.map(\.value) == [.text("x")])
        #expect(record.group == nil)
    }

    @Test func testEmptyElementsAreEmptyValues() throws {
        #expect(try value("<string/>") == .text(""))
        #expect(try value("<string></string>") == .text(""))
        #expect(try value("<dict/>") == .dictionary([]))
        #expect(try value("<dict>\n  </dict>") == .dictionary([]))
        #expect(try value("<array/>") == .array([]))
        #expect(try value("<array>\n</array>") == .array([]))
        #expect(try value("<data/>") == .data(Data()))
        #expect(try record("<dict><key/><string>k</string></dict>").fields.map(\.key) == [""])
        #expect(try record("<dict/>").fields.isEmpty)
    }

    @Test func testWhitespaceInsideStringIsPreserved() throws {
        #expect(
            try value("<string>  two  words \n\tand more  </string>")
                == .text("  two  words \n\tand more  "))
        #expect(try value("<string> </string>") == .text(" "))
        #expect(try value("<string>\n</string>") == .text("\n"))
        #expect(try value("<string>a\r\nb</string>") == .text("a\nb"))  // XML's line-end rule
        #expect(
            try record("<dict><key> spaced key </key><true/></dict>").fields.map(\.key)
                == [" spaced key "])
    }

    @Test func testEntitiesAndCharacterReferencesAreDecoded() throws {
        #expect(try value("<string>&amp; &lt; &gt; &quot; &apos;</string>") == .text("& < > \" '"))
        #expect(try value("<string>&#x41;&#66;&#x1F600;</string>") == .text("AB😀"))
        #expect(try record("<dict><key>a&amp;b</key><true/></dict>").fields.map(\.key) == ["a&b"])
    }

    @Test func testCDATAIsText() throws {
        #expect(try value("<string><![CDATA[<b> & </b>]]></string>") == .text("<b> & </b>"))
        #expect(try value("<string>a<![CDATA[ & ]]>b<!-- note -->c</string>") == .text("a & bc"))
        #expect(try value("<integer><![CDATA[7]]></integer>") == .integer(7))
    }

    @Test func testIntegersCoverTheSignedAndUnsigned64BitRanges() throws {
        #expect(try value("<integer>-9223372036854775808</integer>") == .integer(.min))
        #expect(try value("<integer>9223372036854775807</integer>") == .integer(.max))
        #expect(
            try value("<integer>9223372036854775808</integer>")
                == .unsignedInteger(UInt64(Int64.max) + 1))
        #expect(try value("<integer>18446744073709551615</integer>") == .unsignedInteger(.max))
        #expect(try value("<integer> +17 </integer>") == .integer(17))
        #expect(try value("<integer>-0</integer>") == .integer(0))
        #expect(try value("<integer>0x1F</integer>") == .integer(31))
        #expect(try value("<integer>-0x10</integer>") == .integer(-16))
    }

    @Test func testIntegersOutsideTheRangeOrMalformedAreLocatedErrors() throws {
        for text in ["18446744073709551616", "-9223372036854775809", "99999999999999999999999"] {
            let error = try valueError("<integer>\(text)</integer>")
            #expect(error.code == .invalidValue)
            #expect(error.message.contains("64-bit range"), "\(error)")
            #expect(error.position.line == 5)
            #expect(error.position.keyPath == "[0].v")
        }
        for text in ["", "4.2", "12abc", "- 3", "0x", "1e3"] {
            let error = try valueError("<integer>\(text)</integer>")
            #expect(error.code == .invalidValue, "\(text)")
            #expect(error.message == "<integer> is not an integer")
        }
    }

    @Test func testRealsIncludeApplesSpecialSpellings() throws {
        guard case .real(let nan) = try value("<real>nan</real>") else {
            Issue.record("nan")
            return
        }
        #expect(nan.isNaN)
        #expect(try value("<real>+infinity</real>") == .real(.infinity))
        #expect(try value("<real>-infinity</real>") == .real(-.infinity))
        #expect(try value("<real>inf</real>") == .real(.infinity))
        #expect(try value("<real>-INF</real>") == .real(-.infinity))
        #expect(try value("<real>1.5e3</real>") == .real(1500))
        #expect(try value("<real> -0.25 </real>") == .real(-0.25))
        #expect(try value("<real>.5</real>") == .real(0.5))
        #expect(try value("<real>42</real>") == .real(42))
        for text in ["", "abc", "0x1p3", "1e", "1.2.3", "--1"] {
            let error = try valueError("<real>\(text)</real>")
            #expect(error.code == .invalidValue, "\(text)")
            #expect(error.position.keyPath == "[0].v")
        }
    }

    @Test func testDatesAreISO8601InUTC() throws {
        #expect(
            try value("<date>1970-01-01T00:00:00Z</date>") == .date(Date(timeIntervalSince1970: 0)))
        #expect(
            try value("<date>2024-02-29T23:59:59Z</date>")
                == .date(Date(timeIntervalSince1970: 1_709_251_199)))
        #expect(
            try value("<date>1900-01-01T00:00:00Z</date>")
                == .date(Date(timeIntervalSince1970: -2_208_988_800)))
        #expect(
            try value("<date>2001-01-01T00:00:00.5Z</date>")
                == .date(Date(timeIntervalSinceReferenceDate: 0.5)))
        for text in [
            "", "2024-01-31", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z",
            "2024-01-31T24:00:00Z",
            "2024-01-31T12:00:00", "2024-01-31T12:00:00+01:00", "24-01-31T12:00:00Z",
        ] {
            let error = try valueError("<date>\(text)</date>")
            #expect(error.code == .invalidValue, "\(text)")
            #expect(error.message == "<date> is not a date of the form 2024-01-31T12:00:00Z")
        }
    }

    @Test func testDataIsBase64WithWhitespaceAnywhere() throws {
        #expect(
            try value("<data>\n\tSGVs\n\tbG8g\r\n d29y bGQ=\n</data>")
                == .data(Data("Hello world".utf8)))
        #expect(try value("<data>SGVsbG8</data>") == .data(Data("Hello".utf8)))
        #expect(try value("<data>AA==</data>") == .data(Data([0])))
        for text in ["SGV$bG8=", "SGVsbG8=x", "A", "A===", "AAA==", "=AAA"] {
            let error = try valueError("<data>\(text)</data>")
            #expect(error.code == .invalidValue, "\(text)")
            #expect(error.message == "<data> is not valid base64")
        }
    }

    @Test func testFieldsCarryKeyPathsLinesAndColumns() throws {
        let records = try files.records(
            """
            <plist version="1.0">
            <array>
              <dict><key>name</key><string>first</string></dict>
              <dict>
                <key>name</key>
                <string>second</string>
                <key>ingredients</key>
                <array>
                  <dict>
                    <key>name</key>
                    <string>flour</string>
                  </dict>
                </array>
              </dict>
            </array>
            </plist>
            """)
        try #require(records.count == 2)
        #expect(records[0].position.keyPath == "[0]")
        #expect(records[0].position.line == 5)
        #expect(records[0].position.column == 3)
        #expect(records[0].fields[0].position?.keyPath == "[0].name")
        #expect(records[0].fields[0].position?.column == 24)
        let second = records[1]
        #expect(second.position.keyPath == "[1]")
        #expect(second.position.line == 6)
        #expect(second.fields.map(\.position?.line) == [8, 10])
        guard case .array(let ingredients) = second.plistValue("ingredients"),
            case .dictionary(let flour) = ingredients.first?.value
        else {
            Issue.record("ingredients")
            return
        }
        #expect(ingredients[0].position?.keyPath == "[1].ingredients[0]")
        #expect(ingredients[0].position?.line == 11)
        #expect(flour[0].position?.keyPath == "[1].ingredients[0].name")
        #expect(flour[0].position?.line == 13)
        #expect(flour[0].position?.column == 9)
        let place = try #require(flour[0].position)
        #expect(place.file.hasSuffix(".plist"))
        // The byte offset is that of the element's `<`.
        let text = try String(contentsOfFile: place.file, encoding: .utf8)
        let offset = Int(place.byteOffset)
        #expect(text.utf8.dropFirst(offset).starts(with: "<string>flour".utf8))
    }

    @Test func testADictOfArraysGroupsItsRecords() throws {
        let records = try files.records(
            """
            <plist version="1.0">
            <dict>
              <key>recipes</key>
              <array>
                <dict><key>name</key><string>Crêpe</string></dict>
                <dict><key>name</key><string>Tart</string></dict>
              </array>
              <key>types</key>
              <array><dict><key>name</key><string>Dessert</string></dict></array>
              <key>empty</key>
              <array/>
            </dict>
            </plist>
            """)
        #expect(records.map(\.group) == ["recipes", "recipes", "types"])
        #expect(records.map(\.position.keyPath) == ["recipes[0]", "recipes[1]", "types[0]"])
        #expect(
            records.map { $0.plistValue("name") } == [
                .text("Crêpe"), .text("Tart"), .text("Dessert"),
            ])
        #expect(records[2].fields[0].position?.keyPath == "types[0].name")
    }

    @Test func testARootWithoutThePlistWrapperIsRead() throws {
        let path = try files.write(Data("<array><dict><key>a</key><true/></dict></array>".utf8))
        let records = try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path))
        #expect(records.map { $0.plistValue("a") } == [.boolean(true)])
        #expect(records.first?.position.keyPath == "[0]")
    }

    @Test func testAnEmptyRootHoldsNoRecords() throws {
        #expect(try files.records("<plist version=\"1.0\"><array/></plist>").isEmpty)
        #expect(try files.records("<plist version=\"1.0\"><dict/></plist>").isEmpty)
    }

    @Test func testUTF16FilesAreRead() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-16"?>
            <plist version="1.0"><array><dict><key>é</key><string>ü</string></dict></array></plist>
            """
        var data = Data([0xFF, 0xFE])
        for unit in xml.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let path = try files.write(data)
        let records = try PropertyListTestFiles.readAll(PropertyListRecordReader(path: path))
        #expect(records.first?.plistValue("é") == .text("ü"))
        #expect(records.first?.position.line == 2)
    }

    @Test func testProgressReachesTheFileSize() throws {
        let reader = try files.reader(
            PropertyListTestFiles.array(of: "<dict><key>a</key><string>x</string></dict>"))
        #expect(reader.format == .xml)
        let total = try #require(reader.totalBytes)
        _ = try PropertyListTestFiles.readAll(reader)
        #expect(reader.bytesRead == total)
    }
}
