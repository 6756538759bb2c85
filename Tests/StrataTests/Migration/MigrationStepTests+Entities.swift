import Testing

@testable import Strata

/// Entity steps run on populated stores: every row of every kept entity is
/// read back on the new version, and the store is sound and shaped like a
/// new store of that version.
struct MigrationEntityStepTests {
    typealias M = MigrationStepModels

    /// A new entity starts empty and takes objects, while the entities it
    /// renumbers keep every row and link.
    @Test func testAddEntityKeepsEveryRowOfTheRenumberedEntities() throws {
        let store = try StepTestStore(chain: M.addEntity(), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-entity Anthology", "inferred renumber-entity Author",
                "inferred renumber-entity Book",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Author", as: 2) == M.authorRows)
        #expect(try store.rows("Book", as: 2) == M.bookRows)
        #expect(try store.rows("Anthology", as: 2) == [])
        try store.withContext(as: 2) { context in
            try context.make("Anthology", ["name": .string("Tales")])
            try context.save()
        }
        #expect(try store.rows("Anthology", as: 2) == [#"Anthology/p1 name="Tales" volumes=1"#])
        #expect(try store.problems(as: 2) == [])
    }

    /// A removed entity takes its table and the links to it along; the
    /// others keep every row under their new numbers.
    @Test func testRemoveEntityDropsItsRowsAndLinksOnly() throws {
        let store = try StepTestStore(chain: M.removeEntity(), version: 1) { context in
            try M.fillAuthorsAndBooks(context)
            let agency = try context.make("Agency", ["name": .string("Curtis Brown")])
            for author in try context.findAll("Author").prefix(2) {
                try author.setObject(agency, forKey: "agency")
            }
            try context.make("Agency")
        }
        #expect(
            try store.rows("Agency", as: 1) == [
                #"Agency/p1 name="Curtis Brown" authors=[Author/p1, Author/p2]"#,
                "Agency/p2 name=nil authors=[]",
            ])
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred renumber-entity Author", "lossy remove-relationship Author.agency",
                "inferred renumber-entity Book", "lossy remove-entity Agency",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Author", as: 2) == M.authorRows)
        #expect(try store.rows("Book", as: 2) == M.bookRows)
    }

    /// Renamed entities keep their keys, values, to-one links and
    /// many-to-many pairs, though both change number and the join table
    /// changes name.
    @Test func testRenameEntityKeepsKeysValuesAndLinks() throws {
        let store = try StepTestStore(chain: M.renameEntity(), version: 1) { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            let bronte = try context.make("Author", ["name": .string("Brontë")])
            try context.make("Author")
            let emma = try context.make("Book", ["title": .string("Emma")])
            try emma.add(austen, to: "authors")
            try emma.setObject(bronte, forKey: "editor")
            let joint = try context.make("Book", ["title": .string("Joint")])
            try joint.add(austen, to: "authors")
            try joint.add(bronte, to: "authors")
            let untitled = try context.make("Book")
            try untitled.setObject(austen, forKey: "editor")
        }
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred rename-entity Volume (was Book)", "inferred renumber-entity Volume",
                "inferred rename-entity Writer (was Author)", "inferred renumber-entity Writer",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Writer", as: 2) == [
                #"Writer/p1 name="Austen" books=[Volume/p1, Volume/p2] edited=[Volume/p3]"#,
                #"Writer/p2 name="Brontë" books=[Volume/p2] edited=[Volume/p1]"#,
                "Writer/p3 name=nil books=[] edited=[]",
            ])
        #expect(
            try store.rows("Volume", as: 2) == [
                #"Volume/p1 title="Emma" authors=[Writer/p1] editor=Writer/p2"#,
                #"Volume/p2 title="Joint" authors=[Writer/p1, Writer/p2] editor=nil"#,
                "Volume/p3 title=nil authors=[] editor=Writer/p1",
            ])
    }
}
