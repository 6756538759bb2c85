import Foundation
import Testing

@testable import StrataFuzzing

/// Every committed seed (`Fuzz/Corpus/<target>/`) and every reproducer of a
/// fixed finding (`Fuzz/Regressions/<target>/`) goes through its target's
/// entry point, so `swift test` catches a regression without the fuzzer.
struct FuzzCorpusTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The files of `Fuzz/<kind>/<target>/`, sorted.
    static func inputs(_ kind: String, _ target: FuzzTarget) throws -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(
            target.rawValue)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(
            at: folder, includingPropertiesForKeys: nil
        )
        .filter { !$0.lastPathComponent.hasPrefix(".") }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func testSeedsRunWithoutCrashing(target: FuzzTarget) throws {
        let seeds = try Self.inputs("Corpus", target)
        #expect(!seeds.isEmpty, "Fuzz/Corpus/\(target.rawValue) has no seeds")
        for seed in seeds {
            try Data(contentsOf: seed).withUnsafeBytes { target.run($0) }
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func testRegressionsRunWithoutCrashing(target: FuzzTarget) throws {
        for reproducer in try Self.inputs("Regressions", target) {
            try Data(contentsOf: reproducer).withUnsafeBytes { target.run($0) }
        }
    }

    @Test func testTheExecutablePicksItsTargetByNameThenByVariable() {
        #expect(
            FuzzTarget.named(program: ".build/fuzz/debug/fuzz-bplist", environment: [:]) == .bplist)
        #expect(
            FuzzTarget.named(program: "fuzz-zip", environment: ["STRATA_FUZZ_TARGET": "schema"])
                == .zip)
        #expect(
            FuzzTarget.named(
                program: "/x/fuzz-strata", environment: ["STRATA_FUZZ_TARGET": "schema"])
                == .schema)
        #expect(FuzzTarget.named(program: "/x/fuzz-strata", environment: [:]) == nil)
        #expect(
            FuzzTarget.named(program: "fuzz-nothing", environment: ["STRATA_FUZZ_TARGET": "no"])
                == nil)
    }

    @Test func testTheTargetsModelsAreThePackagesDiarySchemas() {
        // A missing model would make the predicate and mapping targets return
        // at once: fuzzing nothing, silently.
        #expect(FuzzFixtures.diary1?.version == 1)
        #expect(FuzzFixtures.diary2?.version == 2)
        #expect(FuzzFixtures.diary3?.version == 3)
        // The bundle-line target's decoder, over an empty store of the newest.
        #expect(
            FuzzTarget.BundleLineFixture.shared?.entities == [
                "DiaryEntry", "Medium", "Tag",
            ])
    }
}
