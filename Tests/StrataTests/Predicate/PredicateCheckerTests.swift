import Foundation
import Testing

@testable import Strata
@testable import StrataQuery

/// Checking predicates against a model: unknown keys, to-many paths without
/// a quantifier, type mismatches and bad patterns, each located.
struct PredicateCheckerTests {
    private let model = PredicateFixture.model()

    /// The error checking `format` on `entity` throws, or nil.
    private func failure(
        _ format: String, _ arguments: [PredicateArgument] = [], entity: String = "Person"
    ) -> Strata.FetchPredicateError? {
        do {
            _ = try Strata.FetchPredicate(
                format, arguments: arguments, entity: entity, model: model)
            return nil
        } catch let error as Strata.FetchPredicateError {
            return error
        } catch {
            return nil
        }
    }

    @Test func testAStringOperatorOnANumberNamesTheKeyAndItsType() {
        let error = failure("age CONTAINS 3")
        #expect(error?.code == .typeMismatch)
        #expect(error?.column == 1)
        #expect(error?.message == "CONTAINS needs strings, but 'age' is integer32")
        #expect(
            error?.description == """
                predicate error at column 1: CONTAINS needs strings, but 'age' is integer32
                  age CONTAINS 3
                  ^
                """)
    }

    @Test func testUnknownKeysAnywhereOnThePath() {
        let error = failure("name = 'x' AND employer.town = 'Berlin'")
        #expect(error?.code == .unknownKey)
        #expect(error?.column == 16)
        #expect(error?.message == "Company has no attribute or relationship 'town'")
        #expect(failure("agee > 3")?.message == "Person has no attribute or relationship 'agee'")
        // Subentity attributes are not on the parent; inherited ones are on the child.
        #expect(failure("salary > 3")?.code == .unknownKey)
        #expect(failure("salary > 3 AND name = 'x'", entity: "Employee") == nil)
        #expect(
            failure("age.value = 3")?.message
                == "'age' is an attribute of Person (integer32); a key path continues only "
                + "through relationships")
    }

    @Test func testToManyPathsNeedAQuantifierOrCount() {
        let error = failure("pets.species = 'cat'")
        #expect(error?.code == .quantifier)
        #expect(
            error?.message
                == "'pets.species' goes through a to-many relationship: use ANY, ALL or NONE, "
                + "or @count")
        #expect(failure("ANY pets.species = 'cat'") == nil)
        #expect(failure("pets.@count > 1") == nil)
        #expect(failure("pets CONTAINS %@", [.value(.null)]) == nil)
        #expect(
            failure("ANY employer.name = 'acme'")?.message
                == "ANY needs a key path through a to-many relationship; 'employer.name' has none")
        #expect(
            failure("employer.@count > 1")?.message
                == "@count needs a to-many relationship, but 'employer' is a to-one "
                + "relationship to Company")
        #expect(failure("ANY groups.members.name = 'eve'") == nil)
    }

    @Test func testTypesMustFitTheOperator() {
        #expect(
            failure("age = 'old'")?.message
                == "'age' is integer32 and cannot be compared (=) with a string")
        #expect(failure("birthday < 3")?.code == .typeMismatch)
        #expect(failure("birthday < %@", [.value(.date(0))]) == nil)
        #expect(failure("active = 1") == nil)
        #expect(failure("age IN {1, 'two'}")?.code == .typeMismatch)
        #expect(failure("age BETWEEN {1, 'two'}")?.code == .typeMismatch)
        #expect(failure("name BEGINSWITH 3")?.code == .typeMismatch)
        #expect(
            failure("age ==[c] 3")?.message
                == "[c] and [d] apply to strings, but 'age' is integer32")
        #expect(
            failure("employer > %@", [.value(.null)])?.message
                == "> orders values, but 'employer' is a to-one relationship to Company")
        #expect(failure("employer = nil") == nil)
        #expect(failure("score > age") == nil)
        #expect(failure("name = age")?.code == .typeMismatch)
        #expect(failure("age IN 3")?.code == .typeMismatch)
    }

    @Test func testObjectArgumentsMustBeOfTheDestinationEntity() throws {
        let fixture = try PredicateFixture.make()
        #expect(failure("employer = %@", [fixture.object("acme")]) == nil)
        #expect(failure("employer = %@", [fixture.object("rex")])?.code == .typeMismatch)
        // A subentity's object is a Person too.
        #expect(failure("ANY groups.members = %@", [fixture.object("eve")]) == nil)
    }

    @Test func testMatchesPatternsMustCompile() {
        let error = failure("name MATCHES '(unclosed'")
        #expect(error?.code == .invalidPattern)
        #expect(error?.column == 1)
        #expect(failure("name MATCHES '[a-z]+'") == nil)
    }

    @Test func testUnknownEntityAndUnboundVariables() throws {
        #expect(failure("name = 'x'", entity: "Nobody")?.code == .unknownEntity)
        // Variables are checked once bound.
        let template = try Strata.FetchPredicate("age = $AGE")
        #expect(throws: Never.self) { try template.check(entity: "Person", model: model) }
        let bound = try template.substituting(["AGE": .string("x")])
        #expect(throws: Strata.FetchPredicateError.self) {
            try bound.check(entity: "Person", model: model)
        }
    }

    @Test func testFilterChecksBeforeEvaluating() throws {
        let fixture = try PredicateFixture.make()
        let people = try fixture.context.findAll("Person")
        #expect(throws: Strata.FetchPredicateError.self) {
            try fixture.context.filter(people, with: try Strata.FetchPredicate("age CONTAINS 3"))
        }
        let unbound = try Strata.FetchPredicate("age > $MIN")
        #expect(throws: Strata.FetchPredicateError.self) {
            try fixture.context.filter(people, with: unbound)
        }
    }
}
