import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// Runs every case of ``PredicateCaseTable`` through SQL: compiled by
/// ``PredicateSQLCompiler`` and run on the fixture's saved store, with the
/// same expected matches as the in-memory evaluation.
struct PredicateSQLTests {
    /// The `name`s of the rows of `entity`'s tree that `predicate` selects,
    /// sorted.
    static func names(
        _ predicate: Strata.FetchPredicate, entity: String, fixture: PredicateFixture
    ) throws -> [String] {
        let mapping = fixture.context.mapping
        var compiler = try PredicateSQLCompiler(mapping: mapping, entity: entity)
        let condition = try compiler.condition(predicate)
        let numbers = mapping.entity(named: entity)?.treeNumbers ?? []
        let sql =
            "SELECT t0.\"ZNAME\" FROM \(compiler.fromClause) WHERE t0.Z_ENT IN ("
            + numbers.map(String.init).joined(separator: ", ") + ") AND \(condition)"
        let statement = try fixture.store.connection.prepare(sql)
        try statement.bind(compiler.arguments)
        var names: [String] = []
        try statement.forEachRow { names.append($0.text(at: 0) ?? "") }
        return names.sorted()
    }

    @Test func testEveryCaseThroughSQL() throws {
        let fixture = try PredicateFixture.make()
        #expect(!fixture.context.hasChanges)
        let cases = PredicateCaseTable.cases(fixture)
        #expect(cases.count >= 150)
        var failures = 0
        for item in cases {
            do {
                let found = try PredicateSQLTests.names(
                    try item.parsed(), entity: item.entity, fixture: fixture)
                #expect(found == item.expected, "\(item)")
                if found != item.expected { failures += 1 }
            } catch {
                Issue.record("\(item): \(error)")
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    @Test func testEveryCaseThroughFetchRequests() throws {
        let fixture = try PredicateFixture.make()
        for item in PredicateCaseTable.cases(fixture) {
            var request = FetchRequest(entity: item.entity)
            request.predicate = try item.parsed()
            let found = try fixture.context.fetch(request).map { try $0.string("name") ?? "" }
            #expect(found.sorted() == item.expected, "\(item)")
        }
    }
}
