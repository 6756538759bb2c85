import Foundation

@testable import Strata

// MARK: - Key paths, quantifiers, @count, subentities

extension PredicateCaseTable {
    static func relationships(_ fixture: PredicateFixture) -> [PredicateCase] {
        let entries = ["blank", "naive", "shout", "space", "street", "walk", "wild"]
        return [
            // Through to-one relationships; a missing destination reads as nil.
            person("employer.name = 'acme'", ["ada", "bob", "finn"]),
            person("employer.city = 'Austin'", ["dora", "eve"]),
            person("employer = nil", ["cem"]),
            person("employer != nil", ["ada", "bob", "dora", "eve", "finn"]),
            person("employer.founded = nil", ["cem"]),
            person("employer == %@", [fixture.object("acme")], ["ada", "bob", "finn"]),
            person("employer != %@", [fixture.object("acme")], ["cem", "dora", "eve"]),
            person(
                "employer IN %@", [.array([fixture.id("acme"), fixture.id("umbrella")])],
                ["ada", "bob", "finn"]),
            on("Entry", "author.name = 'ada'", ["shout", "walk"]),
            on("Entry", "author.age > 30", ["shout", "walk", "wild"]),
            on("Entry", "author = nil", ["blank"]),
            on("Entry", "author != nil", entries.filter { $0 != "blank" }),
            on("Entry", "author.employer.city = 'Berlin'", ["shout", "space", "walk"]),
            on("Entry", "author.employer.city != 'Berlin'", ["blank", "naive", "street", "wild"]),
            on("Pet", "owner.name = 'bob'", ["kitty", "tom"]),
            on("Pet", "owner = nil", ["stray"]),
            on("Pet", "owner.employer.name = 'acme'", ["goldie", "kitty", "rex", "tom"]),
            on("Medium", "entry.author.name = 'ada'", ["img1", "snd1"]),

            // To-many: ANY / SOME, ALL (true for none), NONE.
            on("Entry", "ANY media.type = 'image'", ["naive", "space", "walk"]),
            on("Entry", "SOME media.type == 'sound'", ["blank", "walk"]),
            on(
                "Entry", "ALL media.type = 'image'",
                ["naive", "shout", "space", "street", "wild"]),
            on("Entry", "NONE media.type = 'image'", ["blank", "shout", "street", "wild"]),
            on("Entry", "ANY media.size > 2000", ["walk"]),
            on("Entry", "ANY media.size = nil", ["blank"]),
            on(
                "Entry", "ALL media.size > 500",
                ["shout", "space", "street", "walk", "wild"]),
            on(
                "Entry", "NONE media.size < 1000",
                ["blank", "shout", "space", "street", "walk", "wild"]),
            on("Entry", "ANY media.type IN {'sound', 'video'}", ["blank", "walk"]),
            on("Entry", "any media.type ==[c] 'IMAGE'", ["naive", "space", "walk"]),
            person("ANY pets.species = 'cat'", ["bob"]),
            person("ANY pets.species = 'dog'", ["ada"]),
            person("ALL pets.species = 'cat'", ["bob", "cem", "eve"]),
            person("NONE pets.species = 'cat'", ["ada", "cem", "dora", "eve", "finn"]),
            person("ANY pets.age > 10", ["dora"]),
            person("ANY pets.weight < 1", ["dora", "finn"]),
            person("ANY pets.name BEGINSWITH 'k'", ["bob"]),
            person("ANY pets.name LIKE '?o*'", ["bob", "dora", "finn"]),
            person("pets CONTAINS %@", [fixture.object("rex")], ["ada"]),
            person("%@ IN pets", [fixture.object("tom")], ["bob"]),
            person("ANY pets = %@", [fixture.object("kitty")], ["bob"]),
            person(
                "NONE pets = %@", [fixture.object("kitty")], ["ada", "cem", "dora", "eve", "finn"]),

            // Many-to-many, and paths with two to-many steps.
            person("ANY groups.name = 'chess'", ["ada", "bob", "finn"]),
            person("ANY groups.kind = 'circle'", ["dora", "eve", "finn"]),
            person("ALL groups.kind = 'club'", ["ada", "bob", "cem"]),
            person("NONE groups.kind = 'club'", ["cem", "eve"]),
            person("groups CONTAINS %@", [fixture.object("math")], ["ada", "dora", "finn"]),
            person("ANY groups.members.name = 'eve'", ["dora", "eve", "finn"]),
            person("ANY entries.media.type = 'sound'", ["ada"]),
            person("ANY entries.text CONTAINS[cd] 'ALL'", ["ada", "bob"]),
            on("Entry", "ANY author.groups.name = 'book'", ["naive", "street", "wild"]),
            on("Company", "ANY employees.age > 40", ["initech"]),
            on("Company", "ALL employees.active = YES", ["umbrella"]),
            on("Company", "NONE employees.active = NO", ["umbrella"]),
            on("Company", "ANY employees.pets.species = 'cat'", ["acme"]),
            on("Group", "ANY members.name = 'eve'", ["book"]),
            on("Group", "ALL members.age > 19", ["empty"]),
            on("Group", "NONE members.employer.city = 'Austin'", ["chess", "empty"]),

            // @count.
            on("Entry", "media.@count = 0", ["shout", "street", "wild"]),
            on("Entry", "media.@count > 1", ["walk"]),
            on("Entry", "media.@count >= 1", ["blank", "naive", "space", "walk"]),
            on("Entry", "author.pets.@count > 1", ["space"]),
            // A missing to-one destination has no destinations to count.
            on("Entry", "author.pets.@count = 0", ["blank", "wild"]),
            person("pets.@count = 2", ["bob"]),
            person("pets.@count == 0", ["cem", "eve"]),
            person("groups.@count >= 3", ["finn"]),
            person("entries.@count = 2", ["ada", "dora"]),
            person("pets.@count BETWEEN {1, 1}", ["ada", "dora", "finn"]),
            on("Company", "employees.@count = 0", ["umbrella"]),
            on("Group", "members.@count = 3", ["book", "chess", "math"]),
            on("Pet", "owner.groups.@count > 2", ["goldie"]),

            // Subentities: a Person fetch includes Employees.
            person("TRUEPREDICATE", ["ada", "bob", "cem", "dora", "eve", "finn"]),
            on("Employee", "TRUEPREDICATE", ["eve", "finn"]),
            on("Employee", "employer.name = 'acme'", ["finn"]),
            on("Group", "ANY members.name BEGINSWITH 'e'", ["book"]),
        ]
    }
}
