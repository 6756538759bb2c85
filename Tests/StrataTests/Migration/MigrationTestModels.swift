@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// Small models for migration tests, built in Swift: a `Book` with a title,
/// and whatever each test changes.
enum MigrationTestModels {
    static func attribute(
        _ name: String, _ type: AttributeType = .string, optional: Bool = true,
        default value: AttributeDefault? = nil, renamedFrom: String? = nil
    ) -> Attribute {
        var attribute = Attribute(name: name, type: type)
        attribute.isOptional = optional
        attribute.defaultValue = value
        attribute.renamedFrom = renamedFrom
        return attribute
    }

    static func relationship(
        _ name: String, to destination: String, inverse: String, toMany: Bool = false,
        ordered: Bool = false, renamedFrom: String? = nil
    ) -> Relationship {
        var relationship = Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: toMany)
        relationship.isOptional = true
        relationship.isOrdered = ordered
        relationship.renamedFrom = renamedFrom
        if !toMany { relationship.maxCount = 1 }
        return relationship
    }

    static func model(_ version: Int, _ entities: [Entity]) -> Model {
        Model(name: "Library", version: version, entities: entities)
    }

    /// `Book(title)`.
    static func book(_ attributes: [Attribute] = [attribute("title")]) -> Entity {
        Entity(name: "Book", attributes: attributes)
    }

    /// `Author.books` ↔ `Book.author` (or `authors`), to-one or to-many on
    /// each side.
    static func authorsAndBooks(
        booksToMany: Bool = true, authorToMany: Bool = false, booksOrdered: Bool = false
    ) -> [Entity] {
        [
            Entity(
                name: "Author", attributes: [attribute("name")],
                relationships: [
                    relationship(
                        "books", to: "Book", inverse: "author", toMany: booksToMany,
                        ordered: booksOrdered)
                ]),
            Entity(
                name: "Book", attributes: [attribute("title")],
                relationships: [
                    relationship("author", to: "Author", inverse: "books", toMany: authorToMany)
                ]),
        ]
    }
}

extension MigrationPlan {
    /// The steps as `label kind names` lines, for compact expectations.
    var summary: [String] {
        steps.map { "\($0.label.text) \($0.kind.rawValue) \($0.names)" }
    }

    /// All statements' SQL text.
    var sql: [String] { statements.map(\.sql) }
}
