import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// The layout is checked against DDL that Core Data itself wrote (the fixture
/// stores under Fixtures/coredata, via `sqlite3 .schema`), and against the
/// rules of coredata-format.md §1.2–1.6 for what the fixtures do not cover.
struct StoreLayoutTests {
    private func optional(_ attribute: Attribute) -> Attribute {
        var attribute = attribute
        attribute.isOptional = true
        return attribute
    }

    /// bnr-sample TestModel.sqlite: Author <<->> Book.
    @Test func testManyToManyMatchesCoreDataDDL() {
        let model = Model(
            name: "TestModel", version: 1,
            entities: [
                Entity(
                    name: "Author",
                    attributes: [
                        Attribute(name: "firstName", type: .string),
                        Attribute(name: "lastName", type: .string),
                    ],
                    relationships: [
                        Relationship(
                            name: "books", destination: "Book", inverse: "authors", isToMany: true)
                    ]),
                Entity(
                    name: "Book", attributes: [Attribute(name: "title", type: .string)],
                    relationships: [
                        Relationship(
                            name: "authors", destination: "Author", inverse: "books", isToMany: true
                        )
                    ]),
            ])
        #expect(
            StoreLayout(model: model).createStatements == [
                "CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFIRSTNAME VARCHAR, ZLASTNAME VARCHAR )",
                "CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )",
                "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
                "CREATE INDEX Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            ])
        let author = StoreLayout(model: model).entity(named: "Author")
        #expect(author?.joinTables["books"] == "Z_1BOOKS")
    }

    private var bookmarkAttributes: [Attribute] {
        [
            Attribute(name: "isFavorite", type: .boolean),
            Attribute(name: "isFolder", type: .boolean),
            Attribute(name: "title", type: .string), Attribute(name: "url", type: .string),
            Attribute(name: "uuid", type: .string),
        ]
    }

    /// ddg-bookmarks Bookmarks_V1.sqlite: two ordered to-many relationships
    /// with to-one inverses on one entity.
    @Test func testOrderedToManyMatchesCoreDataDDL() {
        var children = Relationship(
            name: "children", destination: "BookmarkEntity", inverse: "parent", isToMany: true)
        children.isOrdered = true
        var favorites = Relationship(
            name: "favorites", destination: "BookmarkEntity", inverse: "favoriteFolder",
            isToMany: true)
        favorites.isOrdered = true
        let entity = Entity(
            name: "BookmarkEntity", attributes: bookmarkAttributes,
            relationships: [
                children, favorites,
                Relationship(
                    name: "favoriteFolder", destination: "BookmarkEntity", inverse: "favorites"),
                Relationship(name: "parent", destination: "BookmarkEntity", inverse: "children"),
            ])
        let layout = StoreLayout(
            model: Model(name: "BookmarksModel", version: 1, entities: [entity]))
        #expect(
            Array(layout.createStatements.prefix(3)) == [
                "CREATE TABLE ZBOOKMARKENTITY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISFAVORITE INTEGER, ZISFOLDER INTEGER, ZFAVORITEFOLDER INTEGER, ZPARENT INTEGER, Z_FOK_FAVORITEFOLDER INTEGER, Z_FOK_PARENT INTEGER, ZTITLE VARCHAR, ZURL VARCHAR, ZUUID VARCHAR )",
                "CREATE INDEX ZBOOKMARKENTITY_ZFAVORITEFOLDER_INDEX ON ZBOOKMARKENTITY (ZFAVORITEFOLDER)",
                "CREATE INDEX ZBOOKMARKENTITY_ZPARENT_INDEX ON ZBOOKMARKENTITY (ZPARENT)",
            ])
        #expect(
            layout.entity(named: "BookmarkEntity")?.toOneColumns["parent"]?.order == "Z_FOK_PARENT")
    }

    /// ddg-bookmarks Bookmarks_V4.sqlite: a reflexive many-to-many, ordered on
    /// one side, takes the alphabetically later name.
    @Test func testReflexiveOrderedManyToManyMatchesCoreDataDDL() {
        var favorites = Relationship(
            name: "favorites", destination: "BookmarkEntity", inverse: "favoriteFolders",
            isToMany: true)
        favorites.isOrdered = true
        let entity = Entity(
            name: "BookmarkEntity", attributes: [],
            relationships: [
                favorites,
                Relationship(
                    name: "favoriteFolders", destination: "BookmarkEntity", inverse: "favorites",
                    isToMany: true),
            ])
        let statements = StoreLayout(model: Model(name: "B", version: 4, entities: [entity]))
            .createStatements
        #expect(
            statements.contains(
                "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )"
            ))
        #expect(
            statements.contains(
                "CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)"
            ))
    }

    /// An inheritance tree shares its root's table; a to-one into an entity
    /// with subentities gets a `Z<n>_` column; a one-to-one has keys on both
    /// sides; clashing names in one table get digits.
    @Test func testInheritanceOneToOneAndNameClashes() {
        var region = Entity(name: "Region", attributes: [Attribute(name: "name", type: .string)])
        region.isAbstract = true
        region.relationships = [Relationship(name: "flag", destination: "Flag", inverse: "region")]
        let continent = Entity(
            name: "Continent", parent: "Region",
            attributes: [
                Attribute(name: "area", type: .double), Attribute(name: "code", type: .integer16),
            ])
        let country = Entity(
            name: "Country", parent: "Region",
            attributes: [
                Attribute(name: "code", type: .string), Attribute(name: "founded", type: .date),
            ],
            relationships: [
                Relationship(
                    name: "visits", destination: "Visit", inverse: "country", isToMany: true)
            ])
        let flag = Entity(
            name: "Flag", attributes: [Attribute(name: "image", type: .binary)],
            relationships: [Relationship(name: "region", destination: "Region", inverse: "flag")])
        let visit = Entity(
            name: "Visit", attributes: [Attribute(name: "id", type: .uuid)],
            relationships: [
                Relationship(name: "country", destination: "Country", inverse: "visits")
            ])
        let layout = StoreLayout(
            model: Model(
                name: "Atlas", version: 1, entities: [visit, flag, country, continent, region]))
        #expect(layout.entities.map(\.name) == ["Flag", "Region", "Continent", "Country", "Visit"])
        #expect(layout.entities.map(\.superNumber) == [0, 0, 2, 2, 0])
        #expect(
            layout.createStatements == [
                "CREATE TABLE ZFLAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZREGION INTEGER, Z2_REGION INTEGER, ZIMAGE BLOB )",
                "CREATE TABLE ZREGION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE INTEGER, ZFLAG INTEGER, ZFOUNDED TIMESTAMP, ZAREA FLOAT, ZNAME VARCHAR, ZCODE1 VARCHAR )",
                "CREATE TABLE ZVISIT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNTRY INTEGER, ZID BLOB )",
                "CREATE INDEX ZFLAG_ZREGION_INDEX ON ZFLAG (ZREGION)",
                "CREATE INDEX ZREGION_Z_ENT_INDEX ON ZREGION (Z_ENT)",
                "CREATE INDEX ZREGION_ZFLAG_INDEX ON ZREGION (ZFLAG)",
                "CREATE INDEX ZVISIT_ZCOUNTRY_INDEX ON ZVISIT (ZCOUNTRY)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            ])
        let countryLayout = layout.entity(named: "Country")
        #expect(
            countryLayout?.attributeColumns == [
                "code": "ZCODE1", "founded": "ZFOUNDED", "name": "ZNAME",
            ])
        #expect(countryLayout?.toOneColumns["flag"]?.foreignKey == "ZFLAG")
        #expect(layout.entity(named: "Region")?.treeNumbers == [2, 3, 4])
    }

    @Test func testNamesOutsideCoreDataCharacterSetAreQuoted() {
        #expect(SQLName.sql("ZTITLE") == "ZTITLE")
        #expect(SQLName.sql("Z_1BOOKS") == "Z_1BOOKS")
        #expect(SQLName.sql("ZNÄME") == "\"ZNÄME\"")
        #expect(SQLName.sql("Z\"; DROP TABLE x; --") == "\"Z\"\"; DROP TABLE x; --\"")
        #expect(SQLName.sql("order") == "\"order\"")
    }

    /// ddg-bookmarks Bookmarks_V4.sqlite: fetch indexes become
    /// `Z_<Entity>_<name>` indexes with Core Data's column spelling.
    @Test func testFetchIndexesMatchCoreDataDDL() throws {
        let model = try #require(FixtureModels.bookmarksWithIndexes(4))
        let statements = StoreLayout(model: model).createStatements
        let fetchIndexes = statements.filter { $0.hasPrefix("CREATE INDEX Z_BookmarkEntity_") }
        #expect(
            fetchIndexes == [
                "CREATE INDEX Z_BookmarkEntity_byUUID ON ZBOOKMARKENTITY (ZUUID COLLATE BINARY ASC, ZISPENDINGDELETION COLLATE BINARY ASC)",
                "CREATE INDEX Z_BookmarkEntity_byURL ON ZBOOKMARKENTITY (ZURL COLLATE BINARY ASC, ZISPENDINGDELETION COLLATE BINARY ASC)",
                "CREATE INDEX Z_BookmarkEntity_byIsPendingDeletion ON ZBOOKMARKENTITY (ZISPENDINGDELETION COLLATE BINARY ASC)",
            ])
    }

    /// Descending elements say `DESC`; an inherited attribute and a to-one
    /// index their columns in the root table; R-tree indexes are left out.
    @Test func testFetchIndexOrdersInheritanceAndRTree() {
        var base = Entity(name: "Base", attributes: [Attribute(name: "date", type: .date)])
        base.indexes = [FetchIndex(name: "area", elements: [.init(property: "date", kind: .rtree)])]
        var item = Entity(
            name: "Item", parent: "Base",
            relationships: [Relationship(name: "owner", destination: "Owner", inverse: "items")])
        item.indexes = [
            FetchIndex(
                name: "recent",
                elements: [.init(property: "date", order: .descending), .init(property: "owner")])
        ]
        let owner = Entity(
            name: "Owner",
            relationships: [
                Relationship(name: "items", destination: "Item", inverse: "owner", isToMany: true)
            ])
        let statements = StoreLayout(
            model: Model(name: "M", version: 1, entities: [base, item, owner])
        ).createStatements
        #expect(
            statements.contains(
                "CREATE INDEX Z_Item_recent ON ZBASE (ZDATE COLLATE BINARY DESC, ZOWNER COLLATE BINARY ASC)"
            ))
        #expect(!statements.contains { $0.contains("area") })
    }
}
