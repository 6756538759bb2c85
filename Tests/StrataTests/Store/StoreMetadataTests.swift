import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Metadata read by the package's own binary plist reader is the metadata
/// `PropertyListSerialization` gives: on every fixture store, and on plists
/// holding every kind of value.
struct StoreMetadataTests {
    /// Every store under `Fixtures/coredata`, by path below it.
    static let fixtureStores: [String] = {
        let root = Fixtures.url("coredata")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        return (files?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "sqlite" }
            .map { String($0.path.dropFirst(root.path.count + 1)) }
            .sorted()
    }()

    @Test func testEveryFixtureStoreIsFound() {
        #expect(Self.fixtureStores.count >= 6)
    }

    @Test(arguments: fixtureStores)
    func testFixtureMetadataIsReadAsFoundationReadsIt(store relativePath: String) throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore(relativePath)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Read-only.
        let row = try store.connection.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
        try #require(try row.step())
        let uuid = try #require(row.text(at: 0))
        let plist = try #require(row.blob(at: 1))
        let foundation = try StoreMetadata(uuid: uuid, foundationPlist: plist, path: url.path)
        // Core Data's metadata takes the package's reader, with the same result.
        let own = try #require(StoreMetadata(uuid: uuid, binaryPlist: plist))
        #expect(own == foundation)
        #expect(store.metadata == foundation)
    }

    /// Metadata of the Notes model with `otherKeys` of every kind a plist
    /// holds, nested too.
    private func everyKind() throws -> StoreMetadata {
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Notes"))
        var metadata = StoreMetadata(model: chain.newest)
        metadata.otherKeys = [
            "yes": .boolean(true), "no": .boolean(false), "zero": .integer(0),
            "one": .integer(1), "byte": .integer(200), "short": .integer(40_000),
            "int": .integer(3_000_000_000), "long": .integer(1 << 62), "negative": .integer(-7),
            "min": .integer(Int64.min), "real": .real(2.5), "tiny": .real(1e-300),
            "date": .date(Date(timeIntervalSinceReferenceDate: 770_000_000.25)),
            "before2001": .date(Date(timeIntervalSinceReferenceDate: -86_400)),
            "bytes": .data(Data([0, 1, 254, 255])), "empty": .data(Data()),
            "ascii": .text("LastUpdateEventID"), "unicode": .text("Vögel, Straße, 🦆"),
            "blank": .text(""),
            "list": .array(values: [.integer(1), .text("two"), .boolean(true), .real(4.5)]),
            "nested": .dictionary(entries: [
                "flag": .boolean(false),
                "inner": .array(values: [.dictionary(entries: ["n": .integer(3)])]),
            ]),
        ]
        return metadata
    }

    @Test func testEveryKindOfValueIsReadAsFoundationReadsIt() throws {
        let written = try everyKind()
        let plist = try written.plistData()
        let uuid = written.uuid
        let foundation = try StoreMetadata(uuid: uuid, foundationPlist: plist, path: "t")
        let own = try #require(StoreMetadata(uuid: uuid, binaryPlist: plist))
        #expect(own == foundation)
        #expect(own.otherKeys == foundation.otherKeys)
        #expect(own.frameworkVersion == StoreMetadata.frameworkVersion)
    }

    @Test func testNumbersFoundationConvertsAreLeftToIt() throws {
        let written = try everyKind()
        for value in [true, 1338.75] as [Any] {
            var dictionary = try #require(
                try PropertyListSerialization.propertyList(
                    from: written.plistData(), options: [], format: nil) as? [String: Any])
            dictionary["NSPersistenceFrameworkVersion"] = value
            let plist = try PropertyListSerialization.data(
                fromPropertyList: dictionary, format: .binary, options: 0)
            #expect(StoreMetadata(uuid: written.uuid, binaryPlist: plist) == nil)
            let read = try StoreMetadata(uuid: written.uuid, plist: plist, path: "t")
            let foundation = try StoreMetadata(
                uuid: written.uuid, foundationPlist: plist, path: "t")
            #expect(read == foundation)
        }
    }

    @Test func testXMLAndBrokenPlistsGoThroughFoundation() throws {
        let written = try everyKind()
        let dictionary = try #require(
            try PropertyListSerialization.propertyList(
                from: written.plistData(), options: [], format: nil) as? [String: Any])
        let xml = try PropertyListSerialization.data(
            fromPropertyList: dictionary, format: .xml, options: 0)
        #expect(StoreMetadata(uuid: written.uuid, binaryPlist: xml) == nil)
        #expect(
            try StoreMetadata(uuid: written.uuid, plist: xml, path: "t")
                == StoreMetadata(uuid: written.uuid, foundationPlist: xml, path: "t"))

        let broken = try written.plistData().dropLast(3)
        #expect(StoreMetadata(uuid: written.uuid, binaryPlist: Data(broken)) == nil)
        #expect(throws: StoreError.self) {
            try StoreMetadata(uuid: written.uuid, plist: Data(broken), path: "t")
        }
    }
}
