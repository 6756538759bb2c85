import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// Relationship steps, and the Bookmarks fixture models.
struct MigrationPlanRelationshipTests {
    typealias M = MigrationTestModels

    @Test func testAddAndRemoveRelationship() {
        let authorOnly = [
            Entity(name: "Author", attributes: [M.attribute("name")]), M.book(),
        ]
        let added = MigrationPlan(
            from: M.model(1, authorOnly), to: M.model(2, M.authorsAndBooks()))
        #expect(
            added.summary == [
                "inferred add-relationship Author.books", "inferred add-relationship Book.author",
            ])
        #expect(added.sql.contains("ALTER TABLE ZBOOK ADD COLUMN ZAUTHOR INTEGER"))
        #expect(added.sql.contains("CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)"))
        let removed = MigrationPlan(
            from: M.model(1, M.authorsAndBooks()), to: M.model(2, authorOnly))
        #expect(
            removed.summary == [
                "lossy remove-relationship Author.books", "lossy remove-relationship Book.author",
            ])
        #expect(removed.tableChanges.map(\.table) == ["ZBOOK"])
    }

    @Test func testRenameRelationship() {
        var to = M.authorsAndBooks()
        to[1].relationships = [
            M.relationship("writer", to: "Author", inverse: "books", renamedFrom: "author")
        ]
        to[0].relationships = [M.relationship("books", to: "Book", inverse: "writer", toMany: true)]
        let plan = MigrationPlan(from: M.model(1, M.authorsAndBooks()), to: M.model(2, to))
        #expect(plan.summary == ["inferred rename-relationship Book.writer (was Book.author)"])
        #expect(
            plan.sql.contains(
                "INSERT INTO \"strata_new_ZBOOK\" (Z_PK, Z_ENT, Z_OPT, ZWRITER, ZTITLE) SELECT "
                    + "ZBOOK.Z_PK, ZBOOK.Z_ENT, ZBOOK.Z_OPT, ZBOOK.ZAUTHOR, ZBOOK.ZTITLE FROM ZBOOK"
            ))
    }

    @Test func testToOneToToManyMovesKeysToAJoinTable() {
        let plan = MigrationPlan(
            from: M.model(1, M.authorsAndBooks()),
            to: M.model(2, M.authorsAndBooks(authorToMany: true)))
        #expect(plan.summary == ["inferred to-one-to-to-many Book.author"])
        #expect(plan.steps[0].reason == "becomes to-many; keys move to the join table Z_1BOOKS")
        #expect(
            plan.sql.contains(
                "INSERT INTO Z_1BOOKS (Z_1AUTHOR, Z_2BOOKS) SELECT ZBOOK.ZAUTHOR, ZBOOK.Z_PK FROM "
                    + "ZBOOK WHERE ZBOOK.ZAUTHOR IS NOT NULL AND ZBOOK.Z_ENT IN (2)"))
        // The join table is filled before the key column is dropped.
        let sql = plan.sql
        #expect(
            (sql.firstIndex { $0.hasPrefix("INSERT INTO Z_1BOOKS") } ?? 99)
                < (sql.firstIndex(of: "DROP TABLE ZBOOK") ?? 0))
    }

    @Test func testToManyToToOneIsLossy() {
        let plan = MigrationPlan(
            from: M.model(1, M.authorsAndBooks(authorToMany: true)),
            to: M.model(2, M.authorsAndBooks()))
        #expect(plan.summary == ["lossy to-many-to-to-one Book.author"])
        #expect(
            plan.sql.contains {
                $0.contains(
                    "(SELECT MIN(j.Z_1AUTHOR) FROM Z_1BOOKS AS j WHERE j.Z_2BOOKS = ZBOOK.Z_PK)")
            })
        #expect(plan.sql.contains("DROP TABLE Z_1BOOKS"))
    }

    @Test func testOrderedAndUnordered() {
        let ordered = MigrationPlan(
            from: M.model(1, M.authorsAndBooks()),
            to: M.model(2, M.authorsAndBooks(booksOrdered: true)))
        #expect(ordered.summary == ["inferred make-ordered Author.books"])
        #expect(
            ordered.sql.contains {
                $0.contains(
                    "((ROW_NUMBER() OVER (PARTITION BY ZBOOK.ZAUTHOR ORDER BY ZBOOK.Z_PK) - 1) "
                        + "* 1024 + 2048)"
                )
            })
        #expect(ordered.tableChanges.map(\.strategy) == [.rebuild])
        let unordered = MigrationPlan(
            from: M.model(1, M.authorsAndBooks(booksOrdered: true)),
            to: M.model(2, M.authorsAndBooks()))
        #expect(unordered.summary == ["lossy make-unordered Author.books"])
    }

    @Test func testRequiredRelationshipNeedsMapping() {
        var to = M.authorsAndBooks()
        to[1].relationships[0].isOptional = false
        let plan = MigrationPlan(from: M.model(1, M.authorsAndBooks()), to: M.model(2, to))
        #expect(plan.summary == ["needs-mapping make-required Book.author"])
    }

    /// DuckDuckGo's Bookmarks model 3 → 4: `favoriteFolder` (to-one, inverse
    /// of the ordered `favorites`) becomes the to-many `favoriteFolders`,
    /// renamed through `renamedFrom`, so the favorites move to the join table
    /// `Z_1FAVORITES` with their order.
    @Test func testBookmarksV3ToV4RenamesFavoriteFolderIntoAJoinTable() throws {
        let v3 = try #require(FixtureModels.bookmarks(3))
        let v4 = try #require(FixtureModels.bookmarks(4))
        let plan = MigrationPlan(from: v3, to: v4)
        #expect(
            plan.summary == [
                "inferred rename-relationship BookmarkEntity.favoriteFolders "
                    + "(was BookmarkEntity.favoriteFolder)",
                "inferred to-one-to-to-many BookmarkEntity.favoriteFolders "
                    + "(was BookmarkEntity.favoriteFolder)",
            ])
        #expect(plan.steps.allSatisfy { $0.tables.contains("Z_1FAVORITES") })
        #expect(
            plan.sql.contains(
                "INSERT INTO Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES) "
                    + "SELECT ZBOOKMARKENTITY.ZFAVORITEFOLDER, ZBOOKMARKENTITY.Z_PK, "
                    + "ZBOOKMARKENTITY.Z_FOK_FAVORITEFOLDER FROM ZBOOKMARKENTITY WHERE "
                    + "ZBOOKMARKENTITY.ZFAVORITEFOLDER IS NOT NULL AND ZBOOKMARKENTITY.Z_ENT IN (1)"
            ))
        // The new table is exactly what Core Data creates for version 4.
        #expect(
            plan.sql.contains(
                "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, "
                    + "Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )"))
        let rebuild = try #require(plan.tableChanges.first { $0.table == "ZBOOKMARKENTITY" })
        #expect(rebuild.strategy == .rebuild)
        #expect(rebuild.isFused)
    }
}
