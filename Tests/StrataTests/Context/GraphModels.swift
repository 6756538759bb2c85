@testable import Strata
@testable import StrataSchema

/// Small models built in Swift, one per relationship shape the context
/// tests exercise.
enum GraphModels {
    /// `Playlist.songs` (ordered, cascade) ↔ `Song.playlist`: `Z_FOK_PLAYLIST`
    /// in `ZSONG`.
    static func playlists() -> Model {
        Model(
            name: "Playlists", version: 1,
            entities: [
                Entity(
                    name: "Playlist", attributes: [name()],
                    relationships: [
                        toMany("songs", "Song", inverse: "playlist", ordered: true, rule: .cascade)
                    ]),
                Entity(
                    name: "Song", attributes: [name()],
                    relationships: [toOne("playlist", "Playlist", inverse: "songs")]),
            ])
    }

    /// `Author(1).books <<->> Book(2).authors`: join table `Z_1BOOKS`.
    static func library() -> Model {
        Model(
            name: "Library", version: 1,
            entities: [
                Entity(
                    name: "Author", attributes: [name()],
                    relationships: [toMany("books", "Book", inverse: "authors")]),
                Entity(
                    name: "Book", attributes: [name()],
                    relationships: [toMany("authors", "Author", inverse: "books")]),
            ])
    }

    /// Bookmarks' reflexive pair: `favorites` (ordered) <<->> `favoriteFolders`
    /// on one entity, join table `Z_1FAVORITES` with `Z_FOK_1FAVORITES`.
    static func bookmarks() -> Model {
        Model(
            name: "Bookmarks", version: 1,
            entities: [
                Entity(
                    name: "Bookmark", attributes: [name()],
                    relationships: [
                        toMany("favorites", "Bookmark", inverse: "favoriteFolders", ordered: true),
                        toMany("favoriteFolders", "Bookmark", inverse: "favorites"),
                    ])
            ])
    }

    /// `Owner.items` (deny) ↔ `Item.owner`, and `Shelf.boxes` (no action) ↔
    /// `Box.shelf`.
    static func storage() -> Model {
        Model(
            name: "Storage", version: 1,
            entities: [
                Entity(
                    name: "Owner", attributes: [name()],
                    relationships: [toMany("items", "Item", inverse: "owner", rule: .deny)]),
                Entity(
                    name: "Item", attributes: [name()],
                    relationships: [toOne("owner", "Owner", inverse: "items")]),
                Entity(
                    name: "Shelf", attributes: [name()],
                    relationships: [toMany("boxes", "Box", inverse: "shelf", rule: .noAction)]),
                Entity(
                    name: "Box", attributes: [name()],
                    relationships: [toOne("shelf", "Shelf", inverse: "boxes")]),
            ])
    }

    /// `Canvas` (1) holds shapes; `Label` (2) points at one through `ZSHAPE`
    /// and `Z3_SHAPE`; the abstract `Shape` (3) has `Circle` (4) and `Square`
    /// (5), all three in `ZSHAPE`.
    static func shapes() -> Model {
        var shape = Entity(
            name: "Shape", attributes: [name()],
            relationships: [
                toOne("canvas", "Canvas", inverse: "shapes"),
                toMany("labels", "Label", inverse: "shape"),
            ])
        shape.isAbstract = true
        return Model(
            name: "Shapes", version: 1,
            entities: [
                shape,
                Entity(
                    name: "Circle", parent: "Shape",
                    attributes: [optional(Attribute(name: "radius", type: .double))]),
                Entity(
                    name: "Square", parent: "Shape",
                    attributes: [optional(Attribute(name: "side", type: .double))]),
                Entity(
                    name: "Canvas", attributes: [name()],
                    relationships: [toMany("shapes", "Shape", inverse: "canvas", rule: .cascade)]),
                Entity(
                    name: "Label", attributes: [name()],
                    relationships: [toOne("shape", "Shape", inverse: "labels")]),
            ])
    }

    // MARK: - Builders

    /// An optional string attribute `name`.
    static func name() -> Attribute {
        optional(Attribute(name: "name", type: .string))
    }

    static func optional(_ attribute: Attribute) -> Attribute {
        var attribute = attribute
        attribute.isOptional = true
        return attribute
    }

    /// An optional to-one relationship, nullified on delete.
    static func toOne(_ name: String, _ destination: String, inverse: String) -> Relationship {
        var relationship = Relationship(name: name, destination: destination, inverse: inverse)
        relationship.isOptional = true
        relationship.maxCount = 1
        return relationship
    }

    /// An optional to-many relationship.
    static func toMany(
        _ name: String, _ destination: String, inverse: String, ordered: Bool = false,
        rule: DeleteRule = .nullify
    ) -> Relationship {
        var relationship = Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: true)
        relationship.isOptional = true
        relationship.isOrdered = ordered
        relationship.deleteRule = rule
        return relationship
    }
}
