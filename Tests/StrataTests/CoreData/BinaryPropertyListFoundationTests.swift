import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// Issue 15, point 8 (found by fuzz-bplist): Foundation's property list
/// reader on Linux crashes on any binary plist holding a set, so Strata
/// never hands it one: store metadata and `.xccurrentversion` holding a set,
/// or damaged so that only Foundation's lenient reader would read them, are
/// refused with the place of the set or the damage.
struct BinaryPropertyListFoundationTests {
    /// `{"k": [1, {"s": set(["a"])}]}` as a binary plist.
    static let withSet = BinaryPropertyList.encode(
        .dictionary(entries: [
            "k": .array(values: [
                .integer(1), .dictionary(entries: ["s": .set(values: [.text("a")])]),
            ])
        ]))

    @Test func testHazardNamesThePlaceOfTheSet() {
        #expect(BinaryPropertyList.foundationHazard(in: Self.withSet) == "holds a set at $.k[1].s")
        #expect(
            BinaryPropertyList.foundationHazard(
                in: BinaryPropertyList.encode(.array(values: [.text("a")])))
                == nil)
        #expect(BinaryPropertyList.foundationHazard(in: Data("<plist/>".utf8)) == nil)
    }

    /// The second finding: a metadata plist whose offset table was damaged
    /// so that this reader refuses it, while Foundation read it and met a
    /// set.
    @Test func testDamagedBinaryMetadataIsRefusedNotCrashing() throws {
        let reproducer = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Regressions/bplist/damaged-metadata-holding-a-set")
        let plist = try Data(contentsOf: reproducer)
        do {
            _ = try StoreMetadata(uuid: "U", plist: plist, path: "s.sqlite")
            Issue.record("damaged metadata was read")
        } catch let error as StoreError {
            #expect(error.code == .corruptMetadata)
            #expect(
                error.message.hasPrefix("Z_METADATA.Z_PLIST: is a damaged binary property list"))
        }
    }

    @Test func testStoreMetadataWithASetIsRefusedNotCrashing() throws {
        let plist = BinaryPropertyList.encode(
            .dictionary(entries: [
                "NSStoreModelVersionHashes": .dictionary(entries: ["A": .data(Data([1]))]),
                "NSStoreType": .text("SQLite"),
                "Extra": .set(values: [.data(Data([2]))]),
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
        try BinaryPropertyList.encode(
            .dictionary(entries: [
                "_XCCurrentVersionName": .set(values: [.text("Model.xcdatamodel")])
            ])
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
