import Foundation
import Testing

@testable import Strata

/// Issue 15, point 8 (found by fuzz-bplist): Foundation's property list
/// reader on Linux crashes on any binary plist holding a set, so Strata
/// never hands it one: store metadata and `.xccurrentversion` holding a set
/// are refused with the place of the set.
@Suite struct BinaryPropertyListFoundationTests {
    /// `{"k": [1, {"s": set(["a"])}]}` as a binary plist.
    static let withSet = PlistTestEncoder.encode(
        .dictionary([
            "k": .array([.integer(1), .dictionary(["s": .set([.string("a")])])])
        ]))

    @Test func testFirstSetNamesItsPlace() {
        #expect(BinaryPropertyList.firstSet(in: Self.withSet) == "$.k[1].s")
        #expect(
            BinaryPropertyList.firstSet(in: PlistTestEncoder.encode(.array([.string("a")])))
                == nil)
        #expect(BinaryPropertyList.firstSet(in: Data("<plist/>".utf8)) == nil)
    }

    @Test func testStoreMetadataWithASetIsRefusedNotCrashing() throws {
        let plist = PlistTestEncoder.encode(
            .dictionary([
                "NSStoreModelVersionHashes": .dictionary(["A": .data(Data([1]))]),
                "NSStoreType": .string("SQLite"),
                "Extra": .set([.data(Data([2]))]),
            ]))
        do {
            _ = try StoreMetadata(uuid: "U", plist: plist, path: "s.sqlite")
            Issue.record("metadata with a set was read")
        } catch let error as StoreError {
            #expect(error.code == .corruptMetadata)
            #expect(error.path == "s.sqlite")
            #expect(error.message.contains("holds a set at $.Extra"))
        }
    }

    @Test func testCurrentVersionFileWithASetIsRefusedNotCrashing() throws {
        let folder = try TemporaryDirectory()
        let bundle = try XcodeModelVersionReaderTests.bundle(
            in: folder,
            [
                "Model.xcdatamodel": XcodeModelVersionReaderTests.contents(
                    XcodeModelVersionReaderTests.simpleEntity)
            ])
        try PlistTestEncoder.encode(
            .dictionary(["_XCCurrentVersionName": .set([.string("Model.xcdatamodel")])])
        )
        .write(to: bundle.appendingPathComponent(".xccurrentversion"))
        do {
            _ = try XcodeModelReader().read(at: bundle)
            Issue.record("a .xccurrentversion with a set was read")
        } catch {
            #expect(error.issues.map(\.file) == [".xccurrentversion"])
            #expect(
                error.issues.first?.message.contains("holds a set at $._XCCurrentVersionName")
                    == true)
        }
    }
}
