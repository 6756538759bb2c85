import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore

/// Two processes saving the same object: the conflict is detected and no
/// edit is lost. The other process is `strata-test-writer`, built beside the
/// test binary.
struct ContextConflictProcessTests {
    /// What the writer printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The `strata-test-writer` executable in the build folder.
    static func writer() throws -> URL {
        try BuiltExecutable.url(named: "strata-test-writer")
    }

    /// Runs the writer; output goes to files, so it can never block on a pipe.
    func runWriter(_ arguments: [String], in folder: TemporaryDirectory) throws -> Run {
        let outURL = folder.file("writer.out")
        let errURL = folder.file("writer.err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outURL)
        let errors = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try ContextConflictProcessTests.writer()
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    @Test func testSecondProcessSaveMakesOurSaveConflictAndNothingIsLost() throws {
        let fixture = try ContextFixture("Contacts")
        let seed = try fixture.context.insert("Contact")
        try seed.set("firstName", "Ada")
        try seed.set("lastName", "Byron")
        try fixture.context.save()

        // Context A reads p1 and edits it, without saving yet.
        let context = try fixture.reopened()
        let ada = try #require(
            try context.findFirst("Contact", where: ["lastName": .string("Byron")]))
        try ada.set("lastName", "Lovelace")

        // Meanwhile another process edits the same contact and saves.
        let run = try runWriter(
            [
                fixture.store.url.path,
                ContextFixture.schemas.appendingPathComponent("Contacts").path,
                "Contact", "1", "nickname", "Countess",
            ], in: fixture.folder)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "2\n")

        // A's save is refused; the other process's value stays.
        #expect {
            try context.save()
        } throws: { error in
            (error as? ContextError)?.code == .conflict
                && (error as? ContextError)?.objects == [ada.objectID]
        }
        let row = "SELECT ZLASTNAME, ZNICKNAME, Z_OPT FROM ZCONTACT WHERE Z_PK = 1"
        var stored: [SQLiteValue] = []
        try fixture.store.connection.prepare(row).forEachRow { stored = $0.values() }
        #expect(stored == [.text("Byron"), .text("Countess"), .integer(2)])

        // A takes the store's version, applies its edit again, and saves.
        try context.refresh(ada)
        #expect(try ada.string("nickname") == "Countess")
        try ada.set("lastName", "Lovelace")
        try context.save()
        try fixture.store.connection.prepare(row).forEachRow { stored = $0.values() }
        #expect(stored == [.text("Lovelace"), .text("Countess"), .integer(3)])
        try fixture.expectSound()
    }

    /// The conflict idiom of ObjectContext.md, run line for line against
    /// another process's save: the rollback re-reads the row, the retry saves.
    @Test func testTheDocumentedConflictIdiomRecoversFromASecondProcessSave() throws {
        let fixture = try ContextFixture("Contacts")
        let seed = try fixture.context.insert("Contact")
        try seed.set("firstName", "Ada")
        try seed.set("lastName", "Byron")
        try fixture.context.save()
        let context = try fixture.reopened()
        let ada = try #require(
            try context.findFirst("Contact", where: ["lastName": .string("Byron")]))

        let run = try runWriter(
            [
                fixture.store.url.path,
                ContextFixture.schemas.appendingPathComponent("Contacts").path,
                "Contact", "1", "lastName", "Lovelace",
            ], in: fixture.folder)
        #expect(run.status == 0, "\(run.errors)")

        try ada.set("nickname", "Countess")
        do {
            try context.save()
        } catch ContextError.conflict {
            context.rollback()  // ada now holds the other writer's row
            try ada.set("nickname", "Countess")
            try context.save()
        }

        let row = "SELECT ZLASTNAME, ZNICKNAME, Z_OPT FROM ZCONTACT WHERE Z_PK = 1"
        var stored: [SQLiteValue] = []
        try fixture.store.connection.prepare(row).forEachRow { stored = $0.values() }
        #expect(stored == [.text("Lovelace"), .text("Countess"), .integer(3)])
        try fixture.expectSound()
    }
}
