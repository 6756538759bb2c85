import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Apple's Recipes sample as its seed store has it: version 1 of the bundled
/// schema carries the store's four hashes, and the migration to the newest
/// version reads its free-text preparation times and keeps every image byte.
struct RecipesMigrationTests {
    static let schemas = ContextFixture.schemas.appendingPathComponent("Recipes")

    /// The entity hashes `Recipes.sqlite` (Core Data, framework 241) records.
    static let seedHashes = [
        "Image": "njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8=",
        "Ingredient": "5tCLlA1r9p1UWdOTr3XJ+ZzBr6bxraWAs3Vt9zCAZek=",
        "Recipe": "PcSdeYYgO5cW+z5s8cHpAZzy3WHO/upsq6Ujxtwckog=",
        "RecipeType": "EtqagX2A7+sQqDbBbEtFZT9iQz2Hsuv8um2Nz6k5YK4=",
    ]

    @Test func testVersionOneHasTheSeedStoreHashes() throws {
        let chain = try SchemaChain.load(directory: Self.schemas)
        let v1 = try #require(chain.model(version: 1))
        #expect(v1.versionHashes.mapValues { Data($0).base64EncodedString() } == Self.seedHashes)
        let seedHashes = try Self.seedHashes.mapValues { try #require(Data(base64Encoded: $0)) }
        let matched = try Store.matchingVersion(of: seedHashes, in: chain, path: "Recipes.sqlite")
        #expect(matched.version == 1)
    }

    /// JPEG-looking bytes, different per object, with every byte value.
    static func jpeg(_ seed: UInt8) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0, seed]) + Data((0...255).map { UInt8($0) ^ seed })
    }

    @Test func testPrepTimesBecomeMinutesAndImagesComeThroughByteForByte() throws {
        let folder = try TemporaryDirectory()
        let chain = try SchemaChain.load(directory: Self.schemas)
        let v1 = try #require(chain.model(version: 1))
        let url = folder.file("Recipes.sqlite")
        let times = ["1 hour", "1.5 hours", "45 minutes", "20min", "25 min"]
        do {
            let store = try Store.create(at: url, model: v1)
            let context = try Context(store: store, model: v1)
            let type = try context.insert("RecipeType")
            try type.set("name", "Dessert")
            for (index, time) in times.enumerated() {
                let recipe = try context.insert("Recipe")
                try recipe.set("name", "Recipe \(index)")
                try recipe.set("prepTime", time)
                try recipe.setValue(.data(Self.jpeg(UInt8(index))), forKey: "thumbnailImage")
                try recipe.setObject(type, forKey: "type")
                let image = try context.insert("Image")
                try image.setValue(.data(Self.jpeg(UInt8(100 + index))), forKey: "image")
                try recipe.setObject(image, forKey: "image")
                let ingredient = try context.insert("Ingredient")
                try ingredient.set("name", "Sugar")
                try ingredient.set("displayOrder", Int64(1))
                try recipe.add(ingredient, to: "ingredients")
            }
            try context.save()
            #expect(
                store.metadata.versionHashes.mapValues { $0.base64EncodedString() }
                    == Self.seedHashes)
            try store.close()
        }

        let report = try Migrator(storeAt: url, schemas: Self.schemas).run()
        #expect(report.startVersion == 1 && report.finalVersion == chain.newest.version)

        let store = try Store.open(at: url)
        defer { try? store.close() }
        let context = try Context(store: store, model: chain.newest)
        let recipes = try context.findAll("Recipe").sorted {
            ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0)
        }
        #expect(try recipes.map { try $0.integer("prepTime") } == [60, 90, 45, 20, 25])
        for (index, recipe) in recipes.enumerated() {
            #expect(try recipe.data("thumbnailImage") == Self.jpeg(UInt8(index)))
            #expect(
                try recipe.object(forKey: "image")?.data("image") == Self.jpeg(UInt8(100 + index)))
            #expect(try recipe.objects(forKey: "ingredients").count == 1)
            #expect(try recipe.object(forKey: "type")?.string("name") == "Dessert")
        }
    }

    /// A version-1 store with one recipe per preparation time, in that order.
    private func store(_ times: [String], in folder: TemporaryDirectory) throws -> URL {
        let v1 = try #require(try SchemaChain.load(directory: Self.schemas).model(version: 1))
        let url = folder.file("Recipes.sqlite")
        let store = try Store.create(at: url, model: v1)
        let context = try Context(store: store, model: v1)
        for (index, time) in times.enumerated() {
            let recipe = try context.insert("Recipe")
            try recipe.set("name", "Recipe \(index)")
            try recipe.set("prepTime", time)
        }
        try context.save()
        try store.close()
        return url
    }

    /// Text the 1-2 mapping cannot read ("overnight") would become nil: the
    /// dry run names each object and value, and the run stops until the
    /// loss is acknowledged in `1-2.mapping.json`.
    @Test func testUnreadablePrepTimeIsListedAndBlocksUntilDiscarded() throws {
        let folder = try TemporaryDirectory()
        let url = try store(["1 hour", "overnight", "25 min", "a while"], in: folder)
        let before = try Data(contentsOf: url)

        let preview = try Migrator(storeAt: url, schemas: Self.schemas).preview()
        let blocking = preview.blockingFindings.map(\.message)
        #expect(
            blocking == [
                "2 values of Recipe.prepTime cannot be read by prepTime's expression in "
                    + "1-2.mapping.json and would become nil: Recipe p2 \"overnight\", "
                    + "Recipe p4 \"a while\"; acknowledge it with \"discard\": "
                    + "[\"Recipe.prepTime\"] in 1-2.mapping.json or pass --accept-lossy"
            ])
        expectMigrationError(.preflightFailed) {
            _ = try Migrator(storeAt: url, schemas: Self.schemas).run()
        }
        #expect(try Data(contentsOf: url) == before)

        // Acknowledged in the mapping file: a note, and the run goes ahead.
        let schemas = folder.file("Recipes")
        try FileManager.default.copyItem(at: Self.schemas, to: schemas)
        let file = schemas.appendingPathComponent("1-2.mapping.json")
        var mapping = try String(contentsOf: file, encoding: .utf8)
        mapping = mapping.replacingOccurrences(
            of: #""to": 2,"#, with: #""to": 2, "discard": ["Recipe.prepTime"],"#)
        try Data(mapping.utf8).write(to: file)
        let acknowledged = try Migrator(storeAt: url, schemas: schemas).preview()
        #expect(acknowledged.blockingFindings.isEmpty)
        #expect(
            acknowledged.findings.contains {
                $0.severity == .note && $0.message.contains("(discarded by the mapping file)")
            })
        _ = try Migrator(storeAt: url, schemas: schemas).run()
        let migrated = try Store.open(at: url)
        defer { try? migrated.close() }
        let newest = try SchemaChain.load(directory: schemas).newest
        let recipes = try Context(store: migrated, model: newest).findAll("Recipe").sorted {
            ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0)
        }
        #expect(try recipes.map { try $0.integer("prepTime") } == [60, nil, 25, nil])
    }
}
