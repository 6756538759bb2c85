import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Issue 15: a killed `create` must leave no half-made store; `create` is
/// built in a hidden file and linked into place only when complete.
struct StoreCreateTests {
    static let notes = Model(
        name: "Notes", version: 1,
        entities: [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string)])])

    @Test func testFailureDuringCreationLeavesNoTargetAndNoHiddenFile() throws {
        // Two tables SQLite takes to be one: the build fails half-way.
        let clashing = Model(
            name: "M", version: 1,
            entities: [
                Entity(name: "Item", attributes: [Attribute(name: "a", type: .string)]),
                Entity(name: "ITEM", attributes: [Attribute(name: "b", type: .string)]),
            ])
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("m.sqlite")
        #expect {
            try Store.create(at: target, model: clashing)
        } throws: { error in
            "\(error)".hasPrefix("\(target.relativePath): cannot create the store's tables: ")
                && "\(error)".hasSuffix("; nothing was created")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    @Test func testExistingFileIsRefusedAndLeftUnchanged() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("n.sqlite")
        try Data("not mine".utf8).write(to: target)
        #expect(throws: StoreError.self) { try Store.create(at: target, model: Self.notes) }
        #expect(try Data(contentsOf: target) == Data("not mine".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["n.sqlite"])
    }

    @Test func testLeftoverOfAKilledCreateIsReplaced() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("n.sqlite")
        let hidden = Store.temporaryPath(for: target)
        #expect(hidden.hasSuffix("/.n.sqlite.strata-creating"))
        try Data(repeating: 0x55, count: 5000).write(to: URL(fileURLWithPath: hidden))
        try Data("stale".utf8).write(to: URL(fileURLWithPath: hidden + "-journal"))

        let store = try Store.create(at: target, model: Self.notes)
        try store.close()
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["n.sqlite"])
        #expect(try Store.open(at: target, mode: .readOnly).metadata.modelName == "Notes")
    }

    @Test func testSecondCreateOfTheSameStoreWhileOneRunsIsRefused() throws {
        let folder = try TemporaryDirectory()
        let target = folder.url.appendingPathComponent("n.sqlite")
        let running = try FileSystem.CreationLock(
            Store.temporaryPath(for: target), storePath: target.relativePath)
        #expect {
            try Store.create(at: target, model: Self.notes)
        } throws: { error in
            (error as? StoreError)?.code == .alreadyExists
                && "\(error)".contains("another create of this store is running")
        }
        running.release()
        #expect(!FileManager.default.fileExists(atPath: target.path))
        try Store.create(at: target, model: Self.notes).close()
    }
}
