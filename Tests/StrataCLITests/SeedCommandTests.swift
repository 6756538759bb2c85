import Foundation
import Testing

/// `strata seed` and the seeding part of `strata demo`.
struct SeedCommandTests {
    static let plist = "Samples/Recipes/seed-recipes.plist"
    static let mapping = "Samples/Recipes/seed-recipes.mapping.json"

    @Test func testSeedsOnceThenSaysTheStoreExists() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Recipes.sqlite")
        let first = try StrataRunner.run([
            "seed", store, "--from", Self.plist, "--map", Self.mapping, "--schemas",
            "Schemas/Recipes",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.hasPrefix(
                "Seeded \(store) from \(Self.plist) (plist, version 2): "
                    + "12 Image, 50 Ingredient, 12 Recipe, 4 RecipeType in "), "\(first.stdout)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let second = try StrataRunner.run([
            "seed", store, "--from", Self.plist, "--map", Self.mapping, "--schemas",
            "Schemas/Recipes",
        ])
        #expect(second.status == 0)
        #expect(
            second.stdout
                == "\(store) exists already (seeded earlier from seed-recipes.plist); "
                + "not seeded again, nothing changed\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func testJSONSaysWhichHappenedAndAStoreSeedFindsItsSchemas() throws {
        let folder = try ScratchFolder()
        let seed = folder.path("Recipes-seed.sqlite")
        let built = try StrataRunner.run([
            "seed", seed, "--from", Self.plist, "--map", Self.mapping, "--schemas",
            "Schemas/Recipes",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        let store = folder.path("app/Recipes.sqlite")
        try FileManager.default.createDirectory(
            atPath: folder.path("app"), withIntermediateDirectories: true)
        // No --schemas: the seed store names its model, found in Schemas/.
        let seeded = try StrataRunner.run(["seed", store, "--from", seed, "--json"])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(seeded.stdout.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "seeded")
        #expect(object["version"] as? Int == 2)
        #expect((object["counts"] as? [String: Int])?["Recipe"] == 12)
        let record = try #require(object["seed"] as? [String: Any])
        #expect(record["name"] as? String == "Recipes-seed.sqlite")
        #expect(record["kind"] as? String == "store")
        #expect((record["sha256"] as? String)?.count == 64)

        let again = try StrataRunner.run(["seed", store, "--from", seed, "--json"])
        let existing = try #require(
            try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(existing["outcome"] as? String == "existing")
        #expect(
            (existing["seed"] as? [String: Any])?["sha256"] as? String == record["sha256"]
                as? String)
    }

    @Test func testAMissingSeedFailsAndMakesNothing() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Recipes.sqlite")
        let outcome = try StrataRunner.run([
            "seed", store, "--from", folder.path("nowhere.sqlite"), "--schemas", "Schemas/Recipes",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "error: \(folder.path("nowhere.sqlite")): no such seed file\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    @Test func testAnExistingStoreIsANoOpEvenWhenTheSeedIsGone() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Recipes.sqlite")
        try Data("an app's store".utf8).write(to: URL(fileURLWithPath: store))
        let outcome = try StrataRunner.run([
            "seed", store, "--from", folder.path("gone.sqlite"), "--schemas", "Schemas/Recipes",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "\(store) exists already; not seeded again, nothing changed\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == Data("an app's store".utf8))
    }

    @Test func testEightSeedCommandsAtOnceSeedOnce() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Recipes.sqlite")
        let processes = try (0..<8).map { index in
            let process = Process()
            process.executableURL = try StrataRunner.executable()
            process.arguments = [
                "seed", store, "--from", Self.plist, "--map", Self.mapping, "--schemas",
                "Schemas/Recipes", "--json",
            ]
            process.currentDirectoryURL = StrataRunner.packageRoot
            let output = folder.path("out\(index)")
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        var outcomes: [String] = []
        var hashes: Set<String> = []
        for (process, output) in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let object = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: output)))
                    as? [String: Any])
            outcomes.append(object["outcome"] as? String ?? "")
            hashes.insert((object["seed"] as? [String: Any])?["sha256"] as? String ?? "")
        }
        #expect(outcomes.sorted() == Array(repeating: "existing", count: 7) + ["seeded"])
        #expect(hashes.count == 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { !$0.hasPrefix("out") }
        #expect(left == ["Recipes.sqlite"])
    }

    @Test func testWithoutFromIsBadUsage() throws {
        let outcome = try StrataRunner.run(["seed", "x.sqlite"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("error: missing '--from <seed>'\n"))
    }

    @Test(StrataRunner.unprivilegedCondition)
    func testAnUnwritableFolderIsNamed() throws {
        let folder = try ScratchFolder()
        let data = folder.path("data")
        try FileManager.default.createDirectory(
            atPath: data, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o555])
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        let outcome = try StrataRunner.runUnprivileged([
            "seed", "\(data)/Recipes.sqlite", "--from", Self.plist, "--map", Self.mapping,
            "--schemas", "Schemas/Recipes",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.hasPrefix("error: \(data): the store's folder is not writable"),
            "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == [])
    }

    @Test func testTheDemoSeedsOnTheFirstStartAndNotOnTheSecond() throws {
        let folder = try ScratchFolder()
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let counts = "12 Image, 50 Ingredient, 12 Recipe, 4 RecipeType"
        #expect(
            outcome.stdout.contains(
                "Seed store     \(demo)/Recipes-seed.sqlite, built from "
                    + "Samples/Recipes/seed-recipes.plist: \(counts)\n"))
        #expect(
            outcome.stdout.contains(
                "First start    seeded \(demo)/Recipes.sqlite from Recipes-seed.sqlite "
                    + "(seed version 2, store version 2): \(counts) in "))
        #expect(
            outcome.stdout.contains(
                "Second start   existing: not seeded again; 12 recipes (first start: 12), "
                    + "the same store\n"))
        // The report matches the store.
        let info = try StrataRunner.run(["info", "\(demo)/Recipes.sqlite", "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let rows = (object["entities"] as? [[String: Any]] ?? []).reduce(into: [String: Int]()) {
            $0[$1["name"] as? String ?? ""] = $1["rows"] as? Int
        }
        #expect(rows == ["Image": 12, "Ingredient": 50, "Recipe": 12, "RecipeType": 4])
    }
}
