import Foundation
import Testing

@testable import Strata
@testable import StrataJobs
@testable import StrataStore

/// Several processes on one first-run store, and processes killed while
/// seeding it (`strata-test-seeder`, a StoreContainer in its own process).
@Suite(.serialized) struct SeedingProcessTests {
    /// What one helper run printed, split into its fields.
    struct Run {
        var status: Int32
        var killed: Bool
        var fields: [String: String]
        var stderr: String

        var outcome: String? { fields["outcome"] }
        /// The object counts, `Entity=n` joined by spaces.
        var counts: String {
            fields.filter { $0.key.first?.isUppercase == true }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    private static func launch(_ arguments: [String], in folder: TemporaryDirectory, tag: String)
        throws -> (Process, URL, URL)
    {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "strata-test-seeder")
        process.arguments = arguments
        let out = folder.file("\(tag).out")
        let err = folder.file("\(tag).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return (process, out, err)
    }

    private static func finish(_ launched: (Process, URL, URL)) throws -> Run {
        let (process, out, err) = launched
        process.waitUntilExit()
        let line = try String(contentsOf: out, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var fields: [String: String] = [:]
        for (index, word) in line.split(separator: " ").enumerated() {
            if index == 0 {
                fields["outcome"] = String(word)
            } else if let equals = word.firstIndex(of: "=") {
                fields[String(word[..<equals])] = String(word[word.index(after: equals)...])
            }
        }
        return Run(
            status: process.terminationStatus,
            killed: process.terminationReason == .uncaughtSignal
                && process.terminationStatus == SIGKILL,
            fields: fields, stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// The seed every test starts from: a version-1 store as Core Data
    /// wrote Apple's, so seeding copies and migrates.
    private static func makeSeed(in folder: TemporaryDirectory) throws -> URL {
        let url = folder.file("Recipes-seed.sqlite")
        try SeedingFixture.makeCoreDataVersionOneStore(at: url)
        return url
    }

    private static func arguments(store: URL, seed: URL, killAt: Int? = nil) -> [String] {
        [store.path, SeedingFixture.recipesSchemas.path, seed.path]
            + (killAt.map { ["\($0)"] } ?? [])
    }

    @Test func testEightProcessesStartingTogetherMakeExactlyOneSeededStore() throws {
        let folder = try TemporaryDirectory()
        let seed = try Self.makeSeed(in: folder)
        let data = folder.file("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let store = data.appendingPathComponent("Recipes.sqlite")
        let launched = try (0..<8).map {
            try Self.launch(Self.arguments(store: store, seed: seed), in: folder, tag: "p\($0)")
        }
        let runs = try launched.map(Self.finish)
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        #expect(runs.filter { $0.outcome == "seeded" }.count == 1)
        #expect(runs.filter { $0.outcome == "existing" }.count == 7)
        #expect(Set(runs.compactMap { $0.fields["uuid"] }).count == 1)
        let ingredients = try SeedingFixture.recipes().reduce(0) { $0 + $1.ingredients.count }
        let expected = "Image=12 Ingredient=\(ingredients) Recipe=12 RecipeType=4"
        for run in runs { #expect(run.counts == expected) }
        #expect(try SeedingFixture.strayFiles(in: data) == [])
    }

    /// A small deterministic generator (SplitMix64), so the trials are the
    /// same on every run.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func testAProcessKilledAtAnyStepLeavesNoneOrAWholeStoreAndTheNextStartSeeds() throws {
        let folder = try TemporaryDirectory()
        let seed = try Self.makeSeed(in: folder)
        // A full run tells how many steps a seeding has and what it makes.
        let reference = try Self.finish(
            Self.launch(
                Self.arguments(store: folder.file("reference/Recipes.sqlite"), seed: seed),
                in: folder, tag: "reference"))
        #expect(reference.outcome == "seeded", "\(reference.stderr)")
        let steps = try #require(reference.fields["steps"].flatMap { Int($0) })
        #expect(steps >= 8)

        var random = SplitMix64(state: 12)
        var killedBeforeTheLink = 0
        for trial in 0..<30 {
            let killAt = Int.random(in: 1...steps, using: &random)
            let data = folder.file("trial\(trial)")
            let store = data.appendingPathComponent("Recipes.sqlite")
            let killed = try Self.finish(
                Self.launch(
                    Self.arguments(store: store, seed: seed, killAt: killAt), in: folder,
                    tag: "k\(trial)"))
            #expect(killed.killed, "trial \(trial): step \(killAt) of \(steps): \(killed.stderr)")
            // The last step is the link: before it there is no store at all.
            let exists = FileManager.default.fileExists(atPath: store.path)
            #expect(exists == (killAt == steps), "trial \(trial): step \(killAt)")
            if !exists { killedBeforeTheLink += 1 }

            let next = try Self.finish(
                Self.launch(Self.arguments(store: store, seed: seed), in: folder, tag: "n\(trial)"))
            #expect(next.status == 0, "trial \(trial): \(next.stderr)")
            #expect(next.outcome == (exists ? "existing" : "seeded"))
            #expect(next.counts == reference.counts, "trial \(trial)")
            let stray = try SeedingFixture.strayFiles(in: data)
            #expect(stray == [], "trial \(trial), killed at \(killAt): \(stray)")
            let reopened = try Store.open(at: store)
            #expect(try reopened.connection.integrityCheck() == ["ok"])
            #expect(SeedRecord(metadata: reopened.metadata)?.version == 1)
            try reopened.close()
        }
        #expect(killedBeforeTheLink > 20)
    }
}
