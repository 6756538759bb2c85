import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Reading real Core Data stores: rows through the WAL, ordered to-many
/// relationships by `Z_FOK_`, a reflexive many-to-many join table found by
/// name, dates from the 2001 epoch, external-storage blobs.
struct StoreReaderTests {
    /// Titles of the objects `references` points at.
    private func titles(_ references: [ObjectReference], _ all: [Int64: StoredObject]) -> [String] {
        references.map { reference in
            if case .string(let title)? = all[reference.primaryKey]?.attributes["title"] {
                return title
            }
            return "?"
        }
    }

    private func readAll(_ reader: StoreReader) throws -> [Int64: StoredObject] {
        var objects: [Int64: StoredObject] = [:]
        try reader.forEachObject(of: "BookmarkEntity") { objects[$0.reference.primaryKey] = $0 }
        return objects
    }

    private func root(_ name: String, _ all: [Int64: StoredObject]) throws -> ObjectReference {
        try #require(all.values.first { $0.attributes["uuid"] == .string(name) }).reference
    }

    @Test(arguments: 1...5)
    func testBookmarksAreReadThroughTheWALInTheirOrder(version: Int) throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V\(version).sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let reader = try StoreReader(
            store: store, model: try #require(FixtureModels.bookmarks(version)))
        let all = try readAll(reader)
        #expect(all.count == 10)

        let bookmarks = try root("bookmarks_root", all)
        #expect(
            titles(try reader.destinations(of: "children", from: bookmarks), all) == [
                "1", "2", "3", "4", "5",
            ])
        let folderThree = try #require(all.values.first { $0.attributes["title"] == .string("3") })
            .reference
        #expect(
            titles(try reader.destinations(of: "children", from: folderThree), all) == [
                "31", "32", "33",
            ])
        #expect(all.values.filter { $0.toOne["parent"] == folderThree }.count == 3)

        // V1–V3: favorites via the ordered to-one inverse (Z_FOK_FAVORITEFOLDER);
        // V4–V5: via the reflexive, ordered join table Z_1FAVORITES.
        let favorites = try root("favorites_root", all)
        #expect(
            titles(try reader.destinations(of: "favorites", from: favorites), all) == [
                "5", "4", "33", "32", "2",
            ])
        if version >= 4 {
            let five = try #require(all.values.first { $0.attributes["title"] == .string("5") })
                .reference
            #expect(try reader.destinations(of: "favoriteFolders", from: five) == [favorites])
        }
    }

    @Test func testDatesAreSecondsSince2001() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V5.sqlite")
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let all = try readAll(
            try StoreReader(store: store, model: try #require(FixtureModels.bookmarks(5))))
        let one = try #require(all.values.first { $0.attributes["title"] == .string("1") })
        guard case .date(let seconds)? = one.attributes["modifiedAt"] else {
            Issue.record("modifiedAt is not a date")
            return
        }
        // 731947175.405015 s after 2001-01-01Z is 2024-03-12T14:39:35Z.
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        let day = ISO8601DateFormatter.string(
            from: date, timeZone: TimeZone(identifier: "UTC") ?? .current,
            formatOptions: [.withFullDate])
        #expect(day == "2024-03-12")
        #expect(one.attributes["isFolder"] == .boolean(false))
    }

    @Test func testExternalStorageValuesAreReadInlineAndFromFiles() throws {
        let folder = try TemporaryDirectory()
        var data = Attribute(name: "data", type: .binary)
        data.allowsExternalStorage = true
        data.isOptional = true
        let model = Model(
            name: "Media", version: 1, entities: [Entity(name: "Medium", attributes: [data])])
        let url = folder.file("Media.sqlite")
        let store = try Store.create(at: url, model: model)
        defer { try? store.close() }
        let external = ExternalBinary.folder(forStoreAt: url)
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        let photo = Data((0..<200_000).map { UInt8($0 % 251) })
        try photo.write(to: external.appendingPathComponent("6D6F2B54-3C5D-4A0B-9C3B-7E1F0E2A1B44"))
        var reference = Data([0x02])
        reference.append(Data("6D6F2B54-3C5D-4A0B-9C3B-7E1F0E2A1B44".utf8))
        reference.append(0)
        try store.connection.execute(
            "INSERT INTO ZMEDIUM (Z_PK, Z_ENT, Z_OPT, ZDATA) VALUES (1, 1, 1, ?), (2, 1, 1, ?), (3, 1, 1, NULL)",
            [.blob(ExternalBinary.encodeInline(Data("tiny".utf8))), .blob(reference)])

        var values: [Int64: AttributeValue?] = [:]
        try StoreReader(store: store, model: model).forEachObject(of: "Medium") {
            values[$0.reference.primaryKey] = $0.attributes["data"]
        }
        #expect(values[1] == .data(Data("tiny".utf8)))
        #expect(values[2] == .data(photo))
        #expect(values[3] == .some(nil))
    }

    @Test func testExternalReferenceThatLeavesTheFolderIsRefused() throws {
        let folder = try TemporaryDirectory()
        var data = Attribute(name: "data", type: .binary)
        data.allowsExternalStorage = true
        let model = Model(
            name: "Media", version: 1, entities: [Entity(name: "Medium", attributes: [data])])
        let store = try Store.create(at: folder.file("Media.sqlite"), model: model)
        defer { try? store.close() }
        var reference = Data([0x02])
        reference.append(Data("../../etc/passwd".utf8))
        reference.append(0)
        try store.connection.execute(
            "INSERT INTO ZMEDIUM (Z_PK, Z_ENT, Z_OPT, ZDATA) VALUES (1, 1, 1, ?)",
            [.blob(reference)])
        #expect(throws: StoreError.self) {
            try StoreReader(store: store, model: model).forEachObject(of: "Medium") { _ in }
        }
    }
}
