import Foundation
import Testing

@testable import Strata

/// Compiled copies of the doc examples of `StrataValues/Values` and the
/// record-value JSON writing, run so the comments they show hold.
struct ValuesDocExamples {
    /// From Sources/StrataValues/Codec/JSONWriter+RecordValue.swift.
    @Test func testJSONText() throws {
        struct Summary: Encodable { var rows: Int }
        let text = try RecordValue(encoding: Summary(rows: 3)).jsonText(pretty: false)
        // {"rows":3}
        #expect(text == #"{"rows":3}"#)
    }

    /// From Sources/StrataValues/Values/RecordValue+Description.swift.
    @Test func testKindDescription() {
        let found = RecordValue.array(values: [1, 2]).kindDescription  // "an array"
        #expect(found == "an array")
        #expect((["a": 1] as RecordValue).kindDescription == "an object")
        #expect(RecordValue.boolean(false).kindDescription == "false")
        #expect(RecordValue.uid(3).kindDescription == "a number")
    }

    /// From Sources/StrataValues/Values/RecordValue+Decoding.swift.
    @Test func testDecode() throws {
        struct Medium: Decodable { var type: String; var file: String }
        let document = try JSONReader.parse(Data(#"{"type": "image", "file": "a.jpg"}"#.utf8))
        let medium = try document.decode(Medium.self)
        #expect(medium.file == "a.jpg")
    }
}
