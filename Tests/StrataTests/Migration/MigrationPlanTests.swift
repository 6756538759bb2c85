import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// One test per kind of entity and attribute step; relationships,
/// inheritance, chains and the SQL are in the `MigrationPlanTests+…` files.
struct MigrationPlanTests {
    typealias M = MigrationTestModels

    @Test func testIdenticalVersionsGiveAnEmptyPlan() {
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [M.book()]))
        #expect(plan.isEmpty)
        #expect(plan.statements.isEmpty)
        #expect(plan.label == .inferred)
    }

    @Test func testAddEntityCreatesItsTable() {
        let shelf = Entity(name: "Shelf", attributes: [M.attribute("name")])
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [M.book(), shelf]))
        #expect(plan.summary == ["inferred add-entity Shelf"])
        #expect(
            plan.sql.contains(
                "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "
                    + "ZNAME VARCHAR )"))
        #expect(plan.tableChanges.first { $0.table == "ZSHELF" }?.strategy == .create)
        #expect(plan.sql.contains("DELETE FROM Z_PRIMARYKEY"))
        let shelfRow = plan.statements.first { $0.arguments == [.string("Shelf")] }
        #expect(
            shelfRow?.sql
                == "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (2, ?, 0, 0)")
    }

    @Test func testRemoveEntityIsLossyAndDropsItsTable() {
        let shelf = Entity(name: "Shelf", attributes: [M.attribute("name")])
        let plan = MigrationPlan(from: M.model(1, [M.book(), shelf]), to: M.model(2, [M.book()]))
        #expect(plan.summary == ["lossy remove-entity Shelf"])
        #expect(plan.label == .lossy)
        #expect(plan.sql.contains("DROP TABLE ZSHELF"))
        #expect(plan.tableChanges.first { $0.table == "ZSHELF" }?.strategy == .drop)
    }

    @Test func testRenameEntityMovesRowsToTheNewTable() {
        var volume = M.book()
        volume.name = "Volume"
        volume.renamedFrom = "Book"
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [volume]))
        #expect(plan.summary == ["inferred rename-entity Volume (was Book)"])
        #expect(
            plan.sql.contains(
                "INSERT INTO ZVOLUME (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT ZBOOK.Z_PK, ZBOOK.Z_ENT, "
                    + "ZBOOK.Z_OPT, ZBOOK.ZTITLE FROM ZBOOK"))
        #expect(plan.sql.contains("DROP TABLE ZBOOK"))
        #expect(
            plan.sql.contains(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT 1, ?, 0, "
                    + "COALESCE(MAX(Z_MAX), 0) FROM \"strata_old_primarykey\" WHERE Z_ENT IN (1)"))
    }

    @Test func testRenumberedEntityRewritesZENT() {
        // `Aardvark` sorts before `Book`, so Book goes from 1 to 2.
        let aardvark = Entity(name: "Aardvark", attributes: [M.attribute("name")])
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [aardvark, M.book()]))
        #expect(plan.summary == ["inferred add-entity Aardvark", "inferred renumber-entity Book"])
        #expect(plan.sql.contains("UPDATE ZBOOK SET Z_ENT = CASE ZBOOK.Z_ENT WHEN 1 THEN 2 END"))
        #expect(plan.tableChanges.first { $0.table == "ZBOOK" }?.strategy == .alter)
    }

    @Test func testAddOptionalAttributeIsAConstantTimeAddColumn() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]),
            to: M.model(2, [M.book([M.attribute("title"), M.attribute("isbn")])]))
        #expect(plan.summary == ["inferred add-attribute Book.isbn"])
        #expect(plan.sql == ["ALTER TABLE ZBOOK ADD COLUMN ZISBN VARCHAR"])
        #expect(plan.tableChanges.map(\.strategy) == [.alter])
        #expect(plan.statements(forStep: 0).map(\.sql) == plan.sql)
    }

    @Test func testAddRequiredAttributeWithDefaultIsBackfilled() {
        let pages = M.attribute(
            "pages", .integer32, optional: false, default: .literal(.integer(100)))
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [M.book([M.attribute("title"), pages])]))
        #expect(plan.summary == ["inferred add-attribute Book.pages"])
        #expect(
            plan.statements == [
                MigrationStatement("ALTER TABLE ZBOOK ADD COLUMN ZPAGES INTEGER", phase: .alter),
                MigrationStatement(
                    "UPDATE ZBOOK SET ZPAGES = ?", [.integer(100)], phase: .alter,
                    writesRows: true),
            ])
    }

    @Test func testAddRequiredAttributeWithoutDefaultNeedsMapping() {
        let pages = M.attribute("pages", .integer32, optional: false)
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [M.book([M.attribute("title"), pages])]))
        #expect(plan.summary == ["needs-mapping add-attribute Book.pages"])
        #expect(plan.label == .needsMapping)
    }

    @Test func testRemoveAttributeIsLossyAndRebuildsTheTable() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book([M.attribute("title"), M.attribute("isbn")])]),
            to: M.model(2, [M.book()]))
        #expect(plan.summary == ["lossy remove-attribute Book.isbn"])
        #expect(plan.tableChanges.map(\.strategy) == [.rebuild])
    }

    @Test func testRenameAttributeRebuildsWithSQLitesProcedure() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]),
            to: M.model(2, [M.book([M.attribute("name", renamedFrom: "title")])]))
        #expect(plan.summary == ["inferred rename-attribute Book.name (was Book.title)"])
        #expect(
            plan.sql == [
                "CREATE TABLE \"strata_new_ZBOOK\" ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, "
                    + "Z_OPT INTEGER, ZNAME VARCHAR )",
                "INSERT INTO \"strata_new_ZBOOK\" (Z_PK, Z_ENT, Z_OPT, ZNAME) SELECT ZBOOK.Z_PK, "
                    + "ZBOOK.Z_ENT, ZBOOK.Z_OPT, ZBOOK.ZTITLE FROM ZBOOK",
                "DROP TABLE ZBOOK",
                "ALTER TABLE \"strata_new_ZBOOK\" RENAME TO ZBOOK",
            ])
    }

    @Test func testOptionalToRequiredNeedsADefault() {
        let withDefault = M.attribute(
            "title", optional: false, default: .literal(.string("Untitled")))
        let defaulted = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [M.book([withDefault])]))
        #expect(defaulted.summary == ["inferred make-required Book.title"])
        #expect(
            defaulted.statements == [
                MigrationStatement(
                    "UPDATE ZBOOK SET ZTITLE = ? WHERE ZTITLE IS NULL", [.string("Untitled")],
                    phase: .alter, writesRows: true)
            ])
        let bare = MigrationPlan(
            from: M.model(1, [M.book()]),
            to: M.model(2, [M.book([M.attribute("title", optional: false)])]))
        #expect(bare.summary == ["needs-mapping make-required Book.title"])
    }

    @Test func testRequiredToOptionalChangesNoSQL() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book([M.attribute("title", optional: false)])]),
            to: M.model(2, [M.book()]))
        #expect(plan.summary == ["inferred make-optional Book.title"])
        #expect(plan.statements.isEmpty)
    }

    @Test func testNumericWideningIsInferredNarrowingAndOtherChangesNeedMapping() {
        func plan(_ from: AttributeType, _ to: AttributeType) -> MigrationPlan {
            MigrationPlan(
                from: M.model(1, [M.book([M.attribute("count", from)])]),
                to: M.model(2, [M.book([M.attribute("count", to)])]))
        }
        #expect(plan(.integer16, .integer64).summary == ["inferred widen-type Book.count"])
        #expect(plan(.integer16, .integer64).statements.isEmpty)
        #expect(plan(.float, .double).summary == ["inferred widen-type Book.count"])
        #expect(
            plan(.integer32, .double).sql.contains { $0.contains("CAST(ZBOOK.ZCOUNT AS REAL)") })
        #expect(plan(.integer64, .integer16).summary == ["needs-mapping change-type Book.count"])
        #expect(plan(.double, .integer32).summary == ["needs-mapping change-type Book.count"])
        #expect(plan(.boolean, .integer32).summary == ["inferred widen-type Book.count"])
        #expect(plan(.integer64, .double).summary == ["inferred widen-type Book.count"])
        #expect(plan(.string, .integer32).summary == ["needs-mapping change-type Book.count"])
    }

    @Test func testIndexAndUniquenessChanges() {
        var indexed = M.attribute("title")
        indexed.isIndexed = true
        var unique = M.book([indexed])
        unique.uniquenessConstraints = [["title"]]
        unique.indexes = [FetchIndex(name: "byTitle", elements: [.init(property: "title")])]
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [unique]))
        #expect(
            plan.summary == [
                "inferred add-index Book.byTitle", "inferred add-index Book.title",
                "inferred add-uniqueness Book.title",
            ])
        #expect(
            plan.sql == [
                "CREATE INDEX Z_Book_title ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Book_UNIQUE_title ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
                "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
            ])
        let back = MigrationPlan(from: M.model(1, [unique]), to: M.model(2, [M.book()]))
        #expect(back.summary.contains("inferred remove-uniqueness Book.title"))
        #expect(back.sql.contains("DROP INDEX Z_Book_UNIQUE_title"))
    }

    @Test func testVersionHashModifierIsAHashOnlyStep() {
        var modified = M.attribute("title")
        modified.versionHashModifier = "2"
        var book = M.book([modified])
        book.versionHashModifier = "v2"
        let plan = MigrationPlan(from: M.model(1, [M.book()]), to: M.model(2, [book]))
        #expect(
            plan.summary == [
                "inferred change-version-hash Book", "inferred change-version-hash Book.title",
            ])
        #expect(plan.statements.isEmpty)
        #expect(plan.steps.allSatisfy { $0.tables.isEmpty || $0.property != nil })
    }

    @Test func testDropPlusAddOfTheSameTypeAsksForRenamedFrom() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book()]), to: M.model(2, [M.book([M.attribute("name")])]))
        #expect(
            plan.summary == [
                "inferred add-attribute Book.name", "lossy remove-attribute Book.title",
            ])
        #expect(plan.steps[0].suggestedRenamedFrom == "title")
        #expect(plan.steps[0].reason.hasSuffix("did you mean renamedFrom: \"title\"?"))
        #expect(plan.steps[1].reason.contains("did you mean name with renamedFrom: \"title\"?"))
        // A different type is not a likely rename.
        let retyped = MigrationPlan(
            from: M.model(1, [M.book()]),
            to: M.model(2, [M.book([M.attribute("pages", .integer32)])]))
        #expect(retyped.steps.allSatisfy { $0.suggestedRenamedFrom == nil })
    }

    @Test func testStepsOnOneTableAreFusedIntoOneRebuild() {
        let plan = MigrationPlan(
            from: M.model(1, [M.book([M.attribute("title"), M.attribute("isbn")])]),
            to: M.model(
                2,
                [
                    M.book([
                        M.attribute("name", renamedFrom: "title"),
                        M.attribute(
                            "pages", .integer32, optional: false, default: .literal(.integer(1))),
                    ])
                ]))
        #expect(
            plan.summary == [
                "lossy remove-attribute Book.isbn",
                "inferred rename-attribute Book.name (was Book.title)",
                "inferred add-attribute Book.pages",
            ])
        let rebuilds = plan.tableChanges.filter { $0.strategy == .rebuild }
        #expect(rebuilds.count == 1)
        #expect(rebuilds.first?.isFused == true)
        #expect(rebuilds.first?.steps == [0, 1, 2])
        #expect(plan.sql.filter { $0.hasPrefix("CREATE TABLE") }.count == 1)
        #expect(
            plan.sql.contains(
                "INSERT INTO \"strata_new_ZBOOK\" (Z_PK, Z_ENT, Z_OPT, ZPAGES, ZNAME) SELECT "
                    + "ZBOOK.Z_PK, ZBOOK.Z_ENT, ZBOOK.Z_OPT, ?, ZBOOK.ZTITLE FROM ZBOOK"))
    }

    @Test func testStepsAreOrderedByEntityNumberThenPropertyName() {
        let from = M.model(1, [Entity(name: "Author"), M.book()])
        let to = M.model(
            2,
            [
                Entity(name: "Author", attributes: [M.attribute("zeta"), M.attribute("alpha")]),
                M.book([M.attribute("title"), M.attribute("b")]),
            ])
        #expect(
            MigrationPlan(from: from, to: to).summary == [
                "inferred add-attribute Author.alpha", "inferred add-attribute Author.zeta",
                "inferred add-attribute Book.b",
            ])
    }
}
