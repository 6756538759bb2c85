import Testing

@testable import Strata
@testable import StrataContext

/// Index and uniqueness steps run on populated stores: the indexes exist
/// (or are gone) afterwards with every row intact, a new uniqueness
/// constraint holds, and existing duplicates make the migration fail
/// without changing the store.
struct MigrationIndexStepTests {
    typealias M = MigrationStepModels

    /// Three books with distinct ISBNs, two without one; `duplicate` gives
    /// the third book the first one's ISBN.
    private func fill(duplicate: Bool = false) -> (Context) throws -> Void {
        { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            let isbns: [String?] = ["111", "222", duplicate ? "111" : "333", nil, nil]
            for (index, isbn) in isbns.enumerated() {
                let book = try context.make(
                    "Book", ["title": .string("T\(index)"), "isbn": isbn.map { .string($0) }])
                if index < 2 { try book.setObject(austen, forKey: "author") }
            }
        }
    }

    private let books = [
        #"Book/p1 isbn="111" title="T0" author=Author/p1"#,
        #"Book/p2 isbn="222" title="T1" author=Author/p1"#,
        #"Book/p3 isbn="333" title="T2" author=nil"#,
        #"Book/p4 isbn=nil title="T3" author=nil"#,
        #"Book/p5 isbn=nil title="T4" author=nil"#,
    ]

    /// A new indexed attribute and fetch index exist after the migration;
    /// every row stays.
    @Test func testAddIndexesCreatesThem() throws {
        let chain = try M.chain(M.indexedBooks(), M.indexedBooks(indexed: true))
        let store = try StepTestStore(chain: chain, version: 1, fill: fill())
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-index Book.byISBN", "inferred add-index Book.title",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.indexes(on: "ZBOOK") == [
                "ZBOOK_ZAUTHOR_INDEX", "Z_Book_byISBN", "Z_Book_title",
            ])
        #expect(try store.rows("Book", as: 2) == books)
    }

    /// A new uniqueness constraint becomes a unique index (rows without a
    /// value do not clash), and refuses a repeated value afterwards.
    @Test func testAddUniquenessCreatesAUniqueIndexThatHolds() throws {
        let chain = try M.chain(M.indexedBooks(), M.indexedBooks(unique: true))
        let store = try StepTestStore(chain: chain, version: 1, fill: fill())
        #expect(try store.summary(from: 1, to: 2) == ["inferred add-uniqueness Book.isbn"])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.indexes(on: "ZBOOK") == ["ZBOOK_ZAUTHOR_INDEX", "Z_Book_UNIQUE_isbn"])
        #expect(try store.rows("Book", as: 2) == books)
        #expect(throws: (any Error).self) {
            try store.withContext(as: 2) { context in
                try context.make("Book", ["isbn": .string("222")])
                try context.save()
            }
        }
        #expect(try store.rows("Book", as: 2) == books)
    }

    /// Existing duplicates break a new uniqueness constraint: the migration
    /// fails and the store is still a sound store of the old version with
    /// every row.
    @Test func testAddUniquenessOverDuplicatesFailsAndChangesNothing() throws {
        let chain = try M.chain(M.indexedBooks(), M.indexedBooks(unique: true))
        let store = try StepTestStore(chain: chain, version: 1, fill: fill(duplicate: true))
        // The plan's unique index fails on the repeated ISBN (an executor
        // may refuse earlier); either way nothing is written.
        #expect(throws: (any Error).self) { try store.migrate(from: 1, to: 2) }
        #expect(try store.problems(as: 1) == [])
        #expect(try store.indexes(on: "ZBOOK") == ["ZBOOK_ZAUTHOR_INDEX"])
        var duplicated = books
        duplicated[2] = #"Book/p3 isbn="111" title="T2" author=nil"#
        #expect(try store.rows("Book", as: 1) == duplicated)
    }

    /// Removed indexes and uniqueness are gone afterwards: every row stays,
    /// and a repeated value is accepted.
    @Test func testRemoveIndexesAndUniquenessDropsThem() throws {
        let chain = try M.chain(
            M.indexedBooks(indexed: true, unique: true), M.indexedBooks())
        let store = try StepTestStore(chain: chain, version: 1, fill: fill())
        #expect(
            try store.indexes(on: "ZBOOK") == [
                "ZBOOK_ZAUTHOR_INDEX", "Z_Book_UNIQUE_isbn", "Z_Book_byISBN", "Z_Book_title",
            ])
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred remove-index Book.byISBN", "inferred remove-uniqueness Book.isbn",
                "inferred remove-index Book.title",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.indexes(on: "ZBOOK") == ["ZBOOK_ZAUTHOR_INDEX"])
        #expect(try store.rows("Book", as: 2) == books)
        try store.withContext(as: 2) { context in
            try context.make("Book", ["isbn": .string("222")])
            try context.save()
        }
        #expect(try store.rows("Book", as: 2).last == #"Book/p6 isbn="222" title=nil author=nil"#)
    }
}
