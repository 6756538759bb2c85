import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataStore

/// `archive` checks what `unarchive` will check of the objects' references,
/// so no bundle Strata writes is refused by Strata (issue 27, point 3).
struct BundleArchiverVerificationTests {
    /// A Recipes store with a recipe and its image.
    static func recipes(imageNamesItsRecipe: Bool) throws -> ImportFixture {
        let fixture = try ImportFixture("Recipes")
        let numbers = Dictionary(
            uniqueKeysWithValues: try fixture.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map {
                ($0[0], $0[1])
            })
        let recipe = try #require(numbers["Recipe"])
        let image = try #require(numbers["Image"])
        try fixture.store.connection.execute(
            "INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE) VALUES (1, \(recipe), 1, 'Soup', 1)"
        )
        try fixture.store.connection.execute(
            "INSERT INTO ZIMAGE (Z_PK, Z_ENT, Z_OPT, ZRECIPE) VALUES (1, \(image), 1, "
                + (imageNamesItsRecipe ? "1" : "NULL") + ")")
        try fixture.store.connection.execute(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME IN ('Recipe', 'Image')")
        return fixture
    }

    @Test func testAOneSidedToOneIsRefusedBeforeAnythingIsWritten() throws {
        // The reproduction: the bundle of this store was written, then refused.
        let fixture = try Self.recipes(imageNamesItsRecipe: false)
        let bundle = fixture.folder.file("Recipes.zip")
        let error = try #require(throws: ExportError.self) {
            try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        }
        #expect(error.code == .store)
        #expect(error.path == fixture.store.path)
        #expect(error.message.contains("Recipe/p1.image: oneToOneMismatch"))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }

    @Test func testAJoinRowNamingNoObjectIsRefused() throws {
        // Listed by its entry but by no tag: unarchive would insert it and
        // find it names no row.
        let fixture = try BundleFixture()
        let mapping = try StoreMapping(model: fixture.model, store: fixture.store)
        guard
            case .joinTable(let table, let source, let target, _)? = mapping.entities["DiaryEntry"]?
                .toMany["tags"]
        else {
            Issue.record("DiaryEntry.tags is not kept in a join table")
            return
        }
        try fixture.store.connection.execute(
            "INSERT INTO \(SQLiteIdentifier.quoted(table)) (\(SQLiteIdentifier.quoted(source)), "
                + "\(SQLiteIdentifier.quoted(target))) VALUES (1, 999)")
        let bundle = fixture.folder.file("Diary.zip")
        let error = try #require(throws: ExportError.self) {
            try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        }
        #expect(error.message.contains("missingDestination"))
        #expect(error.message.contains("= 999"))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }

    @Test func testAValueBreakingARuleIsRefusedNamingTheObject() throws {
        // The rules unarchive applies (issue 27, point 7) hold for what archive writes.
        let fixture = try BundleFixture()
        try fixture.store.connection.execute("UPDATE ZMEDIUM SET ZTYPE = 'evil' WHERE Z_PK = 2")
        let bundle = fixture.folder.file("Diary.zip")
        let error = try #require(throws: ExportError.self) {
            try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        }
        #expect(error.message.hasPrefix("Medium/p2: "))
        #expect(error.message.contains("type"))
        #expect(!FileManager.default.fileExists(atPath: bundle.path))
    }

    @Test func testBothSidesArchiveAndUnarchive() throws {
        let fixture = try Self.recipes(imageNamesItsRecipe: true)
        let bundle = fixture.folder.file("Recipes.zip")
        try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: bundle)
        let restored = fixture.folder.file("Restored.sqlite")
        try BundleUnarchiver(bundle: bundle).unarchive(to: restored)
        let store = try Store.open(at: restored, mode: .readOnly)
        defer { try? store.close() }
        #expect(
            try store.connection.scalar("SELECT ZRECIPE FROM ZIMAGE WHERE Z_PK = 1")?.int64Value
                == 1)
    }
}
