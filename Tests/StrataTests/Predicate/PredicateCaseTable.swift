import Foundation

@testable import Strata
@testable import StrataQuery

/// One case of the table: a predicate over an entity (subentities included)
/// of ``PredicateFixture`` and the names of the objects it matches.
struct PredicateCase: CustomStringConvertible {
    /// The entity fetched; objects of its subentities are included.
    let entity: String
    /// The predicate text.
    let predicate: String
    /// The arguments of its format specifiers.
    let arguments: [PredicateArgument]
    /// Values for its `$VARIABLES`.
    let variables: [String: PredicateValue]
    /// The `name`s of the matching objects, sorted.
    let expected: [String]

    var description: String { "\(entity): \(predicate)" }

    /// The case's predicate, parsed.
    func parsed() throws -> Strata.FetchPredicate {
        try Strata.FetchPredicate(predicate, arguments: arguments, variables: variables)
    }
}

/// The predicate cases that both the in-memory evaluator and the SQL
/// compiler must answer identically, over ``PredicateFixture/make()``.
///
/// ```swift
/// let fixture = try PredicateFixture.make()
/// for item in PredicateCaseTable.cases(fixture) { … }
/// ```
enum PredicateCaseTable {
    /// Every case; object arguments come from `fixture`.
    static func cases(_ fixture: PredicateFixture) -> [PredicateCase] {
        comparisons + strings + relationships(fixture) + substitutions(fixture) + logic
    }

    static func on(_ entity: String, _ predicate: String, _ expected: [String]) -> PredicateCase {
        on(entity, predicate, [], expected)
    }

    static func on(
        _ entity: String, _ predicate: String, _ arguments: [PredicateArgument],
        variables: [String: PredicateValue] = [:], _ expected: [String]
    ) -> PredicateCase {
        PredicateCase(
            entity: entity, predicate: predicate, arguments: arguments, variables: variables,
            expected: expected.sorted())
    }

    static func person(_ predicate: String, _ expected: [String]) -> PredicateCase {
        on("Person", predicate, [], expected)
    }

    static func person(
        _ predicate: String, variables: [String: PredicateValue], _ expected: [String]
    ) -> PredicateCase {
        on("Person", predicate, [], variables: variables, expected)
    }

    static func person(
        _ predicate: String, _ arguments: [PredicateArgument],
        variables: [String: PredicateValue] = [:], _ expected: [String]
    ) -> PredicateCase {
        on("Person", predicate, arguments, variables: variables, expected)
    }

    static func date(_ iso: String) -> PredicateValue { .date(PredicateFixture.day(iso)) }

    // MARK: - Numbers, booleans, dates, nil

    static let comparisons: [PredicateCase] = [
        person("age = 25", ["bob", "dora"]),
        person("age == 25", ["bob", "dora"]),
        person("age != 25", ["ada", "cem", "eve", "finn"]),
        person("age <> 25", ["ada", "cem", "eve", "finn"]),
        person("age < 25", ["finn"]),
        person("age <= 25", ["bob", "dora", "finn"]),
        person("age =< 25", ["bob", "dora", "finn"]),
        person("age > 36", ["eve"]),
        person("age >= 36", ["ada", "eve"]),
        person("age => 36", ["ada", "eve"]),
        person("25 < age", ["ada", "eve"]),
        person("36 >= age", ["ada", "bob", "dora", "finn"]),
        person("age = nil", ["cem"]),
        person("age == NULL", ["cem"]),
        person("age != nil", ["ada", "bob", "dora", "eve", "finn"]),
        person("nil = age", ["cem"]),
        person("age < nil", []),
        person("age >= nil", []),
        person("age BETWEEN {19, 25}", ["bob", "dora", "finn"]),
        person("age BETWEEN {26, 40}", ["ada"]),
        person("age BETWEEN {25, 25}", ["bob", "dora"]),
        person("age IN {19, 41, 99}", ["eve", "finn"]),
        person("age IN {25, nil}", ["bob", "dora"]),
        person("NOT age IN {25}", ["ada", "cem", "eve", "finn"]),
        person("age = 25.0", ["bob", "dora"]),
        person("age > 24.5", ["ada", "bob", "dora", "eve"]),
        person("height >= 1.7", ["bob", "dora", "finn"]),
        person("height < 1.65", ["eve"]),
        person("height BETWEEN {1.6, 1.7}", ["ada", "dora", "eve"]),
        person("height = nil", ["cem"]),
        person("score < 0", ["bob"]),
        person("score = 0", ["dora"]),
        person("score != 0", ["ada", "bob", "cem", "eve", "finn"]),
        person("score > 10 AND score < 50", ["eve"]),
        person("score > age", ["ada", "eve"]),
        person("score < age", ["bob", "dora", "finn"]),
        person("active = YES", ["ada", "eve", "finn"]),
        person("active == TRUE", ["ada", "eve", "finn"]),
        person("active = NO", ["bob", "dora"]),
        person("active == false", ["bob", "dora"]),
        person("active != YES", ["bob", "cem", "dora"]),
        person("active = 1", ["ada", "eve", "finn"]),
        person("active = nil", ["cem"]),
        person("birthday = nil", ["cem", "finn"]),
        on("Pet", "weight = nil", ["kitty"]),
        on("Pet", "age >= 3 AND species != 'cat'", ["polly", "rex"]),
        on("Pet", "species IN {'dog', 'fish'}", ["goldie", "rex", "stray"]),
        on("Entry", "rating > 3", ["walk", "wild"]),
        on("Entry", "rating = 3", ["space"]),
        on("Entry", "rating != 3", ["blank", "naive", "shout", "street", "walk", "wild"]),
        on("Company", "city = nil", ["umbrella"]),
        on("Group", "kind != 'club'", ["book", "empty"]),
        on("Employee", "salary > 2000", ["eve"]),
        on("Employee", "title = nil", ["finn"]),
        on("Employee", "name BEGINSWITH 'e'", ["eve"]),
        on("Employee", "age < 30", ["finn"]),
    ]

    // MARK: - Strings

    static let strings: [PredicateCase] = [
        person("name = 'ada'", ["ada"]),
        person(#"name == "bob""#, ["bob"]),
        person("name != 'ada'", ["bob", "cem", "dora", "eve", "finn"]),
        person("name < 'c'", ["ada", "bob"]),
        person("name >= 'e'", ["eve", "finn"]),
        person("name BETWEEN {'b', 'd'}", ["bob", "cem"]),
        person("name IN {'ada', 'eve', 'zed'}", ["ada", "eve"]),
        person("name IN {}", []),
        person("name =[c] 'ADA'", ["ada"]),
        person("name ENDSWITH 'a'", ["ada", "dora"]),
        // Binary (UTF-8 byte) order: upper case before lower case, "Ç" after "z".
        person("nickname < 'a'", ["ada", "eve", "finn"]),
        person("nickname > 'z'", ["cem"]),
        person("nickname BEGINSWITH 'dora'", ["dora"]),
        person("nickname BEGINSWITH 'f'", []),
        person("nickname BEGINSWITH[c] 'f'", ["finn"]),
        person("nickname ENDSWITH 'ess'", ["ada"]),
        person("nickname ENDSWITH 'nn'", []),
        person("nickname ENDSWITH[c] 'NN'", ["finn"]),
        person("nickname CONTAINS 'the'", ["dora"]),
        person("nickname CONTAINS 'E'", ["eve"]),
        person("nickname CONTAINS[c] 'E'", ["ada", "cem", "dora", "eve"]),
        person("nickname CONTAINS[cd] 'E'", ["ada", "cem", "dora", "eve"]),
        person("nickname ==[d] 'Cem'", ["cem"]),
        person("nickname ==[cd] 'EVE'", ["eve"]),
        person("nickname == 'Eve'", []),
        person("nickname ==[c] 'eve'", []),
        person("nickname IN[c] {'finn', 'countess'}", ["ada", "finn"]),
        person("nickname LIKE 'C*'", ["ada"]),
        person("nickname LIKE[d] 'C*'", ["ada", "cem"]),
        person("nickname LIKE 'Ev?'", ["eve"]),
        person("nickname LIKE[c] '*EXPLORER'", ["dora"]),
        person("nickname LIKE '*o*'", ["ada", "dora"]),
        person("nickname LIKE[cd] 'eve'", ["eve"]),
        person("nickname MATCHES '[A-Z]+'", ["finn"]),
        person("nickname MATCHES 'C.*'", ["ada"]),
        person("nickname MATCHES[c] 'f.nn'", ["finn"]),
        person("nickname MATCHES 'dora'", []),
        person("nickname MATCHES '.*explorer'", ["dora"]),
        person("nickname MATCHES[d] 'Cem'", ["cem"]),
        // The whole string must match, not only a prefix the first branch finds.
        person("name MATCHES '(a|ad)a'", ["ada"]),
        person("nickname = nil", ["bob"]),
        person("nickname != nil", ["ada", "cem", "dora", "eve", "finn"]),
        person("nickname != 'FINN'", ["ada", "bob", "cem", "dora", "eve"]),
        person("NOT nickname CONTAINS 'o'", ["bob", "cem", "eve", "finn"]),
        // The issue's examples.
        on("Entry", "text CONTAINS[cd] 'all'", ["shout", "space", "walk"]),
        on("Entry", "text CONTAINS 'all'", ["space"]),
        on("Entry", "text CONTAINS[c] 'vogel'", []),
        on("Entry", "text CONTAINS[cd] 'VOGEL'", ["walk"]),
        on("Entry", "text CONTAINS[d] 'Vogel'", ["walk"]),
        // Full case folding: ß folds to ss.
        on("Entry", "text CONTAINS[c] 'STRASSE'", ["street"]),
        on("Entry", "text ==[c] 'straße'", ["street"]),
        on("Entry", "text BEGINSWITH[cd] 'NAIVE'", ["naive"]),
        on("Entry", "text ENDSWITH[d] 'cafe'", ["naive"]),
        on("Entry", "text ENDSWITH 'cafe'", []),
        on("Entry", #"text LIKE '*\\**'"#, ["wild"]),
        on("Entry", "text LIKE '*wild??cards'", ["wild"]),
        on("Entry", "text LIKE 'a*'", []),
        on("Entry", "text LIKE[c] 'a*'", ["shout", "walk"]),
        on("Entry", "text MATCHES '.*%.*'", ["wild"]),
        on("Entry", "text MATCHES[c] 'alle.*'", ["shout", "walk"]),
        on("Entry", "text = nil", ["blank"]),
        on("Medium", "entry.text CONTAINS[cd] 'cafe'", ["img3"]),
    ]
}
