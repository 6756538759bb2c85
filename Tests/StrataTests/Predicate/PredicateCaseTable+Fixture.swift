import Foundation

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// The fixture store of the predicate case table: a small model with every
/// attribute type a predicate compares, to-one, to-many and many-to-many
/// relationships and a subentity, filled with objects named uniquely across
/// all entities so that a case's expected result is a list of names.
///
/// People (`Employee` inherits from `Person`):
///
/// | name | age | height | nickname | birthday | active | score | employer | groups | pets |
/// |------|-----|--------|----------|----------|--------|-------|----------|--------|------|
/// | ada  | 36 | 1.65 | Countess | 1988-12-10 | YES | 100 | acme | chess, math | rex |
/// | bob  | 25 | 1.80 | nil | 1999-03-01 | NO | -5 | acme | chess | tom, kitty |
/// | cem  | nil | nil | Çem | nil | nil | nil | nil | – | – |
/// | dora | 25 | 1.70 | dora the explorer | 2000-01-01 | NO | 0 | initech | math, book | polly |
/// | eve (Employee: 5000.5, CTO) | 41 | 1.60 | Evé | 1983-07-15 | YES | 42 | initech | book | – |
/// | finn (Employee: 1200, nil) | 19 | 1.90 | FINN | nil | YES | 7 | acme | chess, math, book | goldie |
///
/// ada also has a token (``PredicateFixture/token``) and an avatar
/// (``PredicateFixture/avatar``). Pets: rex (dog, 5, 30.5, ada), tom (cat, 3,
/// 4.25, bob), kitty (cat, 1, nil, bob), polly (parrot, 12, 0.5, dora), goldie
/// (fish, nil, 0.25, finn), stray (dog, 2, 12, no owner). Companies: acme
/// (Berlin, 1950-01-01), initech (Austin, 1990-06-01), umbrella (nil, nil, no
/// employees). Groups: chess, math (club), book (circle), empty (nil, no
/// members).
///
/// Entries (text, creationTime, rating, author, media):
/// walk ("Alle Vögel sind schon da", 2024-01-10, 4.5, ada, img1 snd1),
/// space ("Weltall", 2024-02-01, 3, bob, img2), shout ("ALLE", 2024-03-05,
/// nil, ada, –), blank (nil, 2023-12-31, 1, nil, snd2), wild
/// ("100% * wild? cards", 2024-03-06, 5, eve, –), street ("Straße",
/// 2024-04-01, 2.5, dora, –), naive ("naïve café", 2024-04-02, nil, dora,
/// img3). Media (type, size): img1 (image, 2048), snd1 (sound, 5000), img2
/// (image, 1024), snd2 (sound, nil), img3 (image, 300).
struct PredicateFixture {
    let folder: TemporaryDirectory
    let store: Store
    let model: Model
    let context: Context
    /// Every object by its unique `name`.
    let objects: [String: ManagedObject]

    /// ada's `token`.
    static let token = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    /// eve's `token`.
    static let otherToken = UUID(uuid: (9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9))
    /// ada's `avatar`.
    static let avatar = Data([1, 2, 3])

    /// Seconds since 2001 of midnight UTC on an ISO date such as `2024-01-10`.
    static func day(_ date: String) -> Double {
        ISO8601Date.seconds(from: date + "T00:00:00Z") ?? .nan
    }

    /// The object named `name` as a `%@` argument (nil when unknown, which
    /// makes the case fail rather than crash).
    func object(_ name: String) -> PredicateArgument {
        .value(objects[name].map { .object($0.objectID) } ?? .null)
    }

    /// The object id of `name`, as a value inside an array argument.
    func id(_ name: String) -> PredicateValue {
        objects[name].map { .object($0.objectID) } ?? .null
    }

    // MARK: - Model

    /// The fixture model.
    static func model() -> Model {
        func attribute(_ name: String, _ type: AttributeType) -> Attribute {
            var attribute = Attribute(name: name, type: type)
            attribute.isOptional = true
            return attribute
        }
        func relationship(
            _ name: String, _ destination: String, _ inverse: String, toMany: Bool = false
        ) -> Relationship {
            var relationship = Relationship(
                name: name, destination: destination, inverse: inverse, isToMany: toMany)
            relationship.isOptional = true
            if !toMany { relationship.maxCount = 1 }
            return relationship
        }
        let name = attribute("name", .string)
        return Model(
            name: "PredicateFixture", version: 1,
            entities: [
                Entity(
                    name: "Person",
                    attributes: [
                        name, attribute("age", .integer32), attribute("height", .double),
                        attribute("nickname", .string), attribute("birthday", .date),
                        attribute("active", .boolean), attribute("score", .integer64),
                        attribute("token", .uuid), attribute("avatar", .binary),
                    ],
                    relationships: [
                        relationship("pets", "Pet", "owner", toMany: true),
                        relationship("employer", "Company", "employees"),
                        relationship("groups", "Group", "members", toMany: true),
                        relationship("entries", "Entry", "author", toMany: true),
                    ]),
                Entity(
                    name: "Employee", parent: "Person",
                    attributes: [attribute("salary", .double), attribute("title", .string)]),
                Entity(
                    name: "Pet",
                    attributes: [
                        name, attribute("species", .string), attribute("age", .integer16),
                        attribute("weight", .float),
                    ],
                    relationships: [relationship("owner", "Person", "pets")]),
                Entity(
                    name: "Company",
                    attributes: [name, attribute("city", .string), attribute("founded", .date)],
                    relationships: [relationship("employees", "Person", "employer", toMany: true)]),
                Entity(
                    name: "Group", attributes: [name, attribute("kind", .string)],
                    relationships: [relationship("members", "Person", "groups", toMany: true)]),
                Entity(
                    name: "Entry",
                    attributes: [
                        name, attribute("text", .string), attribute("creationTime", .date),
                        attribute("rating", .double),
                    ],
                    relationships: [
                        relationship("author", "Person", "entries"),
                        relationship("media", "Medium", "entry", toMany: true),
                    ]),
                Entity(
                    name: "Medium",
                    attributes: [name, attribute("type", .string), attribute("size", .integer64)],
                    relationships: [relationship("entry", "Entry", "media")]),
            ])
    }
}
