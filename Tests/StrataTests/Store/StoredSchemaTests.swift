import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 10, item 8: a store Strata writes carries its schema
/// (`StrataModelSchema`), which is checked like any input before use and
/// kept current by every migration stage.
struct StoredSchemaTests {
    static let diary = ContextFixture.schemas.appendingPathComponent("Diary")

    private func chain() throws -> SchemaChain {
        try SchemaChain.load(directory: Self.diary)
    }

    /// A new store of `version` of the bundled Diary model, closed.
    private func createDiary(
        _ version: Int, in folder: TemporaryDirectory
    ) throws -> (URL, Model) {
        let model = try #require(try chain().model(version: version))
        let url = folder.file("Diary.sqlite")
        try Store.create(at: url, model: model).close()
        return (url, model)
    }

    /// Rewrites the metadata of the store at `url` with `change`.
    private func rewriteMetadata(
        of url: URL, _ change: (inout StoreMetadata) throws -> Void
    ) throws {
        let store = try Store.open(at: url)
        var metadata = store.metadata
        try change(&metadata)
        try store.connection.inTransaction(.immediate) { try store.writeMetadata(metadata) }
        try store.close()
    }

    /// The error `storedModel()` throws for the store at `url`.
    private func storedModelError(_ url: URL) throws -> StoreError {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        do {
            _ = try store.storedModel()
        } catch {
            return error
        }
        Issue.record("storedModel() did not throw")
        return StoreError(.corruptMetadata, path: "", message: "")
    }

    // MARK: - Round trip

    @Test func testCreatedStoreCarriesItsSchemaAndItReadsBackEqual() throws {
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(3, in: folder)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let blob = try #require(store.metadata.modelSchema)
        #expect(try RawDeflate.inflate(blob, limit: 1 << 20) == SchemaEncoder().encodeData(model))
        #expect(try store.storedModel() == model)
        #expect(store.metadata.otherKeys[StoredSchema.key] == nil)
    }

    @Test func testBothPlistReadersReadTheStoredSchema() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(2, in: folder)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let plist = try store.metadata.plistData()
        let binary = try #require(StoreMetadata(uuid: store.metadata.uuid, binaryPlist: plist))
        let foundation = try StoreMetadata(
            uuid: store.metadata.uuid, foundationPlist: plist, path: "x")
        #expect(binary == foundation)
        #expect(binary.modelSchema == store.metadata.modelSchema)
    }

    @Test func testAModelWithNoJSONFormStoresNoSchemaAndStillCreates() throws {
        var attribute = Attribute(name: "ratio", type: .double)
        attribute.maxValue = .infinity
        let model = Model(
            name: "M", version: 1, entities: [Entity(name: "Item", attributes: [attribute])])
        #expect(StoredSchema.pack(model) == nil)
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("m.sqlite"), model: model)
        defer { try? store.close() }
        #expect(store.metadata.modelSchema == nil)
        #expect(try store.storedModel() == nil)
    }

    // MARK: - Untrusted blobs

    @Test func testBytesThatAreNotDeflateAreAnErrorNamingTheKey() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) { $0.modelSchema = Data([0xFF, 0xFF, 0x00, 0x13, 0x37]) }
        let error = try storedModelError(url)
        #expect(error.code == .corruptMetadata)
        #expect(
            error.message.hasPrefix(
                "Z_METADATA.Z_PLIST: StrataModelSchema: the stored schema does not inflate ("))
    }

    @Test func testTruncatedBlobIsAnError() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) { $0.modelSchema = $0.modelSchema?.prefix(40) }
        #expect(try storedModelError(url).message.contains("does not inflate"))
    }

    @Test func testTextThatIsNotASchemaIsAnErrorWithItsPlace() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) {
            $0.modelSchema = try RawDeflate.deflate(Data(#"{"format": "strata-schema/1"}"#.utf8))
        }
        let error = try storedModelError(url)
        #expect(
            error.message.hasPrefix(
                "Z_METADATA.Z_PLIST: StrataModelSchema: the stored schema is not a valid schema: "
                    + "StrataModelSchema:1:1: $: "))
    }

    @Test func testDeeplyNestedTextIsAnErrorNotACrash() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        let nested = String(repeating: "[", count: 100_000)
        try rewriteMetadata(of: url) {
            $0.modelSchema = try RawDeflate.deflate(Data(nested.utf8))
        }
        #expect(try storedModelError(url).message.contains("is not a valid schema"))
    }

    @Test func testAValueOfAnotherTypeIsAnErrorNamingTheKey() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) {
            $0.modelSchema = nil
            $0.otherKeys[StoredSchema.key] = .text("Diary")
        }
        let error = try storedModelError(url)
        #expect(error.message == "Z_METADATA.Z_PLIST: StrataModelSchema: expected data")
    }

    @Test func testInflatingPastTheLimitIsRefused() throws {
        // 64 MiB + 1 of one byte deflates to about 64 KiB: a small bomb.
        let bomb = try RawDeflate.deflate(
            Data(repeating: 0x20, count: StoredSchema.maximumInflatedSize + 1), level: 1)
        #expect(bomb.count < 1 << 20)
        #expect {
            try StoredSchema.unpack(bomb, hashes: [:], path: "bomb.sqlite")
        } throws: { error in
            "\(error)".hasPrefix(
                "bomb.sqlite: Z_METADATA.Z_PLIST: StrataModelSchema: the stored schema does not "
                    + "inflate (Compression error 0: inflated data exceeds the limit of 67108864 bytes)"
            )
        }
    }

    @Test func testStoredSchemaDisagreeingWithTheHashesIsNotTrusted() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        let older = try #require(try chain().model(version: 2))
        try rewriteMetadata(of: url) { $0.modelSchema = StoredSchema.pack(older) }
        let error = try storedModelError(url)
        #expect(error.code == .corruptMetadata)
        #expect(
            error.message.hasPrefix(
                "Z_METADATA.Z_PLIST: StrataModelSchema: the stored schema (Diary version 2) "
                    + "disagrees with the store's hashes (NSStoreModelVersionHashes) in: "))
        #expect(error.message.hasSuffix("; not trusting it"))
    }

    @Test func testAnInvalidPatternInTheStoredSchemaIsRefusedByTheContext() throws {
        // Reading a stored schema does not compile its patterns (that loads
        // ICU, and `info` needs none); one that is not a regular expression
        // is refused when a context that checks values is made on it.
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(3, in: folder)
        var broken = model
        let medium = try #require(broken.entities.firstIndex { $0.name == "Medium" })
        let type = try #require(
            broken.entities[medium].attributes.firstIndex { $0.name == "type" })
        broken.entities[medium].attributes[type].pattern = "ab(c"
        #expect(broken.versionHashes == model.versionHashes)  // Patterns are not hashed.
        try rewriteMetadata(of: url) { $0.modelSchema = StoredSchema.pack(broken) }

        let store = try Store.open(at: url)
        defer { try? store.close() }
        let stored = try #require(try store.storedModel())
        #expect(stored == broken)
        let error = try #require(throws: ContextError.self) {
            _ = try Context(store: store, model: stored)
        }
        #expect(error.code == .invalidSchema)
        #expect("\(error)".contains("regular expression \"ab(c\" is not valid at column 4"))
    }

    // MARK: - Keeping it current

    @Test func testMigratingOneToThreeLeavesVersionThreesSchema() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(1, in: folder)
        var options = MigrationOptions()
        options.targetVersion = 3
        let report = try Migrator(storeAt: url, schemas: Self.diary, options: options).run()
        #expect(report.finalVersion == 3)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let stored = try #require(try store.storedModel())
        #expect(stored == (try chain().model(version: 3)))
        #expect(store.metadata.modelVersion == 3)
    }

    @Test func testEachStageStoresItsOwnVersion() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(1, in: folder)
        var options = MigrationOptions()
        options.targetVersion = 2
        try Migrator(storeAt: url, schemas: Self.diary, options: options).run()
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        #expect(try store.storedModel()?.version == 2)
    }

    @Test func testAnUpToDateRunGivesAStoreWithoutASchemaItsSchema() throws {
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(4, in: folder)
        try rewriteMetadata(of: url) { $0.modelSchema = nil }  // As Strata wrote it before.
        try Migrator(storeAt: url, schemas: Self.diary).run()
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        #expect(try store.storedModel() == model)
    }

    @Test func testUpdateStoredSchemaRefusesAModelThatDoesNotDescribeTheStore() throws {
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(3, in: folder)
        let store = try Store.open(at: url)
        defer { try? store.close() }
        let older = try #require(try chain().model(version: 2))
        #expect(throws: StoreError.self) { try store.updateStoredSchema(to: older) }
        #expect(try store.updateStoredSchema(to: model) == false)  // Already current.
    }

    // MARK: - Resolution

    @Test func testWithoutSchemasTheStoredSchemaDescribesTheStore() throws {
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(3, in: folder)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let resolution = try store.resolveModel()
        #expect(resolution.source == .storedSchema)
        #expect(try resolution.requiredModel() == model)
        #expect(resolution.problems.isEmpty)
    }

    @Test func testSchemasThatMatchDecideAndSchemasThatDoNotAreAnError() throws {
        let folder = try TemporaryDirectory()
        let (url, model) = try createDiary(3, in: folder)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let resolution = try store.resolveModel(schemas: try chain())
        #expect(resolution.source == .schema)
        #expect(resolution.model == model)

        let notes = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Notes"))
        #expect {
            try store.resolveModel(schemas: notes)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .unknownVersion
                && error.message.hasPrefix("matches no version of Notes; nearest is version ")
                && error.message.hasSuffix("; the store holds Diary version 3")
        }
    }

    @Test func testAStoreThatNamesNoModelNeedsSchemas() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) { $0.modelSchema = nil }
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let resolution = try store.resolveModel()
        #expect(resolution.model == nil)
        #expect(resolution.source == .metadata)
        #expect {
            try resolution.requiredModel()
        } throws: { error in
            (error as? StoreError)?.code == .noModel
                && "\(error)"
                    == "\(url.relativePath): the store names no model: it has neither Strata's "
                    + "stored schema (StrataModelSchema) nor Core Data's model cache (Z_MODELCACHE)"
        }
        // The schemas still name it, and old stores keep their messages.
        #expect(try store.resolveModel(schemas: try chain()).model?.version == 3)
    }

    @Test func testACorruptStoredSchemaWithoutACacheIsTheError() throws {
        let folder = try TemporaryDirectory()
        let (url, _) = try createDiary(3, in: folder)
        try rewriteMetadata(of: url) { $0.modelSchema = Data([1, 2, 3]) }
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let resolution = try store.resolveModel()
        #expect(resolution.model == nil)
        #expect(resolution.problems.count == 1)
        #expect {
            try resolution.requiredModel()
        } throws: { error in
            (error as? StoreError)?.message.contains("StrataModelSchema") == true
        }
    }

    @Test func testAStaleStoredSchemaGivesWayToCoreDatasModelCache() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("bnr-sample/TestModel.sqlite")
        let stale = Model(
            name: "TestModel", version: 1,
            entities: [Entity(name: "Other", attributes: [Attribute(name: "a", type: .string)])])
        try rewriteMetadata(of: url) { $0.modelSchema = StoredSchema.pack(stale) }
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let resolution = try store.resolveModel()
        #expect(resolution.source == .modelCache)
        #expect(resolution.model?.entity(named: "Author") != nil)
        #expect(resolution.problems.map(\.code) == [.corruptMetadata])
        #expect(
            resolution.problems.first?.message.contains("disagrees with the store's hashes") == true
        )
    }
}
