import Foundation
import Strata
import Testing

/// Issue 10, item 8: `info` and `query` find the model of a store Strata
/// created without `--schemas`; a `--schemas` that disagrees with the store
/// is refused; a store that names no model asks for one.
struct StoreModelCommandTests {
    private let folder: ScratchFolder
    private let store: String

    init() throws {
        folder = try ScratchFolder()
        store = folder.path("Diary.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/Diary"])
        try #require(created.status == 0, "\(created.stderr)")
    }

    /// Rewrites the store's metadata with `change`, as an older Strata or a
    /// damaged file would have it.
    private func rewriteMetadata(_ change: (inout StoreMetadata) -> Void) throws {
        let opened = try Store.open(at: URL(fileURLWithPath: store))
        var metadata = opened.metadata
        change(&metadata)
        try opened.connection.inTransaction(.immediate) { try opened.writeMetadata(metadata) }
        try opened.close()
    }

    @Test func testInfoAndQueryNeedNoSchemasOnACreatedStore() throws {
        let info = try StrataRunner.run(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr == "")
        #expect(
            info.stdout.hasPrefix(
                """
                Store      \(store)
                Model      Diary, version 4 (identifier "4.0")
                Hashes     match the schema stored in the store (StrataModelSchema)

                """))

        let count = try StrataRunner.run(["query", store, "DiaryEntry", "--count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout == "0\n")
        #expect(count.stderr == "")

        let json = try StrataRunner.run(["info", store, "--json"])
        let object =
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["modelSource"] as? String == "storedSchema")
    }

    @Test func testSchemasThatDisagreeWithTheStoreAreRefused() throws {
        let expected = """
            error: \(store): matches no version of Notes; nearest is version 1, which differs in: \
            DiaryEntry (only in the store), Medium (only in the store), Note (only in the schema), \
            Tag (only in the store); the store holds Diary version 4

            """
        for command in [["info", store], ["query", store, "DiaryEntry", "--count"]] {
            let outcome = try StrataRunner.run(command + ["--schemas", "Schemas/Notes"])
            #expect(outcome.status == 1, "\(command[0])")
            #expect(outcome.stdout == "")
            #expect(outcome.stderr == expected, "\(command[0])")
        }
    }

    @Test func testAStoreThatNamesNoModelAsksForSchemas() throws {
        try rewriteMetadata { $0.modelSchema = nil }  // As Strata wrote stores before.
        let query = try StrataRunner.run(["query", store, "DiaryEntry", "--count"])
        #expect(query.status == 1)
        #expect(
            query.stderr == """
                error: \(store): the store names no model: it has neither Strata's stored schema \
                (StrataModelSchema) nor Core Data's model cache (Z_MODELCACHE); give --schemas DIR

                """)
        let named = try StrataRunner.run([
            "query", store, "DiaryEntry", "--count", "--schemas", "Schemas/Diary",
        ])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout == "0\n")
        // info still describes it, from Strata's name and version keys.
        let info = try StrataRunner.run(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("\nModel      Diary, version 4 (identifier \"4.0\")\n"))
    }

    @Test func testMigrateGivesAStoreWithoutASchemaItsSchema() throws {
        try rewriteMetadata { $0.modelSchema = nil }
        let migrate = try StrataRunner.run(["migrate", store, "--schemas", "Schemas/Diary"])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout == "Up to date: version 4.\n")
        let count = try StrataRunner.run(["query", store, "DiaryEntry", "--count"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(count.stdout == "0\n")
    }

    @Test func testADamagedStoredSchemaIsAnErrorNotACrash() throws {
        try rewriteMetadata { $0.modelSchema = Data([0xFF, 0x00, 0x42]) }
        let query = try StrataRunner.run(["query", store, "DiaryEntry", "--count"])
        #expect(query.status == 1)
        #expect(
            query.stderr.hasPrefix(
                "error: \(store): Z_METADATA.Z_PLIST: StrataModelSchema: the stored schema does "
                    + "not inflate ("))
        #expect(query.stderr.hasSuffix("; give --schemas DIR\n"))
        // info goes on without the model, saying why.
        let info = try StrataRunner.run(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.hasPrefix("warning: \(store): Z_METADATA.Z_PLIST: StrataModelSchema: "))
        #expect(info.stderr.hasSuffix("; ignoring it\n"))
    }
}
