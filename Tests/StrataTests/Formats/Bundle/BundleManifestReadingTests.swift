import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// `manifest.json` is read by Strata's one JSON reader, errors naming the
/// JSON path.
struct BundleManifestReadingTests {
    static let text = """
        {"format":"strata-bundle/1","createdBy":"Strata","future":[1,{"x":2}],
         "model":{"name":"Diary","version":3,"versionIdentifier":"3.0","hashes":{"Tag":"AAE="}},
         "counts":{"Tag":4},
         "files":[{"path":"README.txt","bytes":1234,"sha256":"ab"},
                  {"path":"data/Tag.jsonl","bytes":10,"sha256":"cd"}]}
        """

    @Test func testItReadsWhatFoundationsDecoderReadsIgnoringUnknownMembers() throws {
        let data = Data(Self.text.utf8)
        let read = try BundleManifest(json: data)
        #expect(read == (try JSONDecoder().decode(BundleManifest.self, from: data)))
        #expect(read.files.map(\.bytes) == [1234, 10])
        #expect(read.model.hashes == ["Tag": "AAE="])
    }

    @Test func testErrorsNameTheJSONPath() throws {
        func message(_ text: String) -> String? {
            do {
                _ = try BundleManifest(json: Data(text.utf8))
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            message(Self.text.replacingOccurrences(of: #""bytes":10"#, with: #""bytes":"10""#))
                == "'files[1].bytes' is not an integer")
        #expect(
            message(Self.text.replacingOccurrences(of: #""versionIdentifier":"3.0","#, with: ""))
                == "no 'model.versionIdentifier'")
        #expect(message("[]") == "the manifest is not an object")
        #expect(message("{\"format\": }")?.hasPrefix("not JSON (1:") == true)
    }
}
