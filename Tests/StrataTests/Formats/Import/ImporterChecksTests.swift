import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// An import ends with the store's reference check over the rows it wrote,
/// as unarchive, merge and migration do (issue 27, point 13).
struct ImporterChecksTests {
    static func soup(_ name: String) -> [(String, RecordValue)] {
        [("name", .text(name)), ("image", .object([("image", .text("AAAA"))]))]
    }

    @Test func testRowsThatFailTheCheckAreRolledBackNamingTheObject() throws {
        let fixture = try ImportFixture("Recipes")
        // Stands in for a writer defect: every image written loses its recipe.
        try fixture.store.connection.execute(
            "CREATE TRIGGER lose AFTER INSERT ON ZIMAGE BEGIN "
                + "UPDATE ZIMAGE SET ZRECIPE = NULL WHERE Z_PK = NEW.Z_PK; END")
        #expect {
            _ = try fixture.run(
                ArrayRecordReader([Self.soup("Soup")]), ImportOptions(entity: "Recipe"))
        } throws: { error in
            "\(error)".contains("Recipe/p1.image") && "\(error)".contains("rolled back")
        }
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 0)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZIMAGE") == 0)
    }

    @Test func testAProblemTheStoreHeldBeforeDoesNotStopTheImport() throws {
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            ArrayRecordReader([Self.soup("Stew")]), ImportOptions(entity: "Recipe"))
        // A one-sided pair the import did not write.
        try fixture.store.connection.execute("UPDATE ZIMAGE SET ZRECIPE = NULL")
        #expect(try fixture.store.checkRelationships(model: fixture.model).count == 1)
        _ = try fixture.run(
            ArrayRecordReader([Self.soup("Soup")]), ImportOptions(entity: "Recipe"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPE") == 2)
    }
}
