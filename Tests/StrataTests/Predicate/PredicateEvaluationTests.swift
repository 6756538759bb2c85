import Foundation
import Testing

@testable import Strata

/// Runs every case of ``PredicateCaseTable`` in memory over the fixture's
/// objects.
@Suite struct PredicateEvaluationTests {
    @Test func testTheFixtureSavesAndEveryCaseParses() throws {
        let fixture = try PredicateFixture.make()
        #expect(fixture.objects.count == 31)
        let cases = PredicateCaseTable.cases(fixture)
        #expect(cases.count >= 150)
        for item in cases {
            #expect(throws: Never.self, "\(item)") { try item.parsed() }
        }
    }
}

extension PredicateEvaluationTests {
    @Test func testEveryCaseInMemory() throws {
        let fixture = try PredicateFixture.make()
        for item in PredicateCaseTable.cases(fixture) {
            let objects = try fixture.context.findAll(item.entity)
            let matches = try fixture.context.filter(objects, with: try item.parsed())
            let names = try matches.map { try $0.string("name") ?? "?" }.sorted()
            #expect(names == item.expected, "\(item)")
        }
    }
}
