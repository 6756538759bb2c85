import Foundation

@testable import Strata

// MARK: - Arguments, variables and logic

extension PredicateCaseTable {
    static func substitutions(_ fixture: PredicateFixture) -> [PredicateCase] {
        [
            person("name = %@", [.string("cem")], ["cem"]),
            person("name = %s", [.string("dora")], ["dora"]),
            person("age = %@", [.integer(41)], ["eve"]),
            person("height = %@", [.real(1.8)], ["bob"]),
            person("active = %@", [.value(.boolean(true))], ["ada", "eve", "finn"]),
            person("age = %d", [.integer(36)], ["ada"]),
            person("age = %i", [.integer(19)], ["finn"]),
            person("age > %ld", [.integer(30)], ["ada", "eve"]),
            person("height > %f", [.real(1.7)], ["bob", "finn"]),
            person("age IN %@", [.array([.integer(25), .integer(36)])], ["ada", "bob", "dora"]),
            person("name IN %@", [.array([.string("bob"), .string("finn")])], ["bob", "finn"]),
            person(
                "score BETWEEN %@", [.array([.integer(0), .integer(42)])], ["dora", "eve", "finn"]),
            person("birthday < %@", [.value(date("1990-01-01"))], ["ada", "eve"]),
            person("birthday = %@", [.value(date("1999-03-01"))], ["bob"]),
            person("birthday > %@", [.value(date("1999-03-01"))], ["dora"]),
            person(
                "birthday != %@", [.value(date("1999-03-01"))],
                ["ada", "cem", "dora", "eve", "finn"]),
            person(
                "birthday BETWEEN %@", [.array([date("1985-01-01"), date("1999-12-31")])],
                ["ada", "bob"]),
            person("token = %@", [.value(.uuid(PredicateFixture.token))], ["ada"]),
            person("token = nil", ["bob", "cem", "dora", "finn"]),
            person("avatar = %@", [.value(.data(PredicateFixture.avatar))], ["ada"]),
            person("employer.founded < %@", [.value(date("1960-01-01"))], ["ada", "bob", "finn"]),
            on("Entry", "creationTime < %@", [.value(date("2024-01-01"))], ["blank"]),
            on(
                "Entry", "creationTime >= %@", [.value(date("2024-03-05"))],
                ["naive", "shout", "street", "wild"]),
            on(
                "Entry", "creationTime BETWEEN %@",
                [.array([date("2024-02-01"), date("2024-03-05")])], ["shout", "space"]),
            on("Entry", "text CONTAINS[cd] %@", [.string("vögel")], ["walk"]),
            person("nickname MATCHES %@", [.string("[A-Z][a-z]+")], ["ada"]),
            person("%K = %@", [.keyPath("name"), .string("eve")], ["eve"]),
            person(
                "%K.%K = 'Berlin'", [.keyPath("employer"), .keyPath("city")],
                ["ada", "bob", "finn"]),
            person("%K = 'Berlin'", [.keyPath("employer.city")], ["ada", "bob", "finn"]),
            person("%K > 1", [.keyPath("pets.@count")], ["bob"]),
            person("ANY %K = 'cat'", [.keyPath("pets.species")], ["bob"]),
            person("age > $MIN", variables: ["MIN": .integer(30)], ["ada", "eve"]),
            person(
                "name IN $NAMES", variables: ["NAMES": .array([.string("ada"), .string("dora")])],
                ["ada", "dora"]),
            person(
                "birthday < $DAY", variables: ["DAY": date("1990-01-01")], ["ada", "eve"]),
            person(
                "employer = $CO", variables: ["CO": fixture.id("initech")], ["dora", "eve"]),
            person(
                "nickname CONTAINS[c] $TEXT AND age >= %d", [.integer(30)],
                variables: ["TEXT": .string("E")], ["ada", "eve"]),
        ]
    }

    static let logic: [PredicateCase] = [
        person("FALSEPREDICATE", []),
        person("NOT TRUEPREDICATE", []),
        person("truepredicate AND age = 19", ["finn"]),
        person("age > 20 AND active = NO", ["bob", "dora"]),
        person("age > 40 OR name = 'cem'", ["cem", "eve"]),
        person("(age < 20 || age > 40) && active == YES", ["eve", "finn"]),
        person("NOT (age = 25 OR age = nil)", ["ada", "eve", "finn"]),
        person("! (name == 'ada')", ["bob", "cem", "dora", "eve", "finn"]),
        person("NOT NOT name = 'ada'", ["ada"]),
        person(
            "age = 25 AND (nickname = nil OR nickname CONTAINS 'explorer')", ["bob", "dora"]),
        person("age between {19, 25} and name != 'bob'", ["dora", "finn"]),
        person("NOT (age < 30) AND NOT (age = nil)", ["ada", "eve"]),
        person("name = 'ada' OR name = 'bob' OR name = 'cem'", ["ada", "bob", "cem"]),
        person("NOT age > 30", ["bob", "cem", "dora", "finn"]),
    ]
}
