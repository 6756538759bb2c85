import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// What the dry run counts for steps Core Data would take silently: an
/// added to-many (only a minimum makes rows break it) and a type change
/// that is not a widening (the values that would not fit).
struct MigrationPreflightCountTests {
    typealias M = MigrationStepModels

    /// Version 2 adds `Author.favorites` ↔ `Book.fans`, required, with the
    /// given minimum.
    static func favoritesChain(minCount: Int) throws -> SchemaChain {
        try M.chain(
            M.authorsAndBooks,
            """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {
                         "books": {"destination": "Book", "inverse": "author", "toMany": true,
                                   "optional": true},
                         "favorites": {"destination": "Book", "inverse": "fans", "toMany": true,
                                       "minCount": \(minCount)}}},
            "Book": {"attributes": {"title": {"type": "string", "optional": true},
                                    "year": {"type": "integer32", "optional": true}},
                     "relationships": {
                       "author": {"destination": "Author", "inverse": "books", "optional": true},
                       "fans": {"destination": "Author", "inverse": "favorites", "toMany": true,
                                "optional": true}}}
            """)
    }

    static func strict(_ store: StepTestStore) -> Migrator {
        var options = MigrationOptions()
        options.keepsBackup = false
        return Migrator(storeAt: store.url, chain: store.chain, options: options)
    }

    /// A to-many has no per-row value to supply: added as required with
    /// minCount 0 it starts empty, and nothing blocks.
    @Test func testAddedRequiredToManyWithoutMinimumNeverBlocks() throws {
        let store = try StepTestStore(
            chain: try Self.favoritesChain(minCount: 0), version: 1,
            fill: M.fillAuthorsAndBooks)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-relationship Author.favorites", "inferred add-relationship Book.fans",
            ])
        let migrator = Self.strict(store)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty)
        #expect(!preview.findings.contains { $0.message.contains("need a value") })
        try migrator.run()
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Author", as: 2).allSatisfy { $0.contains("favorites=[]") })
    }

    /// With minCount 1 every existing author breaks it: the dry run counts
    /// them and blocks, and the run refuses before writing.
    @Test func testAddedToManyWithMinimumBlocksWithTheCount() throws {
        let store = try StepTestStore(
            chain: try Self.favoritesChain(minCount: 1), version: 1,
            fill: M.fillAuthorsAndBooks)
        let authors = try store.rows("Author", as: 1).count
        #expect(authors > 0)
        let migrator = Self.strict(store)
        let preview = try migrator.preview()
        let messages = preview.blockingFindings.map(\.message)
        #expect(
            messages == [
                "\(authors) rows of Author would have no favorites, fewer than its minCount 1; an "
                    + "added to-many starts empty; supply it in 1-2.mapping.json"
            ])
        #expect(throws: MigrationError.self) { try migrator.run() }
        #expect(try store.problems(as: 1) == [])
    }

    /// A narrowing needs a mapping, and the dry run says how many values
    /// would not fit the narrower type.
    @Test func testNarrowingCountsTheValuesThatWouldNotFit() throws {
        let chain = try M.chain(
            #""Counter": {"attributes": {"count": {"type": "integer64", "optional": true}}}"#,
            #""Counter": {"attributes": {"count": {"type": "integer16", "optional": true}}}"#)
        let store = try StepTestStore(chain: chain, version: 1) { context in
            for value in [1, 70000, nil, -5, -40000] as [Int64?] {
                try context.make("Counter", ["count": value.map { .integer($0) }])
            }
        }
        #expect(try store.summary(from: 1, to: 2) == ["needs-mapping change-type Counter.count"])
        let preview = try Self.strict(store).preview()
        let messages = preview.blockingFindings.map(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("4 values of Counter.count need converting") == true)
        #expect(messages.first?.contains("; 2 of them would not fit;") == true)
    }

    /// Text to a number: text that does not read as one would not fit.
    @Test func testTextToNumberCountsTheTextThatIsNoNumber() throws {
        let chain = try M.chain(
            #""Counter": {"attributes": {"count": {"type": "string", "optional": true}}}"#,
            #""Counter": {"attributes": {"count": {"type": "double", "optional": true}}}"#)
        let store = try StepTestStore(chain: chain, version: 1) { context in
            for value in ["1.5", " 12 ", "twelve", "1e3"] {
                try context.make("Counter", ["count": .string(value)])
            }
        }
        let messages = try Self.strict(store).preview().blockingFindings.map(\.message)
        #expect(messages.first?.contains("; 1 of them would not fit;") == true)
    }

    /// `Author.books` becomes required: without a minimum nothing breaks;
    /// with minCount 1 the dry run counts the authors without a book.
    @Test func testToManyBecomingRequiredCountsOnlyRowsBelowTheMinimum() throws {
        func chain(minCount: Int) throws -> SchemaChain {
            try M.chain(
                M.authorsAndBooks,
                M.authorsAndBooks.replacingOccurrences(
                    of: #""toMany": true, "optional": true}"#,
                    with: #""toMany": true, "minCount": \#(minCount)}"#))
        }
        let loose = try StepTestStore(
            chain: try chain(minCount: 0), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(try loose.summary(from: 1, to: 2) == ["inferred make-required Author.books"])
        let findings = try Self.strict(loose).preview().blockingFindings.map(\.message)
        #expect(findings.isEmpty, "\(findings)")

        let strict = try StepTestStore(
            chain: try chain(minCount: 1), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(
            try Self.strict(strict).preview().blockingFindings.map(\.message) == [
                "1 rows of Author have fewer books than its minCount 1 in version 2; supply it "
                    + "in 1-2.mapping.json"
            ])
    }
}
