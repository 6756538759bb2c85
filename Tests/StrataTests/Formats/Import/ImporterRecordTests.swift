import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataQuery
@testable import StrataSchema

/// The importer on nested records (plists, JSON): nested objects, links by
/// `relatedBy`, upserts, references to later records.
struct ImporterRecordTests {
    static func recipe(_ name: String, type: String, ingredients: [String]) -> [(
        String, RecordValue
    )] {
        [
            ("name", .text(name)), ("prepTime", .integer(20)), ("type", .text(type)),
            (
                "ingredients",
                .list(
                    ingredients.enumerated().map {
                        .object([
                            ("name", .text($0.element)),
                            ("displayOrder", .integer(Int64($0.offset))),
                        ])
                    })
            ),
        ]
    }

    static let recipes = [
        recipe("Cobbler", type: "Dessert", ingredients: ["berry", "flour", "sugar"]),
        recipe("Soup", type: "Soup", ingredients: ["water", "leek"]),
        recipe("Tart", type: "Dessert", ingredients: ["pastry", "strawberry"]),
    ]

    @Test func testNestedIngredientsInOrderAndTypesShared() throws {
        let fixture = try ImportFixture("Recipes")
        let summary = try fixture.run(
            ArrayRecordReader(Self.recipes), ImportOptions(entity: "Recipe"))
        #expect(summary.insertedByEntity == ["Recipe": 3, "Ingredient": 7, "RecipeType": 2])
        #expect(
            try fixture.rows(
                """
                SELECT r.ZNAME, t.ZNAME, group_concat(i.ZNAME, ' ') FROM ZRECIPE r
                JOIN ZRECIPETYPE t ON t.Z_PK = r.ZTYPE
                JOIN (SELECT * FROM ZINGREDIENT ORDER BY ZDISPLAYORDER) i ON i.ZRECIPE = r.Z_PK
                GROUP BY r.Z_PK ORDER BY r.Z_PK
                """) == [
                    ["Cobbler", "Dessert", "berry flour sugar"], ["Soup", "Soup", "water leek"],
                    ["Tart", "Dessert", "pastry strawberry"],
                ])
        // Every key in Z_PRIMARYKEY is at least the highest row of its table.
        #expect(
            try fixture.count("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Ingredient'") == 7)
        let context = try Context(store: fixture.store, model: fixture.model)
        let tart = try #require(
            try context.fetch(
                FetchRequest(entity: "Recipe", predicate: try FetchPredicate("name == 'Tart'"))
            ).first)
        #expect(try tart.objects(forKey: "ingredients").count == 2)
    }

    @Test func testImportingTwiceWithAUniqueKeyLeavesTheSameStore() throws {
        let fixture = try ImportFixture("Recipes")
        var options = ImportOptions(entity: "Recipe")
        options.uniqueKey = ["name"]
        options.batchSize = 2
        let first = try fixture.run(ArrayRecordReader(Self.recipes), options)
        let before = try fixture.rows("SELECT Z_PK, ZNAME FROM ZRECIPE ORDER BY Z_PK")
        let second = try fixture.run(ArrayRecordReader(Self.recipes), options)
        #expect(first.inserted == 12)
        #expect(second.updated == 3)
        #expect(second.insertedByEntity == ["Ingredient": 7])
        #expect(try fixture.rows("SELECT Z_PK, ZNAME FROM ZRECIPE ORDER BY Z_PK") == before)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZINGREDIENT") == 7)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZRECIPETYPE") == 2)
        // No unique index on name: existing keys are read once for the run,
        // then the in-memory index answers every batch.
        #expect(second.keyLookups == 1)
    }

    @Test func testUniquenessConstraintUpsertsWithOneLookupPerBatch() throws {
        let fixture = try ImportFixture("Diary")
        var options = ImportOptions(entity: "Tag")
        options.batchSize = 4
        let names = (0..<10).map { [("name", RecordValue.text("tag\($0 % 7)"))] }
        let summary = try fixture.run(ArrayRecordReader(names), options)
        #expect(summary.inserted == 7)
        #expect(summary.updated == 3)
        // Batches of 4: tag0-3 (one query), tag4-6 + tag0 (one query for
        // the three new keys), tag1-2 (known to the run: none). Not ten.
        #expect(summary.keyLookups == 2)
        let again = try fixture.run(ArrayRecordReader(names), options)
        #expect(again.inserted == 0)
        #expect(again.keyLookups == 2)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZTAG") == 7)
    }

    /// "café" with é as one scalar and "cafe\u{301}" are one string to
    /// Swift's `==` but two keys to SQLite (and Core Data): both are kept,
    /// whether the keys come from a uniqueness constraint or `uniqueKey`.
    @Test func testKeysThatDifferOnlyInUnicodeFormAreTwoKeys() throws {
        let forms = ["caf\u{E9}", "cafe\u{301}", "caf\u{E9}", "cafe\u{301}"]
        let tags = forms.map { [("name", RecordValue.text($0))] }
        let fixture = try ImportFixture("Diary")
        var options = ImportOptions(entity: "Tag")
        options.batchSize = 3
        let summary = try fixture.run(ArrayRecordReader(tags), options)
        #expect(summary.inserted == 2)
        #expect(summary.updated == 2)
        #expect(try fixture.count("SELECT COUNT(DISTINCT hex(ZNAME)) FROM ZTAG") == 2)
        let again = try fixture.run(ArrayRecordReader(tags), options)
        #expect(again.inserted == 0)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZTAG") == 2)

        let recipes = try ImportFixture("Recipes")
        var byName = ImportOptions(entity: "Recipe")
        byName.uniqueKey = ["name"]
        let twice = forms.map { Self.recipe($0, type: "Dessert", ingredients: []) }
        let first = try recipes.run(ArrayRecordReader(twice), byName)
        #expect(first.insertedByEntity["Recipe"] == 2)
        #expect(try recipes.count("SELECT COUNT(*) FROM ZRECIPE") == 2)
    }

    @Test func testDuplicatePolicies() throws {
        let records = [[("name", RecordValue.text("a"))], [("name", .text("a"))]]
        for (policy, inserted, skipped) in [
            (ImportOptions.DuplicatePolicy.first, 1, 1), (.last, 1, 0),
        ] {
            let fixture = try ImportFixture("Diary")
            var options = ImportOptions(entity: "Tag")
            options.duplicates = policy
            let summary = try fixture.run(ArrayRecordReader(records), options)
            #expect(summary.inserted == inserted)
            #expect(summary.duplicatesSkipped == skipped)
        }
        let fixture = try ImportFixture("Diary")
        var options = ImportOptions(entity: "Tag")
        options.duplicates = .error
        let error = try #require(throws: ImportError.self) {
            try fixture.run(ArrayRecordReader(records), options)
        }
        #expect(error.position.line == 2)
        #expect(try fixture.count("SELECT COUNT(*) FROM ZTAG") == 0)
    }

    @Test func testToManyTextLinksFindOrCreateAndManyToManyJoins() throws {
        let fixture = try ImportFixture("Diary")
        let entries: [[(String, RecordValue)]] = [
            [("title", .text("Paris")), ("body", .text("Rain.")), ("tags", .text("travel, rain"))],
            [("title", .text("Home")), ("tags", .list([.text("rain")]))],
        ]
        let summary = try fixture.run(
            ArrayRecordReader(entries), ImportOptions(entity: "DiaryEntry"))
        #expect(summary.insertedByEntity == ["DiaryEntry": 2, "Tag": 2])
        let context = try Context(store: fixture.store, model: fixture.model)
        let rain = try #require(
            try context.fetch(
                FetchRequest(entity: "Tag", predicate: try FetchPredicate("name == 'rain'"))
            ).first)
        #expect(try rain.objects(forKey: "entries").count == 2)
    }

    @Test func testUnknownKeyAndWrongShapeAreLocated() throws {
        let fixture = try ImportFixture("Recipes")
        let error = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayRecordReader([[("name", .text("A")), ("colour", .text("red"))]]),
                ImportOptions(entity: "Recipe"))
        }
        #expect(error.code == .unknownField)
        #expect(error.position.keyPath == "[0].colour")
        let shape = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayRecordReader([[("name", .list([.text("A")]))]]),
                ImportOptions(entity: "Recipe"))
        }
        #expect(shape.message.contains("found an array, but name is a string"))
    }

    @Test func testReferencesToLaterRecordsResolveAfterTheInput() throws {
        let schema = """
            {"format": "strata-schema/1", "model": "Staff", "version": 1, "entities": {"Person": {
              "uniquenessConstraints": [["name"]],
              "attributes": {"name": {"type": "string"}},
              "relationships": {
                "manager": {"destination": "Person", "inverse": "reports", "optional": true},
                "reports": {"destination": "Person", "inverse": "manager", "toMany": true, "optional": true}}}}}
            """
        let fixture = try ImportFixture(
            model: try SchemaDecoder().decode(Data(schema.utf8), file: "Staff.json"))
        let people: [[(String, RecordValue)]] = [
            [("name", .text("Ann")), ("manager", .text("Bob"))],
            [("name", .text("Bob"))],
        ]
        let summary = try fixture.run(ArrayRecordReader(people), ImportOptions(entity: "Person"))
        #expect(summary.inserted == 2)
        #expect(
            try fixture.rows(
                "SELECT p.ZNAME, m.ZNAME FROM ZPERSON p LEFT JOIN ZPERSON m ON m.Z_PK = p.ZMANAGER ORDER BY p.Z_PK"
            )
                == [["Ann", "Bob"], ["Bob", "NULL"]])
        let missing = try #require(throws: ImportError.self) {
            try fixture.run(
                ArrayRecordReader([[("name", .text("Cy")), ("manager", .text("Dee"))]]),
                ImportOptions(entity: "Person"))
        }
        #expect(missing.message.contains("no Person with name 'Dee'"))
        #expect(try fixture.count("SELECT COUNT(*) FROM ZPERSON") == 2)
    }
}

/// `strata-import/1` mapping files and computed attributes.
struct ImportMappingFileTests {
    @Test func testComputedAttributeFromTextAndMappedFields() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("recipes.mapping.json")
        try Data(
            """
            {"format": "strata-import/1", "entity": "Recipe", "fields": {"Kind": "type"},
             "compute": {"prepTime": "integer(before(prepTime, \\" \\"))"}}
            """.utf8
        ).write(to: file)
        var options = ImportOptions()
        try ImportMappingFile.apply(file.path, to: &options)
        #expect(options.entity == "Recipe")
        let fixture = try ImportFixture("Recipes")
        _ = try fixture.run(
            ArrayRecordReader([
                [("name", .text("Soup")), ("prepTime", .text("45 min")), ("Kind", .text("Soup"))]
            ]),
            options)
        #expect(
            try fixture.rows("SELECT ZNAME, ZPREPTIME, ZTYPE FROM ZRECIPE") == [
                ["Soup", "45", "1"]
            ])
    }

    @Test func testMistakesAreLocatedInTheMappingFile() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("bad.mapping.json")
        try Data(
            """
            {"format": "strata-import/1",
             "compute": {"prepTime": "integer(before(prepTime, ))"}}
            """.utf8
        ).write(to: file)
        var options = ImportOptions()
        let error = try #require(throws: ImportError.self) {
            try ImportMappingFile.apply(file.path, to: &options)
        }
        #expect(error.position.line == 2)
        #expect(error.position.keyPath == "$.compute.prepTime")
        try Data(#"{"format": "strata-import/1", "colums": []}"#.utf8).write(to: file)
        let unknown = try #require(throws: ImportError.self) {
            try ImportMappingFile.apply(file.path, to: &options)
        }
        #expect(unknown.message.hasPrefix("unknown key 'colums'"))
    }
}
