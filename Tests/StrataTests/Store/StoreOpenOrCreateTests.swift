import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataStore

/// `Store.withStore(at:isDryRun:newModel:_:)`: the store there is opened,
/// a missing one is made whole or not at all, and a dry run leaves nothing.
struct StoreOpenOrCreateTests {
    private struct Refused: Error {}

    private static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func testAStoreThatIsThereIsOpenedAndNoModelIsAskedFor() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("Library.sqlite")
        try Store.create(at: url, model: GraphModels.library()).close()
        let origin = try Store.withStore(
            at: url, isDryRun: false, newModel: { throw Refused() }
        ) { store, origin in
            #expect(store.url.lastPathComponent == "Library.sqlite")
            return origin
        }
        guard case .opened = origin else {
            Issue.record("expected the store to be opened, got \(origin)")
            return
        }
    }

    @Test func testAMissingStoreIsCreatedForTheNewModelAndFilled() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("Library.sqlite")
        let rows = try Store.withStore(
            at: url, isDryRun: false, newModel: { GraphModels.library() }
        ) { store, origin -> Int in
            guard case .created(let model) = origin else { return -1 }
            let context = try Context(store: store, model: model)
            try context.insert("Author").set("name", "Ada")
            try context.save()
            return 1
        }
        #expect(rows == 1)
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        #expect(try store.connection.scalar("SELECT count(*) FROM ZAUTHOR") == .integer(1))
    }

    @Test func testADryRunOnAMissingStoreLeavesNothingBehind() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("Library.sqlite")
        let sawAStore = try Store.withStore(
            at: url, isDryRun: true, newModel: { GraphModels.library() }
        ) { store, _ in
            FileManager.default.fileExists(atPath: store.url.path)
        }
        #expect(sawAStore)
        #expect(try Self.contents(of: folder.url) == [])
    }

    @Test func testAFailedFillLeavesNoStore() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url.appendingPathComponent("Library.sqlite")
        #expect(throws: Refused.self) {
            try Store.withStore(at: url, isDryRun: false, newModel: { GraphModels.library() }) {
                _, _ in throw Refused()
            }
        }
        #expect(try Self.contents(of: folder.url) == [])
    }
}
