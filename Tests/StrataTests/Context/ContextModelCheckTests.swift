import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema

/// A context refuses a model whose version hashes are not the store's, unless
/// asked for a read-only, best-effort view (which never saves).
struct ContextModelCheckTests {
    /// A Diary version-3 store with one entry whose body is set.
    private func diaryThree() throws -> (ContextFixture, SchemaChain) {
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Diary"))
        let fixture = try ContextFixture("Diary", version: 3)
        let entry = try fixture.context.insert("DiaryEntry")
        try entry.set("title", "Day one")
        try entry.set("body", "A walk by the river")
        try fixture.context.save()
        return (fixture, chain)
    }

    @Test func testReadWriteContextRefusesAnotherVersionNamingBoth() throws {
        let (fixture, chain) = try diaryThree()
        for version in [1, 2] {
            let older = try #require(chain.model(version: version))
            let error = try #require(throws: ContextError.self) {
                try Context(store: fixture.store, model: older)
            }
            #expect(error.code == .modelMismatch)
            #expect(error.message.contains("the store holds Diary version 3"))
            #expect(error.message.contains("the model is Diary version \(version)"))
            #expect(error.message.contains(fixture.store.path))
        }
        // The matching version opens as before.
        _ = try Context(store: fixture.store, model: fixture.model)
    }

    @Test func testBestEffortContextReadsButDropsNoValue() throws {
        let (fixture, chain) = try diaryThree()
        let older = try #require(chain.model(version: 1))
        let view = try Context(store: fixture.store, model: older, access: .readOnlyBestEffort)
        #expect(view.access == .readOnlyBestEffort)
        let entry = try #require(try view.findAll("DiaryEntry").first)
        // Version 1's `text` has no column in a version-3 table: it reads as nil.
        #expect(try entry.string("text") == nil)
        // A value set on it would be dropped by a save: the save is refused.
        try entry.set("text", "Lost at save")
        let error = try #require(throws: ContextError.self) { try view.save() }
        #expect(error.code == .readOnly)

        // Nothing changed in the store: the version-3 values are all there.
        let reread = try fixture.reopened()
        let saved = try #require(try reread.findAll("DiaryEntry").first)
        #expect(try saved.string("title") == "Day one")
        #expect(try saved.string("body") == "A walk by the river")
        #expect(try fixture.integer("SELECT Z_OPT FROM ZDIARYENTRY") == 1)
    }

    @Test func testBestEffortContextWithNothingChangedSavesNothingQuietly() throws {
        let (fixture, chain) = try diaryThree()
        let older = try #require(chain.model(version: 2))
        let view = try Context(store: fixture.store, model: older, access: .readOnlyBestEffort)
        _ = try view.findAll("DiaryEntry")
        try view.save()
    }

    /// The example in `ObjectContext.md` ("Opening a context").
    @Test func testObjectContextArticleExample() throws {
        let (fixture, chain) = try diaryThree()
        let store = fixture.store
        let context = try Context(store: store, model: try store.matchingVersion(in: chain))
        let older = try #require(chain.model(version: 1))
        let view = try Context(store: store, model: older, access: .readOnlyBestEffort)
        #expect(context.model.version == 3)
        #expect(try view.findAll("DiaryEntry").count == 1)
    }
}
