@testable import Strata
@testable import StrataSchema

/// The models of the real Core Data fixtures under `Fixtures/coredata/`,
/// written by hand in Swift from each version's XML `contents`, so tests can
/// use them without the XML reader.
///
/// Every XML flag is carried over, including those that do not enter the
/// version hashes (delete rules, defaults, renaming identifiers); the
/// `fetchIndex` elements have no counterpart in `Entity` and are left out.
enum FixtureModels {
    // MARK: - bnr-sample (bignerdranch/CoreDataStack)

    /// `Sample.xcdatamodeld/TestModel.xcdatamodel`: Author <<->> Book. This is
    /// the model of `bnr-sample/TestModel.sqlite`.
    static func bnrV1() -> Model {
        Model(
            name: "TestModel", version: 1,
            entities: [
                Entity(
                    name: "Author",
                    attributes: [
                        attribute("firstName", .string, optional: true),
                        attribute("lastName", .string, optional: true),
                    ],
                    relationships: [
                        toMany("books", "Book", inverse: "authors", optional: true)
                    ]),
                Entity(
                    name: "Book",
                    attributes: [attribute("title", .string, optional: true)],
                    relationships: [
                        toMany("authors", "Author", inverse: "books", optional: true)
                    ]),
            ])
    }

    /// `Sample.xcdatamodeld/TestModel 2.xcdatamodel`: version 1 plus a
    /// Publisher with a to-many `books` ↔ to-one `Book.publisher`.
    static func bnrV2() -> Model {
        Model(
            name: "TestModel", version: 2,
            entities: [
                Entity(
                    name: "Author",
                    attributes: [
                        attribute("firstName", .string, optional: true),
                        attribute("lastName", .string, optional: true),
                    ],
                    relationships: [
                        toMany("books", "Book", inverse: "authors", optional: true)
                    ]),
                Entity(
                    name: "Book",
                    attributes: [attribute("title", .string, optional: true)],
                    relationships: [
                        toMany("authors", "Author", inverse: "books", optional: true),
                        toOne("publisher", "Publisher", inverse: "books", optional: true),
                    ]),
                Entity(
                    name: "Publisher",
                    attributes: [attribute("name", .string, optional: true)],
                    relationships: [
                        toMany("books", "Book", inverse: "publisher", optional: true)
                    ]),
            ])
    }

    // MARK: - ddg-bookmarks (duckduckgo/BrowserServicesKit)

    /// `BookmarksModel n.xcdatamodel` (`BookmarksModel.xcdatamodel` for
    /// n = 1), for n in 1...6; `nil` for any other n. Versions 1–5 are the
    /// models of `Bookmarks_V1…V5.sqlite`.
    static func bookmarks(_ version: Int) -> Model? {
        let entity: Entity
        switch version {
        case 1: entity = bookmarkEntityV1()
        case 2: entity = bookmarkEntityV2()
        case 3: entity = bookmarkEntityV3()
        case 4: entity = bookmarkEntityV4(syncPayload: false, stub: false)
        case 5: entity = bookmarkEntityV4(syncPayload: true, stub: false)
        case 6: entity = bookmarkEntityV4(syncPayload: true, stub: true)
        default: return nil
        }
        return Model(name: "BookmarksModel", version: version, entities: [entity])
    }

    /// Version 1: favorites as an ordered to-many ↔ to-one `favoriteFolder`.
    private static func bookmarkEntityV1() -> Entity {
        Entity(
            name: "BookmarkEntity",
            attributes: [
                attribute("isFavorite", .boolean),
                attribute("isFolder", .boolean),
                attribute("title", .string, optional: true),
                attribute("url", .string, optional: true),
                attribute("uuid", .string),
            ],
            relationships: bookmarkTreeRelationships() + [
                toOne("favoriteFolder", "BookmarkEntity", inverse: "favorites", optional: true),
                toMany(
                    "favorites", "BookmarkEntity", inverse: "favoriteFolder", optional: true,
                    ordered: true),
            ])
    }

    /// Version 2: version 1 with `versionHashModifier="2"` on `url` and `uuid`.
    private static func bookmarkEntityV2() -> Entity {
        var entity = bookmarkEntityV1()
        entity.attributes = [
            attribute("isFavorite", .boolean),
            attribute("isFolder", .boolean),
            attribute("title", .string, optional: true),
            attribute("url", .string, optional: true, modifier: "2"),
            attribute("uuid", .string, modifier: "2"),
        ]
        return entity
    }

    /// Version 3: `isFavorite` gone; `isPendingDeletion` and `modifiedAt`
    /// added; modifier "3" on `isPendingDeletion`, `url` and `uuid`.
    private static func bookmarkEntityV3() -> Entity {
        var entity = bookmarkEntityV1()
        entity.attributes = bookmarkAttributesV3()
        return entity
    }

    /// Versions 4–6: favorites become a many-to-many (`favoriteFolders`,
    /// renamed from `favoriteFolder`); version 5 adds
    /// `lastChildrenPayloadReceivedFromSync`, version 6 `isStub`.
    private static func bookmarkEntityV4(syncPayload: Bool, stub: Bool) -> Entity {
        var folders = toMany(
            "favoriteFolders", "BookmarkEntity", inverse: "favorites", optional: true)
        folders.renamingIdentifier = "favoriteFolder"
        var attributes = bookmarkAttributesV3()
        if syncPayload {
            attributes.append(
                attribute("lastChildrenPayloadReceivedFromSync", .string, optional: true))
        }
        if stub { attributes.append(attribute("isStub", .boolean, optional: true)) }
        return Entity(
            name: "BookmarkEntity",
            attributes: attributes,
            relationships: bookmarkTreeRelationships() + [
                folders,
                toMany(
                    "favorites", "BookmarkEntity", inverse: "favoriteFolders", optional: true,
                    ordered: true),
            ])
    }

    /// The attributes shared by versions 3–6.
    private static func bookmarkAttributesV3() -> [Attribute] {
        var pending = attribute("isPendingDeletion", .boolean, optional: true, modifier: "3")
        pending.defaultValue = .literal(.boolean(false))
        return [
            attribute("isFolder", .boolean),
            pending,
            attribute("modifiedAt", .date, optional: true),
            attribute("title", .string, optional: true),
            attribute("url", .string, optional: true, modifier: "3"),
            attribute("uuid", .string, modifier: "3"),
        ]
    }

    /// The folder tree, the same in every version: ordered `children`
    /// (cascade) ↔ to-one `parent`.
    private static func bookmarkTreeRelationships() -> [Relationship] {
        var children = toMany(
            "children", "BookmarkEntity", inverse: "parent", optional: true, ordered: true)
        children.deleteRule = .cascade
        return [
            children,
            toOne("parent", "BookmarkEntity", inverse: "children", optional: true),
        ]
    }

    // MARK: - Builders

    /// An attribute with the flags the XML sets.
    static func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = false, modifier: String? = nil
    ) -> Attribute {
        var attribute = Attribute(name: name, type: type)
        attribute.isOptional = optional
        attribute.versionHashModifier = modifier
        return attribute
    }

    /// A to-one relationship (`maxCount="1"` in the XML).
    static func toOne(
        _ name: String, _ destination: String, inverse: String, optional: Bool = false
    ) -> Relationship {
        var relationship = Relationship(name: name, destination: destination, inverse: inverse)
        relationship.isOptional = optional
        relationship.maxCount = 1
        return relationship
    }

    /// A to-many relationship (`toMany="YES"`, no maxCount: unbounded).
    static func toMany(
        _ name: String, _ destination: String, inverse: String, optional: Bool = false,
        ordered: Bool = false
    ) -> Relationship {
        var relationship = Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: true)
        relationship.isOptional = optional
        relationship.isOrdered = ordered
        return relationship
    }
}
