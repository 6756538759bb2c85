import Foundation
import Testing

@testable import Strata

/// Decoding `Decodable` types from the one value model: the reverse of
/// `RecordValue(encoding:)`, agreeing with `JSONDecoder` on JSON text, and
/// errors that name the key path, the line and column, and what was found.
struct RecordValueDecodingTests {
    struct Medium: Codable, Equatable {
        var type: String
        var file: String
        var size: Int8?
    }

    struct Entry: Codable, Equatable {
        var created: Date
        var text: String?
        var media: [Medium]
        var tags: Set<String>
        var scores: [String: Double]
        var thumbnail: Data
        var link: URL
        var id: UUID
        var price: Decimal
        var flags: [Bool]
    }

    static let entry = Entry(
        created: Date(timeIntervalSinceReferenceDate: 802_512_000),
        text: nil,
        media: [
            Medium(type: "image", file: "a.jpg", size: 3), Medium(type: "sound", file: "b.m4a"),
        ],
        tags: ["paris", "travel"], scores: ["light": 0.5, "sound": 2],
        thumbnail: Data([0, 1, 254, 255]), link: URL(fileURLWithPath: "/a b"),
        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
        price: Decimal(12.5), flags: [true, false])

    /// The error decoding `T` from `json` throws, as its description.
    private func failure<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            _ = try JSONReader.parse(json).decode(type)
            return nil
        } catch DecodingError.typeMismatch(_, let context),
            DecodingError.keyNotFound(_, let context),
            DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context)
        {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    @Test func whatIsEncodedDecodesBackEqual() throws {
        let value = try RecordValue(encoding: Self.entry)
        #expect(try value.decode(Entry.self) == Self.entry)
    }

    @Test func jsonTextDecodesAsJSONDecoderDecodesIt() throws {
        let json = #"""
            {"created": 802512000, "text": "day one", "media": [{"type": "image", "file": "a.jpg"}],
             "tags": ["paris"], "scores": {"light": 1}, "thumbnail": "AAH+/w==",
             "link": "https://example.com/", "id": "01020304-0506-0708-090A-0B0C0D0E0F10",
             "price": 12.5, "flags": []}
            """#
        let expected = try JSONDecoder().decode(Entry.self, from: Data(json.utf8))
        #expect(try JSONReader.parse(json).decode(Entry.self) == expected)
    }

    @Test func scalarsReadTheirUsualSpellings() throws {
        #expect(try RecordValue.real(2).decode(Int.self) == 2)
        #expect(try RecordValue.unsignedInteger(7).decode(UInt8.self) == 7)
        #expect(
            try RecordValue.text("2026-06-06T00:00:00Z").decode(Date.self)
                == Date(timeIntervalSinceReferenceDate: 802_396_800))
        #expect(try RecordValue.data(Data([9])).decode(Data.self) == Data([9]))
        #expect(try RecordValue.null.decode(Int?.self) == nil)
        // A key written twice reads as its last value.
        #expect(
            try JSONReader.parse(#"{"type": "a", "file": "x", "type": "b"}"#).decode(
                Medium.self
            ).type == "b")
    }

    @Test func errorsNameThePathTheLineAndWhatWasFound() {
        let wrongKind = failure(Entry.self, "{\n  \"created\": \"soon\"\n}")
        #expect(
            wrongKind
                == "expected a date (ISO 8601 text or seconds since 2001) at created "
                + "(line 2, column 14), found a string")
        let missing = failure([Medium].self, #"[{"type": "image", "file": "a"}, {"type": "x"}]"#)
        #expect(missing == #"expected a member "file" in the object at [1] (line 1, column 34)"#)
        let tooLarge = failure(Medium.self, #"{"type": "a", "file": "b", "size": 300}"#)
        #expect(
            tooLarge
                == "expected an integer that fits Int8 at size (line 1, column 36), found a number")
        #expect(
            failure([Int].self, #"{"a": 1}"#)
                == "expected an array (line 1, column 1), found an object")
    }
}
