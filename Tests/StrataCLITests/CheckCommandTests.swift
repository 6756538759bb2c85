import Foundation
import Strata
import Testing

/// `strata check STORE` (issue 27, point 13): the store's fsck passes on
/// every store `strata demo` makes and fails, naming the object, on a
/// damaged page, a one-sided to-one and a value breaking a rule.
struct CheckCommandTests {
    /// One demo run shared by the tests of a process.
    final class Demo: @unchecked Sendable {
        let folder: ScratchFolder
        let path: String
        let outcome: StrataRunner.Outcome

        init() throws {
            folder = try ScratchFolder()
            path = folder.path("demo")
            outcome = try StrataRunner.run(["demo", path])
        }

        /// Made once. A static is never released, so its folder goes when the process exits.
        static let shared = Result {
            let demo = try Demo()
            sharedFolder = demo.folder.url
            atexit {
                guard let folder = Demo.sharedFolder else { return }
                try? FileManager.default.removeItem(at: folder)  // Best effort.
            }
            return demo
        }

        /// The shared run's folder, set once while `shared` is made.
        nonisolated(unsafe) private static var sharedFolder: URL?

        /// A copy of the demo store `name`, to damage.
        func copy(_ name: String, to folder: ScratchFolder) throws -> String {
            let target = folder.path(name)
            try FileManager.default.copyItem(atPath: "\(path)/\(name)", toPath: target)
            return target
        }
    }

    private func execute(_ store: String, _ sql: String) throws {
        let connection = try Connection(path: store)
        try connection.execute(sql)
        try connection.close()
    }

    @Test func testEveryStoreTheDemoMakesIsSound() throws {
        let demo = try Demo.shared.get()
        #expect(demo.outcome.status == 0, "\(demo.outcome.stderr)")
        let stores = try FileManager.default.contentsOfDirectory(atPath: demo.path)
            .filter { $0.hasSuffix(".sqlite") }.sorted()
        #expect(stores.contains("Recipes.sqlite"))
        #expect(stores.count >= 6, "\(stores)")
        for store in stores {
            let outcome = try StrataRunner.run(["check", "\(demo.path)/\(store)"])
            #expect(outcome.status == 0, "\(store): \(outcome.stdout) \(outcome.stderr)")
            #expect(outcome.stdout.hasSuffix(": ok\n"), "\(store): \(outcome.stdout)")
        }
    }

    @Test func testAOneSidedToOneIsNamedByObject() throws {
        let folder = try ScratchFolder()
        let store = try Demo.shared.get().copy("Recipes.sqlite", to: folder)
        try execute(store, "UPDATE ZIMAGE SET ZRECIPE = NULL WHERE Z_PK = 1")
        let outcome = try StrataRunner.run(["check", store])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout.contains(
                "Recipe/p1: image → Image/p1, but Image/p1.recipe is nil"),
            "\(outcome.stdout)")
        #expect(
            outcome.stdout.contains("Image/p1: recipe is required but nil"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("2 problems found"), "\(outcome.stderr)")
    }

    @Test func testValuesBreakingRulesAreNamedByObjectAndInJSON() throws {
        let folder = try ScratchFolder()
        let store = try Demo.shared.get().copy("Diary.sqlite", to: folder)
        try execute(
            store,
            "UPDATE ZDIARYENTRY SET ZWORDCOUNT = -5 WHERE Z_PK = 1;"
                + " UPDATE ZDIARYENTRY SET ZTITLE = NULL WHERE Z_PK = 2;"
                + " UPDATE ZDIARYENTRY SET ZLATITUDE = 1000, ZCREATIONTIME = 1e300 WHERE Z_PK = 3")
        let outcome = try StrataRunner.run(["check", store])
        #expect(outcome.status == 1)
        for line in [
            "DiaryEntry/p1: wordCount -5 is below the minimum 0",
            "DiaryEntry/p2: title is required",
            "DiaryEntry/p3: creationTime 1e+300 is no date of the years 0000–9999",
            "DiaryEntry/p3: latitude 1000.0 is above the maximum 90.0",
        ] {
            #expect(outcome.stdout.contains(line + "\n"), "\(line) in \(outcome.stdout)")
        }
        let json = try StrataRunner.run(["check", store, "--json"])
        #expect(json.status == 1)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["ok"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.count == 4)
        #expect(problems.first?["object"] as? String == "DiaryEntry/p1")
        #expect(problems.first?["kind"] as? String == "minValue")
        #expect(problems.first?["property"] as? String == "wordCount")
    }

    @Test func testADamagedPageIsNamedByItsTable() throws {
        let folder = try ScratchFolder()
        let store = try Demo.shared.get().copy("Diary.sqlite", to: folder)
        let connection = try Connection(path: store, mode: .readOnly)
        let root = try #require(
            try connection.scalar(
                "SELECT rootpage FROM sqlite_master WHERE name = 'ZDIARYENTRY'")?.int64Value)
        let pageSize = try #require(try connection.scalar("PRAGMA page_size")?.int64Value)
        try connection.close()
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 12))
        try handle.close()
        let outcome = try StrataRunner.run(["check", store])
        #expect(outcome.status == 1)
        #expect(
            outcome.stdout.contains("DiaryEntry: ZDIARYENTRY cannot be read"), "\(outcome.stdout)")
    }

    @Test func testSeedEndsWithTheSameChecksOnWhatItWrote() throws {
        let folder = try ScratchFolder()
        let seed = try Demo.shared.get().copy("Diary.sqlite", to: folder)
        try execute(seed, "UPDATE ZDIARYENTRY SET ZWORDCOUNT = -5 WHERE Z_PK = 1")
        let target = folder.path("App.sqlite")
        let outcome = try StrataRunner.run([
            "seed", target, "--from", seed, "--schemas", "Schemas/Diary",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("DiaryEntry/p1: wordCount -5 is below the minimum 0"),
            "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
