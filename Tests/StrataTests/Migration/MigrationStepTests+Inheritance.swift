import Testing

@testable import Strata
@testable import StrataContext

/// Inheritance steps run on populated stores: a property moving up to a
/// new or existing parent and down to a subentity, tables merged into a
/// new parent's table, a subentity added under a to-one's destination.
/// Every row, with its entity (`Z_ENT`), is read back on the new version.
struct MigrationInheritanceStepTests {
    typealias M = MigrationStepModels

    /// A new parent takes its subentity's rows into its table, renumbered,
    /// with the property moved up to it and the links into the table.
    @Test func testMoveUpToANewParentMergesTheRowsIntoItsTable() throws {
        let store = try StepTestStore(chain: M.moveUpToNewParent(), version: 1) { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            try context.make("Author")
            let books: [(String?, String?, ManagedObject?)] = [
                ("Emma", "first", austen), ("Sense", nil, austen), (nil, "third", nil),
            ]
            for (title, note, author) in books {
                let book = try context.make(
                    "Book", ["title": title.map { .string($0) }, "note": note.map { .string($0) }])
                try book.setObject(author, forKey: "author")
            }
        }
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-entity Item", "inferred move-property Item.note",
                "inferred renumber-entity Book", "inferred change-parent Book",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        let books = [
            #"Book/p1 note="first" title="Emma" author=Author/p1"#,
            #"Book/p2 note=nil title="Sense" author=Author/p1"#,
            #"Book/p3 note="third" title=nil author=nil"#,
        ]
        #expect(try store.rows("Item", as: 2) == books)
        #expect(try store.rows("Book", as: 2) == books)
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[Book/p1, Book/p2]"#, "Author/p2 name=nil books=[]",
            ])
        // New items take keys after the books'.
        try store.withContext(as: 2) { context in
            try context.make("Item", ["note": .string("plain")])
            try context.save()
        }
        #expect(try store.rows("Item", as: 2).last == #"Item/p4 note="plain""#)
        #expect(try store.problems(as: 2) == [])
    }

    /// One item, one article and two books sharing the Item table, with
    /// notes where the version declares them (`notes`).
    private func fillItems(notes: Bool) -> (Context) throws -> Void {
        { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            let item = try context.make("Item", ["added": .integer(1)])
            let article = try context.make("Article", ["added": .integer(2), "url": .string("u")])
            if notes {
                try item.setValue(.string("item"), forKey: "note")
                try article.setValue(.string("article"), forKey: "note")
            }
            let book = try context.make(
                "Book", ["added": .integer(3), "title": .string("T"), "note": .string("book")])
            try book.setObject(austen, forKey: "author")
            try context.make("Book")
        }
    }

    /// A property moved down from the root to one subentity keeps that
    /// subentity's values; the other entities' values go.
    @Test func testMoveDownToASubentityKeepsItsValues() throws {
        let chain = try M.chain(M.items(noteOnItem: true), M.items(noteOnItem: false))
        let store = try StepTestStore(chain: chain, version: 1, fill: fillItems(notes: true))
        #expect(try store.summary(from: 1, to: 2) == ["lossy move-property Book.note"])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Item", as: 2) == [
                "Item/p1 added=1",
                #"Article/p2 added=2 url="u""#,
                #"Book/p3 added=3 note="book" title="T" author=Author/p1"#,
                "Book/p4 added=nil note=nil title=nil author=nil",
            ])
        #expect(try store.rows("Author", as: 2) == [#"Author/p1 name="Austen" books=[Book/p3]"#])
    }

    /// A property moved up from a subentity to the existing root keeps the
    /// subentity's values; the root's other entities start with nil.
    @Test func testMoveUpToTheExistingParentKeepsTheValues() throws {
        let chain = try M.chain(M.items(noteOnItem: false), M.items(noteOnItem: true))
        let store = try StepTestStore(chain: chain, version: 1, fill: fillItems(notes: false))
        #expect(try store.summary(from: 1, to: 2) == ["inferred move-property Item.note"])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Item", as: 2) == [
                "Item/p1 added=1 note=nil",
                #"Article/p2 added=2 note=nil url="u""#,
                #"Book/p3 added=3 note="book" title="T" author=Author/p1"#,
                "Book/p4 added=nil note=nil title=nil author=nil",
            ])
    }

    /// Two roots that get the same new parent would merge their tables,
    /// whose keys collide: the plan says so (a mapping is needed), and
    /// migrating without one fails and leaves the store as it was.
    @Test func testTwoRootsUnderANewParentNeedAMappingAndChangeNothing() throws {
        let store = try StepTestStore(chain: M.mergeUnderNewParent(), version: 1) { context in
            for title in ["A", "B", "C"] { try context.make("Book", ["title": .string(title)]) }
            for issue in [1, 2] { try context.make("Magazine", ["issue": .integer(Int64(issue))]) }
        }
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-entity Publication", "inferred renumber-entity Book",
                "needs-mapping change-parent Book", "inferred renumber-entity Magazine",
                "needs-mapping change-parent Magazine",
            ])
        #expect(throws: (any Error).self) { try store.migrate(from: 1, to: 2) }
        #expect(try store.problems(as: 1) == [])
        #expect(
            try store.rows("Book", as: 1) == [
                #"Book/p1 title="A""#, #"Book/p2 title="B""#, #"Book/p3 title="C""#,
            ])
        #expect(
            try store.rows("Magazine", as: 1) == ["Magazine/p1 issue=1", "Magazine/p2 issue=2"])
    }

    /// A to-one whose destination gains a subentity gets its entity column,
    /// filled for the existing links; the links then reach the subentity.
    @Test func testSubentityOfADestinationFillsTheEntityColumn() throws {
        let store = try StepTestStore(
            chain: M.addSubentityOfDestination(), version: 1, fill: M.fillAuthorsAndBooks)
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Author", as: 2) == M.authorRows)
        #expect(try store.rows("Book", as: 2) == M.bookRows)
        try store.withContext(as: 2) { context in
            let editor = try context.make("Editor", ["name": .string("Ed"), "desk": .string("2")])
            try context.findAll("Book")[3].setObject(editor, forKey: "author")
            try context.save()
        }
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Book", as: 2)[3] == "Book/p4 title=nil year=nil author=Editor/p4")
    }
}
