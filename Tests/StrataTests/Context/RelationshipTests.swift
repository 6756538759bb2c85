import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema

/// Relationship shapes beyond the seed apps: ordered to-many, many-to-many,
/// reflexive ordered many-to-many, delete rules `deny` and `noAction`, and
/// inheritance.
struct RelationshipTests {
    private func named(_ context: Context, _ entity: String, _ name: String) throws
        -> ManagedObject
    {
        let object = try context.insert(entity)
        try object.set("name", name)
        return object
    }

    private func names(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { try $0.string("name") ?? "-" }
    }

    // MARK: - Ordered to-many

    @Test func testOrderedToManyKeepsOrderThroughMovesSaveAndReload() throws {
        let fixture = try ContextFixture(model: GraphModels.playlists())
        let context = fixture.context
        let playlist = try named(context, "Playlist", "Road trip")
        for title in ["A", "B", "C", "D"] {
            try playlist.add(try named(context, "Song", title), to: "songs")
        }
        let songs = try playlist.objects(forKey: "songs")
        try playlist.insert(songs[3], into: "songs", at: 0)  // D A B C
        try playlist.insert(try named(context, "Song", "E"), into: "songs", at: 2)  // D A E B C
        #expect(try names(playlist.objects(forKey: "songs")) == ["D", "A", "E", "B", "C"])
        try context.save()
        try fixture.expectSound()

        // Z_FOK_ ascends in the playlist's order.
        let stored = try fixture.store.connection.prepare(
            "SELECT ZNAME FROM ZSONG ORDER BY Z_FOK_PLAYLIST")
        var order: [String] = []
        try stored.forEachRow { order.append($0.text(at: 0) ?? "-") }
        #expect(order == ["D", "A", "E", "B", "C"])
        #expect(
            try fixture.integerRows("SELECT Z_FOK_PLAYLIST FROM ZSONG ORDER BY Z_FOK_PLAYLIST")
                == [[2048], [3072], [4096], [5120], [6144]])

        // After a relaunch: same order; move, then add from the song's side.
        let reloaded = try fixture.reopened()
        let list = try #require(try reloaded.findFirst("Playlist"))
        let members = try list.objects(forKey: "songs")
        #expect(try names(members) == ["D", "A", "E", "B", "C"])
        try list.insert(members[4], into: "songs", at: 1)
        try reloaded.save()

        let third = try fixture.reopened()
        let song = try named(third, "Song", "F")
        let owner: ManagedObject = try #require(try third.findFirst("Playlist"))
        try song.setObject(owner, forKey: "playlist")
        try third.save()
        try fixture.expectSound()
        let last = try fixture.reopened()
        let final = try #require(try last.findFirst("Playlist"))
        #expect(try names(final.objects(forKey: "songs")) == ["D", "C", "A", "E", "B", "F"])
    }

    // MARK: - Many-to-many

    @Test func testManyToManyUpdatesBothSidesAndTheJoinTable() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        let context = fixture.context
        let pratchett = try named(context, "Author", "Pratchett")
        let gaiman = try named(context, "Author", "Gaiman")
        let omens = try named(context, "Book", "Good Omens")
        let mort = try named(context, "Book", "Mort")
        try pratchett.add(omens, to: "books")
        try pratchett.add(mort, to: "books")
        try omens.add(gaiman, to: "authors")
        // Both sides, at once.
        #expect(try names(omens.objects(forKey: "authors")) == ["Pratchett", "Gaiman"])
        #expect(try names(gaiman.objects(forKey: "books")) == ["Good Omens"])
        #expect(try names(mort.objects(forKey: "authors")) == ["Pratchett"])
        try context.save()
        try fixture.expectSound()
        // Pratchett 1, Gaiman 2; Good Omens 1, Mort 2.
        let joinRows = "SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS ORDER BY 1, 2"
        #expect(try fixture.integerRows(joinRows) == [[1, 1], [1, 2], [2, 1]])

        let reloaded = try fixture.reopened()
        let book = try #require(try reloaded.findFirst("Book", where: ["name": .string("Mort")]))
        #expect(try names(book.objects(forKey: "authors")) == ["Pratchett"])

        try mort.remove(pratchett, from: "authors")
        #expect(try names(pratchett.objects(forKey: "books")) == ["Good Omens"])
        try context.save()
        try fixture.expectSound()
        #expect(try fixture.integerRows(joinRows) == [[1, 1], [2, 1]])
    }

    @Test func testDeletingAnAuthorRemovesOnlyItsJoinRows() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        let context = fixture.context
        let first = try named(context, "Author", "First")  // Author p1
        let second = try named(context, "Author", "Second")  // Author p2
        let one = try named(context, "Book", "One")  // Book p1
        let two = try named(context, "Book", "Two")  // Book p2
        try first.add(two, to: "books")
        try second.add(one, to: "books")
        try context.save()
        let joinRows = "SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS ORDER BY 1, 2"
        #expect(try fixture.integerRows(joinRows) == [[1, 2], [2, 1]])

        // Author p1 shares its key with Book p1, whose row must stay.
        try context.delete(first)
        try context.save()
        try fixture.expectSound()
        #expect(try fixture.integerRows(joinRows) == [[2, 1]])
        #expect(try two.objects(forKey: "authors").isEmpty)
        let reloaded = try fixture.reopened()
        #expect(try names(reloaded.findAll("Book", sortedBy: "name")) == ["One", "Two"])
        let reloadedOne = try #require(
            try reloaded.findFirst("Book", where: ["name": .string("One")]))
        #expect(try names(reloadedOne.objects(forKey: "authors")) == ["Second"])
    }

    @Test func testReflexiveOrderedManyToManyKeepsFavoritesInOrder() throws {
        let fixture = try ContextFixture(model: GraphModels.bookmarks())
        let context = fixture.context
        let folder = try named(context, "Bookmark", "Favorites")
        let other = try named(context, "Bookmark", "Mobile")
        let x = try named(context, "Bookmark", "x")
        let y = try named(context, "Bookmark", "y")
        let z = try named(context, "Bookmark", "z")
        for bookmark in [x, y, z] { try folder.add(bookmark, to: "favorites") }
        try folder.insert(z, into: "favorites", at: 0)
        try other.add(y, to: "favorites")
        #expect(try names(folder.objects(forKey: "favorites")) == ["z", "x", "y"])
        #expect(try names(y.objects(forKey: "favoriteFolders")) == ["Favorites", "Mobile"])
        #expect(try x.objects(forKey: "favorites").isEmpty)
        try context.save()
        try fixture.expectSound()
        // Favorites 1, Mobile 2, x 3, y 4, z 5.
        #expect(
            try fixture.integerRows(
                "SELECT Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES FROM Z_1FAVORITES"
                    + " ORDER BY 1, 3") == [
                    [1, 5, 2048], [1, 3, 3072], [1, 4, 4096], [2, 4, 2048],
                ])

        let reloaded = try fixture.reopened()
        let favorites = try #require(
            try reloaded.findFirst("Bookmark", where: ["name": .string("Favorites")]))
        #expect(try names(favorites.objects(forKey: "favorites")) == ["z", "x", "y"])
        let reloadedY = try #require(
            try reloaded.findFirst("Bookmark", where: ["name": .string("y")]))
        #expect(try names(reloadedY.objects(forKey: "favoriteFolders")) == ["Favorites", "Mobile"])

        // Leaving a folder from the unordered side keeps the folder's order.
        try reloadedY.remove(favorites, from: "favoriteFolders")
        #expect(try names(favorites.objects(forKey: "favorites")) == ["z", "x"])
        try reloaded.save()
        try fixture.expectSound()
        let last = try fixture.reopened()
        let folderAgain = try #require(
            try last.findFirst("Bookmark", where: ["name": .string("Favorites")]))
        #expect(try names(folderAgain.objects(forKey: "favorites")) == ["z", "x"])
        let yAgain = try #require(try last.findFirst("Bookmark", where: ["name": .string("y")]))
        #expect(try names(yAgain.objects(forKey: "favoriteFolders")) == ["Mobile"])
    }

    // MARK: - Versions

    @Test func testOwnerZOptRisesWhenOnlyItsMembershipChanges() throws {
        let fixture = try ContextFixture(model: GraphModels.playlists())
        let playlist = try named(fixture.context, "Playlist", "Mix")
        try fixture.context.save()
        #expect(try fixture.integer("SELECT Z_OPT FROM ZPLAYLIST") == 1)

        let context = try fixture.reopened()
        let song = try named(context, "Song", "New")
        let owner: ManagedObject = try #require(try context.findFirst("Playlist"))
        try song.setObject(owner, forKey: "playlist")
        try context.save()
        #expect(try fixture.integer("SELECT Z_OPT FROM ZPLAYLIST") == 2)

        // And when a member leaves by its own delete.
        try context.delete(song)
        try context.save()
        #expect(try fixture.integer("SELECT Z_OPT FROM ZPLAYLIST") == 3)
        try fixture.expectSound()
        _ = playlist
    }

    @Test func testBothSidesOfAManyToManyChangeRaiseZOpt() throws {
        let fixture = try ContextFixture(model: GraphModels.library())
        let author = try named(fixture.context, "Author", "A")
        let book = try named(fixture.context, "Book", "B")
        try fixture.context.save()
        try author.add(book, to: "books")
        try fixture.context.save()
        #expect(try fixture.integer("SELECT Z_OPT FROM ZAUTHOR") == 2)
        #expect(try fixture.integer("SELECT Z_OPT FROM ZBOOK") == 2)
    }

    // MARK: - Delete rules

    @Test func testDenyRefusesTheSaveNamingTheBlockersAndWritesNothing() throws {
        let fixture = try ContextFixture(model: GraphModels.storage())
        let context = fixture.context
        let owner = try named(context, "Owner", "Owner")
        let item = try named(context, "Item", "Lamp")
        try item.setObject(owner, forKey: "owner")
        let other = try named(context, "Owner", "Unrelated")
        try context.save()

        try context.delete(owner)
        try other.set("name", "Renamed")
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? ContextError, error.code == .deleteDenied else {
                return false
            }
            return error.objects == [owner.objectID]
                && error.message == "delete denied: Owner/p1.items still holds Item/p1"
        }
        // Nothing written, and the context holds the same pending changes.
        #expect(try fixture.rows("ZOWNER") == 2)
        #expect(try fixture.integer("SELECT COUNT(*) FROM ZOWNER WHERE Z_OPT = 1") == 2)
        #expect(owner.isDeleted && context.hasChanges)
        #expect(try other.string("name") == "Renamed")
        #expect(try item.object(forKey: "owner") === owner)
        #expect(try owner.objects(forKey: "items").map(\.objectID) == [item.objectID])

        // With the item gone too, the rule no longer blocks.
        try context.delete(item)
        try context.save()
        try fixture.expectSound()
        #expect(try fixture.rows("ZOWNER") == 1)
        #expect(try fixture.rows("ZITEM") == 0)
    }

    @Test func testNoActionLeavesTheDestinationPointingAtTheDeletedRow() throws {
        let fixture = try ContextFixture(model: GraphModels.storage())
        let context = fixture.context
        let shelf = try named(context, "Shelf", "Top")
        let box = try named(context, "Box", "Tools")
        try box.setObject(shelf, forKey: "shelf")
        try context.save()

        try context.delete(shelf)
        try context.save()
        #expect(!box.isDeleted && !box.hasChanges)
        #expect(try fixture.integerRows("SELECT Z_PK, ZSHELF FROM ZBOX") == [[1, 1]])
        #expect(try fixture.store.connection.integrityCheck() == ["ok"])
        #expect(
            try fixture.store.checkRelationships(model: fixture.model).map(\.description) == [
                "Box/p1.shelf: missingDestination: ZBOX.ZSHELF = 1 names no row of ZSHELF"
            ])
    }

    // MARK: - Inheritance

    @Test func testSubentityReadsAManyToManyItInherits() throws {
        let item = Entity(
            name: "Item", attributes: [GraphModels.name()],
            relationships: [GraphModels.toMany("tags", "Tag", inverse: "items")])
        let tag = Entity(
            name: "Tag", attributes: [GraphModels.name()],
            relationships: [GraphModels.toMany("items", "Item", inverse: "tags")])
        let model = Model(
            name: "Tags", version: 1,
            entities: [item, Entity(name: "Note", parent: "Item"), tag])
        let fixture = try ContextFixture(model: model)
        let note = try named(fixture.context, "Note", "memo")
        try note.add(try named(fixture.context, "Tag", "work"), to: "tags")
        try fixture.context.save()
        try fixture.expectSound()
        // Item 1, Note 2, Tag 3: the columns carry Item's number.
        #expect(try fixture.integerRows("SELECT Z_1ITEMS, Z_3TAGS FROM Z_1TAGS") == [[1, 1]])

        let reloaded = try fixture.reopened()
        let memo = try #require(try reloaded.findFirst("Note"))
        #expect(try names(memo.objects(forKey: "tags")) == ["work"])
        try reloaded.delete(memo)
        try reloaded.save()
        #expect(try fixture.rows("Z_1TAGS") == 0)
        try fixture.expectSound()
    }

    @Test func testSubentitiesShareTheRootTableAndKeys() throws {
        let fixture = try ContextFixture(model: GraphModels.shapes())
        let context = fixture.context
        #expect {
            _ = try context.insert("Shape")
        } throws: { error in
            (error as? ContextError)?.code == .abstractEntity
                && "\(error)".contains("Shape is abstract")
        }
        let canvas = try named(context, "Canvas", "Sketch")
        let circle = try named(context, "Circle", "sun")
        try circle.setValue(.real(2.5), forKey: "radius")
        let square = try named(context, "Square", "house")
        try square.setValue(.integer(4), forKey: "side")
        let moon = try named(context, "Circle", "moon")
        for shape in [circle, square, moon] { try canvas.add(shape, to: "shapes") }
        let label = try named(context, "Label", "home")
        try label.setObject(square, forKey: "shape")
        try context.save()
        try fixture.expectSound()

        // Canvas 1, Label 2, Shape 3, Circle 4, Square 5; keys from Shape's Z_MAX.
        #expect(
            try fixture.integerRows("SELECT Z_PK, Z_ENT FROM ZSHAPE ORDER BY Z_PK") == [
                [1, 4], [2, 5], [3, 4],
            ])
        #expect(try fixture.maxKey("Shape") == 3)
        #expect(try fixture.maxKey("Circle") == 0)
        #expect(try fixture.integerRows("SELECT ZSHAPE, Z3_SHAPE FROM ZLABEL") == [[2, 5]])

        let reloaded = try fixture.reopened()
        let shapes = try reloaded.findAll("Shape", sortedBy: "name")
        #expect(try names(shapes) == ["house", "moon", "sun"])
        #expect(shapes.map(\.entityName) == ["Square", "Circle", "Circle"])
        #expect(try shapes[0].double("side") == 4)
        #expect(try reloaded.count("Circle") == 2)
        var own = FetchRequest(entity: "Shape")
        own.includesSubentities = false
        #expect(try reloaded.fetch(own).isEmpty)
        let reloadedLabel = try #require(try reloaded.findFirst("Label"))
        #expect(try reloadedLabel.object(forKey: "shape") === shapes[0])

        // Another circle takes the tree's next key.
        let star = try named(reloaded, "Circle", "star")
        try reloaded.save()
        #expect(star.objectID.primaryKey == 4)
        #expect(try fixture.maxKey("Shape") == 4)
        try fixture.expectSound()
    }
}
