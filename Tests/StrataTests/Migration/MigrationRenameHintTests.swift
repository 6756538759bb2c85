import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 5: rename hints need evidence and never name the same
/// name; checked on every plan of the bundled models and the fixtures.
struct MigrationRenameHintTests {
    typealias M = MigrationTestModels

    /// Every chain the package ships or tests with real Core Data models.
    static func chains() throws -> [SchemaChain] {
        var chains: [SchemaChain] = []
        let schemas = ContextFixture.schemas
        for name in try FileManager.default.contentsOfDirectory(atPath: schemas.path).sorted() {
            chains.append(try SchemaChain.load(directory: schemas.appendingPathComponent(name)))
        }
        chains.append(SchemaChain(versions: (1...6).compactMap(FixtureModels.bookmarksWithIndexes)))
        chains.append(SchemaChain(versions: [FixtureModels.bnrV1(), FixtureModels.bnrV2()]))
        for bundle in [
            "ddg-bookmarks/BookmarksModel.xcdatamodeld", "bnr-sample/Sample.xcdatamodeld",
        ] {
            let read = try XcodeModelReader().read(at: Fixtures.url("coredata/" + bundle))
            chains.append(SchemaChain(versions: read.versions))
        }
        return chains
    }

    @Test func testNoPlanHintsARenameToTheSameName() throws {
        var plans = 0
        for chain in try Self.chains() {
            let versions = chain.versions.map(\.version)
            for (index, from) in versions.enumerated() {
                for to in versions[(index + 1)...] {
                    let plan = try MigrationPlan(chain: chain, from: from, to: to)
                    plans += 1
                    for step in plan.steps {
                        let name = step.property ?? step.entity
                        #expect(
                            step.suggestedRenamedFrom != name,
                            "\(chain.name) \(from)-\(to): \(step.names): \(step.reason)")
                        #expect(
                            !step.reason.contains(
                                "did you mean \(name) with renamedFrom: \"\(name)\""),
                            "\(chain.name) \(from)-\(to): \(step.reason)")
                    }
                }
            }
        }
        #expect(plans > 20)
    }

    /// Two attributes of one type removed and two added: only pairs whose
    /// names are alike are hinted; a lone pair needs no likeness.
    @Test func testSeveralLookalikesAreHintedOnlyWhenTheirNamesAreAlike() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book([M.attribute("colour"), M.attribute("fixItType")])]),
            to: M.model(2, [M.book([M.attribute("color"), M.attribute("documentFilePath")])]))
        let hints = plan.steps.compactMap { step in
            step.suggestedRenamedFrom.map { "\(step.property ?? "")←\($0)" }
        }
        #expect(hints == ["color←colour"])
        #expect(StepFinder.namesAreAlike("url", "urlString"))
        #expect(!StepFinder.namesAreAlike("hasRetrievedCommits", "hasRetrievedIssues"))
        #expect(!StepFinder.namesAreAlike("fixItType", "testCase"))
    }
}
