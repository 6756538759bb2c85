import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// Runs every case of ``PredicateCaseTable`` in memory over the fixture's
/// objects.
struct PredicateEvaluationTests {
    @Test func testTheFixtureSavesAndEveryCaseParses() throws {
        let fixture = try PredicateFixture.make()
        #expect(fixture.objects.count == 31)
        let cases = PredicateCaseTable.cases(fixture)
        #expect(cases.count == 241)
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

extension PredicateEvaluationTests {
    @Test func testEveryCasePassesTheChecker() throws {
        let fixture = try PredicateFixture.make()
        for item in PredicateCaseTable.cases(fixture) {
            #expect(throws: Never.self, "\(item)") {
                try item.parsed().check(
                    entity: item.entity, model: fixture.model, format: item.predicate)
            }
        }
    }
}

extension PredicateEvaluationTests {
    @Test func testErrorsNeverShowBoundValues() throws {
        let fixture = try PredicateFixture.make()
        let people = try fixture.context.findAll("Person")
        let predicate = try Strata.FetchPredicate(
            "age > $MIN AND name = %@", arguments: [.string("secret")])
        do {
            _ = try people.map { try predicate.evaluate(with: $0) }
            Issue.record("an unbound variable must fail")
        } catch let error as Strata.FetchPredicateError {
            #expect(error.code == .unboundVariable)
            #expect(error.predicate == "age > $MIN AND name == %@")
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func testMembershipWithAnUnsavedObject() throws {
        let fixture = try PredicateFixture.make()
        let context = fixture.context
        let pet = try context.insert("Pet")
        try pet.set("name", "newcomer")
        let owner = try context.insert("Person")
        try owner.set("name", "olga")
        try owner.add(pet, to: "pets")
        let people = try context.findAll("Person")
        let predicate = try Strata.FetchPredicate("pets CONTAINS %@", arguments: [.object(pet)])
        #expect(try context.filter(people, with: predicate).map(\.objectID) == [owner.objectID])
    }
}
