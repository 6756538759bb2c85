import Foundation

@testable import Strata
@testable import StrataContext
@testable import StrataSchema
@testable import StrataStore

// MARK: - Objects

extension PredicateFixture {
    /// A fresh store in a throwaway folder, filled through a ``Context`` with
    /// the objects described on ``PredicateFixture`` and saved, so that both
    /// a fetch through SQL and an in-memory filter see the same objects.
    static func make() throws -> PredicateFixture {
        let folder = try TemporaryDirectory()
        let model = model()
        let store = try Store.create(at: folder.file("PredicateFixture.sqlite"), model: model)
        let context = try Context(store: store, model: model)
        var objects: [String: ManagedObject] = [:]

        func insert(_ entity: String, _ name: String, _ values: [String: AttributeValue?])
            throws -> ManagedObject
        {
            let object = try context.insert(entity)
            try object.set("name", name)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            objects[name] = object
            return object
        }
        func date(_ iso: String) -> AttributeValue { .date(day(iso)) }

        let acme = try insert(
            "Company", "acme", ["city": .string("Berlin"), "founded": date("1950-01-01")])
        let initech = try insert(
            "Company", "initech", ["city": .string("Austin"), "founded": date("1990-06-01")])
        _ = try insert("Company", "umbrella", [:])

        let chess = try insert("Group", "chess", ["kind": .string("club")])
        let math = try insert("Group", "math", ["kind": .string("club")])
        let book = try insert("Group", "book", ["kind": .string("circle")])
        _ = try insert("Group", "empty", [:])

        let people: [(String, String, [String: AttributeValue?], ManagedObject?, [ManagedObject])] =
            [
                (
                    "Person", "ada",
                    [
                        "age": .integer(36), "height": .real(1.65), "nickname": .string("Countess"),
                        "birthday": date("1988-12-10"), "active": .boolean(true),
                        "score": .integer(100), "token": .uuid(token), "avatar": .data(avatar),
                    ], acme, [chess, math]
                ),
                (
                    "Person", "bob",
                    [
                        "age": .integer(25), "height": .real(1.80), "birthday": date("1999-03-01"),
                        "active": .boolean(false), "score": .integer(-5),
                    ], acme, [chess]
                ),
                ("Person", "cem", ["nickname": .string("Çem")], nil, []),
                (
                    "Person", "dora",
                    [
                        "age": .integer(25), "height": .real(1.70),
                        "nickname": .string("dora the explorer"), "birthday": date("2000-01-01"),
                        "active": .boolean(false), "score": .integer(0),
                    ], initech, [math, book]
                ),
                (
                    "Employee", "eve",
                    [
                        "age": .integer(41), "height": .real(1.60), "nickname": .string("Evé"),
                        "birthday": date("1983-07-15"), "active": .boolean(true),
                        "score": .integer(42), "token": .uuid(otherToken),
                        "salary": .real(5000.5), "title": .string("CTO"),
                    ], initech, [book]
                ),
                (
                    "Employee", "finn",
                    [
                        "age": .integer(19), "height": .real(1.90), "nickname": .string("FINN"),
                        "active": .boolean(true), "score": .integer(7), "salary": .real(1200),
                    ], acme, [chess, math, book]
                ),
            ]
        for (entity, name, values, employer, groups) in people {
            let person = try insert(entity, name, values)
            try person.setObject(employer, forKey: "employer")
            for group in groups { try person.add(group, to: "groups") }
        }

        let pets: [(String, String, Int64?, Double?, String?)] = [
            ("rex", "dog", 5, 30.5, "ada"), ("tom", "cat", 3, 4.25, "bob"),
            ("kitty", "cat", 1, nil, "bob"), ("polly", "parrot", 12, 0.5, "dora"),
            ("goldie", "fish", nil, 0.25, "finn"), ("stray", "dog", 2, 12, nil),
        ]
        for (name, species, age, weight, owner) in pets {
            let pet = try insert(
                "Pet", name,
                [
                    "species": .string(species), "age": age.map { .integer($0) },
                    "weight": weight.map { .real($0) },
                ])
            try pet.setObject(owner.flatMap { objects[$0] }, forKey: "owner")
        }

        let entries: [(String, String?, String, Double?, String?)] = [
            ("walk", "Alle Vögel sind schon da", "2024-01-10", 4.5, "ada"),
            ("space", "Weltall", "2024-02-01", 3, "bob"),
            ("shout", "ALLE", "2024-03-05", nil, "ada"),
            ("blank", nil, "2023-12-31", 1, nil),
            ("wild", "100% * wild? cards", "2024-03-06", 5, "eve"),
            ("street", "Straße", "2024-04-01", 2.5, "dora"),
            ("naive", "naïve café", "2024-04-02", nil, "dora"),
        ]
        for (name, text, created, rating, author) in entries {
            let entry = try insert(
                "Entry", name,
                [
                    "text": text.map { .string($0) }, "creationTime": date(created),
                    "rating": rating.map { .real($0) },
                ])
            try entry.setObject(author.flatMap { objects[$0] }, forKey: "author")
        }

        let media: [(String, String, Int64?, String)] = [
            ("img1", "image", 2048, "walk"), ("snd1", "sound", 5000, "walk"),
            ("img2", "image", 1024, "space"), ("snd2", "sound", nil, "blank"),
            ("img3", "image", 300, "naive"),
        ]
        for (name, type, size, entry) in media {
            let medium = try insert(
                "Medium", name, ["type": .string(type), "size": size.map { .integer($0) }])
            try medium.setObject(objects[entry], forKey: "entry")
        }

        try context.save()
        return PredicateFixture(
            folder: folder, store: store, model: model, context: context, objects: objects)
    }
}
