import Testing

@testable import Strata
@testable import StrataContext

/// Relationship steps run on populated stores: added and removed
/// relationships, to-one becoming to-many (into a join table, or staying a
/// key of the to-one inverse), ordered and unordered. Every row and link is
/// read back on the new version.
struct MigrationRelationshipStepTests {
    typealias M = MigrationStepModels

    /// Two authors, three books (one untitled), two tags; linked only when
    /// the version has the relationships.
    private func fillAuthorsBooksTags(linked: Bool) -> (Context) throws -> Void {
        { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            try context.make("Author", ["name": .string("Brontë")])
            let emma = try context.make("Book", ["title": .string("Emma")])
            let eyre = try context.make("Book", ["title": .string("Jane Eyre")])
            try context.make("Book")
            let classic = try context.make("Tag", ["label": .string("classic")])
            let romance = try context.make("Tag", ["label": .string("romance")])
            guard linked else { return }
            try emma.setObject(austen, forKey: "author")
            try emma.add(classic, to: "tags")
            try emma.add(romance, to: "tags")
            try eyre.add(classic, to: "tags")
        }
    }

    /// A new to-one/to-many pair and a new many-to-many start empty in every
    /// row, and take links afterwards.
    @Test func testAddRelationshipsStartEmptyAndTakeLinks() throws {
        let chain = try M.chain(M.authorsBooksTags(linked: false), M.authorsBooksTags(linked: true))
        let store = try StepTestStore(
            chain: chain, version: 1, fill: fillAuthorsBooksTags(linked: false))
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-relationship Author.books", "inferred add-relationship Book.author",
                "inferred add-relationship Book.tags", "inferred add-relationship Tag.books",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[]"#, #"Author/p2 name="Brontë" books=[]"#,
            ])
        #expect(
            try store.rows("Book", as: 2) == [
                #"Book/p1 title="Emma" author=nil tags=[]"#,
                #"Book/p2 title="Jane Eyre" author=nil tags=[]"#,
                "Book/p3 title=nil author=nil tags=[]",
            ])
        #expect(
            try store.rows("Tag", as: 2) == [
                #"Tag/p1 label="classic" books=[]"#, #"Tag/p2 label="romance" books=[]"#,
            ])
        try store.withContext(as: 2) { context in
            let books = try context.findAll("Book")
            try books[0].setObject(try context.findAll("Author")[1], forKey: "author")
            try books[0].add(try context.findAll("Tag")[1], to: "tags")
            try context.save()
        }
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Book", as: 2).first
                == #"Book/p1 title="Emma" author=Author/p2 tags=[Tag/p2]"#)
    }

    /// Removed relationships lose their links (key column and join table
    /// gone); every value stays.
    @Test func testRemoveRelationshipsKeepsTheValues() throws {
        let chain = try M.chain(M.authorsBooksTags(linked: true), M.authorsBooksTags(linked: false))
        let store = try StepTestStore(
            chain: chain, version: 1, fill: fillAuthorsBooksTags(linked: true))
        #expect(
            try store.rows("Book", as: 1) == [
                #"Book/p1 title="Emma" author=Author/p1 tags=[Tag/p1, Tag/p2]"#,
                #"Book/p2 title="Jane Eyre" author=nil tags=[Tag/p1]"#,
                "Book/p3 title=nil author=nil tags=[]",
            ])
        #expect(
            try store.summary(from: 1, to: 2) == [
                "lossy remove-relationship Author.books", "lossy remove-relationship Book.author",
                "lossy remove-relationship Book.tags", "lossy remove-relationship Tag.books",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen""#, #"Author/p2 name="Brontë""#,
            ])
        #expect(
            try store.rows("Book", as: 2) == [
                #"Book/p1 title="Emma""#, #"Book/p2 title="Jane Eyre""#, "Book/p3 title=nil",
            ])
        #expect(
            try store.rows("Tag", as: 2) == [
                #"Tag/p1 label="classic""#, #"Tag/p2 label="romance""#,
            ])
    }

    /// Four books, three with an author; Austen's books added in the order
    /// Sense, Persuasion, Emma (not their key order).
    private func fillAuthorsAndBooks(_ context: Context) throws {
        let austen = try context.make("Author", ["name": .string("Austen")])
        let bronte = try context.make("Author", ["name": .string("Brontë")])
        try context.make("Author")
        let titles = ["Emma", "Persuasion", "Jane Eyre", "Sense"]
        let books = try titles.map { try context.make("Book", ["title": .string($0)]) }
        try context.make("Book")
        for index in [3, 1, 0] { try austen.add(books[index], to: "books") }
        try bronte.add(books[2], to: "books")
    }

    /// Book rows after `author` became `authors`, in a join table.
    private let booksWithAuthors = [
        #"Book/p1 title="Emma" authors=[Author/p1]"#,
        #"Book/p2 title="Persuasion" authors=[Author/p1]"#,
        #"Book/p3 title="Jane Eyre" authors=[Author/p2]"#,
        #"Book/p4 title="Sense" authors=[Author/p1]"#,
        "Book/p5 title=nil authors=[]",
    ]

    /// A to-one whose inverse is to-many becomes many-to-many: each key
    /// moves to the join table, and the table takes more pairs afterwards.
    @Test func testToOneToToManyMovesKeysToAJoinTable() throws {
        let store = try StepTestStore(
            chain: M.toOneToToMany(ordered: false), version: 1, fill: fillAuthorsAndBooks)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred rename-relationship Book.authors (was Book.author)",
                "inferred to-one-to-to-many Book.authors (was Book.author)",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Book", as: 2) == booksWithAuthors)
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[Book/p1, Book/p2, Book/p4]"#,
                #"Author/p2 name="Brontë" books=[Book/p3]"#, "Author/p3 name=nil books=[]",
            ])
        try store.withContext(as: 2) { context in
            try context.findAll("Book")[0].add(try context.findAll("Author")[1], to: "authors")
            try context.save()
        }
        #expect(
            try store.rows("Book", as: 2).first
                == #"Book/p1 title="Emma" authors=[Author/p1, Author/p2]"#)
        #expect(try store.problems(as: 2) == [])
    }

    /// The same with an ordered inverse: the join table's order column
    /// takes each author's order from the old `Z_FOK_` column.
    @Test func testToOneToToManyKeepsTheInversesOrder() throws {
        let store = try StepTestStore(
            chain: M.toOneToToMany(ordered: true), version: 1, fill: fillAuthorsAndBooks)
        let authors = [
            #"Author/p1 name="Austen" books=[Book/p4, Book/p2, Book/p1]"#,
            #"Author/p2 name="Brontë" books=[Book/p3]"#, "Author/p3 name=nil books=[]",
        ]
        #expect(try store.rows("Author", as: 1) == authors)
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Book", as: 2) == booksWithAuthors)
        #expect(try store.rows("Author", as: 2) == authors)
    }

    /// A one-to-one whose side becomes to-many keeps its links as the key of
    /// the to-one inverse; the other key column goes.
    @Test func testOneToOneToToManyKeepsTheKeyOnTheToOneSide() throws {
        let store = try StepTestStore(chain: M.oneToOneToToMany(), version: 1) { context in
            let people = try ["Ann", "Ben", "Cy"].map {
                try context.make("Person", ["name": .string($0)])
            }
            let passports = try ["A1", "B2", "C3"].map {
                try context.make("Passport", ["number": .string($0)])
            }
            try people[0].setObject(passports[1], forKey: "passport")
            try people[1].setObject(passports[0], forKey: "passport")
        }
        #expect(
            try store.summary(from: 1, to: 2).contains(
                "inferred to-one-to-to-many Person.passports (was Person.passport)"))
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Person", as: 2) == [
                #"Person/p1 name="Ann" passports=[Passport/p2]"#,
                #"Person/p2 name="Ben" passports=[Passport/p1]"#,
                #"Person/p3 name="Cy" passports=[]"#,
            ])
        #expect(
            try store.rows("Passport", as: 2) == [
                #"Passport/p1 number="A1" holder=Person/p2"#,
                #"Passport/p2 number="B2" holder=Person/p1"#,
                #"Passport/p3 number="C3" holder=nil"#,
            ])
        try store.withContext(as: 2) { context in
            try context.findAll("Person")[0].add(
                try context.findAll("Passport")[2], to: "passports")
            try context.save()
        }
        #expect(
            try store.rows("Person", as: 2).first
                == #"Person/p1 name="Ann" passports=[Passport/p2, Passport/p3]"#)
    }

    /// Four books; Austen has three and Brontë one; shelf Top holds three,
    /// shelf Empty none. Members are added out of key order.
    private func fillShelves(_ context: Context) throws {
        let austen = try context.make("Author", ["name": .string("Austen")])
        let bronte = try context.make("Author", ["name": .string("Brontë")])
        let books = try ["A", "B", "C", "D"].map {
            try context.make("Book", ["title": .string($0)])
        }
        let top = try context.make("Shelf", ["name": .string("Top")])
        try context.make("Shelf", ["name": .string("Empty")])
        for index in [3, 0, 2] { try austen.add(books[index], to: "books") }
        try bronte.add(books[1], to: "books")
        for index in [3, 1, 0] { try top.add(books[index], to: "books") }
    }

    /// Books of ``fillShelves(_:)``, whatever the order of the to-manys.
    private let shelvedBooks = [
        #"Book/p1 title="A" author=Author/p1 shelves=[Shelf/p1]"#,
        #"Book/p2 title="B" author=Author/p2 shelves=[Shelf/p1]"#,
        #"Book/p3 title="C" author=Author/p1 shelves=[]"#,
        #"Book/p4 title="D" author=Author/p1 shelves=[Shelf/p1]"#,
    ]

    /// Unordered to-manys (one-to-many and many-to-many) that become ordered
    /// keep their members, in key order, and take positions afterwards.
    @Test func testUnorderedToOrderedOrdersMembersByKey() throws {
        let chain = try M.chain(M.shelves(ordered: false), M.shelves(ordered: true))
        let store = try StepTestStore(chain: chain, version: 1, fill: fillShelves)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred make-ordered Author.books", "inferred make-ordered Shelf.books",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[Book/p1, Book/p3, Book/p4]"#,
                #"Author/p2 name="Brontë" books=[Book/p2]"#,
            ])
        #expect(
            try store.rows("Shelf", as: 2) == [
                #"Shelf/p1 name="Top" books=[Book/p1, Book/p2, Book/p4]"#,
                #"Shelf/p2 name="Empty" books=[]"#,
            ])
        #expect(try store.rows("Book", as: 2) == shelvedBooks)
        try store.withContext(as: 2) { context in
            let (austen, top) = (try context.findAll("Author")[0], try context.findAll("Shelf")[0])
            let books = try context.findAll("Book")
            try austen.insert(books[1], into: "books", at: 0)
            try top.insert(books[2], into: "books", at: 1)
            try context.save()
        }
        #expect(
            try store.rows("Author", as: 2).first
                == #"Author/p1 name="Austen" books=[Book/p2, Book/p1, Book/p3, Book/p4]"#)
        #expect(
            try store.rows("Shelf", as: 2).first
                == #"Shelf/p1 name="Top" books=[Book/p1, Book/p3, Book/p2, Book/p4]"#)
        #expect(try store.problems(as: 2) == [])
    }

    /// Ordered to-manys that become unordered keep every member; their
    /// order columns go.
    @Test func testOrderedToUnorderedKeepsEveryMember() throws {
        let chain = try M.chain(M.shelves(ordered: true), M.shelves(ordered: false))
        let store = try StepTestStore(chain: chain, version: 1, fill: fillShelves)
        #expect(
            try store.rows("Shelf", as: 1).first
                == #"Shelf/p1 name="Top" books=[Book/p4, Book/p2, Book/p1]"#)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "lossy make-unordered Author.books", "lossy make-unordered Shelf.books",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[Book/p1, Book/p3, Book/p4]"#,
                #"Author/p2 name="Brontë" books=[Book/p2]"#,
            ])
        #expect(
            try store.rows("Shelf", as: 2) == [
                #"Shelf/p1 name="Top" books=[Book/p1, Book/p2, Book/p4]"#,
                #"Shelf/p2 name="Empty" books=[]"#,
            ])
        #expect(try store.rows("Book", as: 2) == shelvedBooks)
    }
}
