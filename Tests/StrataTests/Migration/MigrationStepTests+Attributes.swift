import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataSchema

/// Attribute steps run on populated stores: added, removed and renamed
/// attributes, renames across versions, optional to required, numeric
/// widening. Every row is read back on the new version.
struct MigrationAttributeStepTests {
    typealias M = MigrationStepModels

    /// A new optional attribute is nil in every row; new attributes with a
    /// default (required or not) hold it in every row.
    @Test func testAddAttributesBackfillsDefaults() throws {
        let store = try StepTestStore(
            chain: M.addAttributes(), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred add-attribute Book.cover", "inferred add-attribute Book.inPrint",
                "inferred add-attribute Book.isbn", "inferred add-attribute Book.pages",
                "inferred add-attribute Book.published", "inferred add-attribute Book.rating",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        let added = "cover=0x0102 inPrint=true isbn=nil pages=100 published=@86400.0 rating=2.5"
        #expect(
            try store.rows("Book", as: 2) == [
                #"Book/p1 \#(added) title="Emma" year=1815 author=Author/p1"#,
                #"Book/p2 \#(added) title="Persuasion" year=1817 author=Author/p1"#,
                #"Book/p3 \#(added) title="Jane Eyre" year=1847 author=Author/p2"#,
                "Book/p4 \(added) title=nil year=nil author=nil",
                #"Book/p5 \#(added) title="" year=-2147483648 author=nil"#,
            ])
        #expect(try store.rows("Author", as: 2) == M.authorRows)
    }

    /// A new required date defaulting to `"now"` gets the migration's time
    /// in every row, and a new UUID defaulting to `"uuid"` a different UUID
    /// in each row.
    @Test func testAddAttributesBackfillsComputedDefaults() throws {
        let store = try StepTestStore(
            chain: M.addComputedDefaults(), version: 1, fill: M.fillAuthorsAndBooks)
        let before = Date().timeIntervalSinceReferenceDate
        try store.migrate(from: 1, to: 2)
        let after = Date().timeIntervalSinceReferenceDate
        #expect(try store.problems(as: 2) == [])
        let (checked, tokens) = try store.withContext(as: 2) { context in
            let books = try context.findAll("Book")
            return (
                try books.map { try $0.value(forKey: "checked") },
                try books.map { try $0.value(forKey: "token") }
            )
        }
        guard case .date(let seconds)? = checked.first else {
            Issue.record("no date in the first row: \(checked)")
            return
        }
        #expect(checked == Array(repeating: .date(seconds), count: 5))
        // julianday('now') has millisecond precision.
        #expect(seconds >= before - 0.001 && seconds <= after + 0.001)
        #expect(Set(tokens.compactMap { $0 }).count == 5)
        #expect(tokens.allSatisfy { if case .uuid = $0 { true } else { false } })
        let rows = try store.rows("Book", as: 2)
        let expected = zip(M.bookRows, tokens).map { row, token in
            row.replacingOccurrences(of: " title=", with: " checked=@\(seconds) title=")
                .replacingOccurrences(
                    of: " year=",
                    with: " token=\(token.map(StepTestStore.describe) ?? "nil") year=")
        }
        #expect(rows == expected)
    }

    /// A removed attribute's column goes; every other value and link of
    /// every row stays.
    @Test func testRemoveAttributeKeepsTheOtherValues() throws {
        let store = try StepTestStore(chain: M.removeAttribute(), version: 1) { context in
            try M.fillAuthorsAndBooks(context)
            for (index, book) in try context.findAll("Book").enumerated() {
                try book.setValue(.string("isbn-\(index)"), forKey: "isbn")
            }
        }
        #expect(try store.summary(from: 1, to: 2) == ["lossy remove-attribute Book.isbn"])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Book", as: 2) == M.bookRows)
        #expect(try store.rows("Author", as: 2) == M.authorRows)
    }

    /// Attributes and a relationship pair renamed through `renamedFrom`
    /// keep their values and links.
    @Test func testRenameAttributesAndRelationshipsKeepsTheirValues() throws {
        let store = try StepTestStore(
            chain: M.renameProperties(), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred rename-relationship Author.works (was Author.books)",
                "inferred rename-attribute Book.name (was Book.title)",
                "inferred rename-attribute Book.published (was Book.year)",
                "inferred rename-relationship Book.writer (was Book.author)",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" works=[Book/p1, Book/p2]"#,
                #"Author/p2 name="Brontë" works=[Book/p3]"#,
                "Author/p3 name=nil works=[]",
            ])
        #expect(
            try store.rows("Book", as: 2) == [
                #"Book/p1 name="Emma" published=1815 writer=Author/p1"#,
                #"Book/p2 name="Persuasion" published=1817 writer=Author/p1"#,
                #"Book/p3 name="Jane Eyre" published=1847 writer=Author/p2"#,
                "Book/p4 name=nil published=nil writer=nil",
                #"Book/p5 name="" published=-2147483648 writer=nil"#,
            ])
    }

    /// An entity, attribute and relationship pair each renamed twice keep
    /// everything from version 1 to 3, directly or one version at a time.
    @Test func testRenamedTwiceMigratesOneToThreeDirectlyAndStepwise() throws {
        let persons = [
            #"Person/p1 name="Austen" oeuvre=[Book/p1, Book/p2]"#,
            #"Person/p2 name="Brontë" oeuvre=[Book/p3]"#,
            "Person/p3 name=nil oeuvre=[]",
        ]
        let books = [
            #"Book/p1 heading="Emma" year=1815 creator=Person/p1"#,
            #"Book/p2 heading="Persuasion" year=1817 creator=Person/p1"#,
            #"Book/p3 heading="Jane Eyre" year=1847 creator=Person/p2"#,
            "Book/p4 heading=nil year=nil creator=nil",
            #"Book/p5 heading="" year=-2147483648 creator=nil"#,
        ]
        let direct = try StepTestStore(
            chain: M.renameTwice(), version: 1, fill: M.fillAuthorsAndBooks)
        #expect(
            try direct.summary(from: 1, to: 3) == [
                "inferred renumber-entity Book",
                "inferred rename-relationship Book.creator (was Book.author)",
                "inferred rename-attribute Book.heading (was Book.title)",
                "inferred rename-entity Person (was Author)", "inferred renumber-entity Person",
                "inferred rename-relationship Person.oeuvre (was Person.books)",
            ])
        try direct.migrate(from: 1, to: 3)
        #expect(try direct.problems(as: 3) == [])
        #expect(try direct.rows("Person", as: 3) == persons)
        #expect(try direct.rows("Book", as: 3) == books)

        let stepwise = try StepTestStore(
            chain: M.renameTwice(), version: 1, fill: M.fillAuthorsAndBooks)
        try stepwise.migrate(from: 1, to: 2)
        #expect(try stepwise.problems(as: 2) == [])
        try stepwise.migrate(from: 2, to: 3)
        #expect(try stepwise.problems(as: 3) == [])
        #expect(try stepwise.rows("Person", as: 3) == persons)
        #expect(try stepwise.rows("Book", as: 3) == books)
    }

    /// Optional attributes that become required get their default where
    /// they were nil and keep every other value, zeros and empty text
    /// included.
    @Test func testOptionalToRequiredFillsNilsWithTheDefault() throws {
        let store = try StepTestStore(chain: M.makeRequired(), version: 1) { context in
            let austen = try context.make("Author", ["name": .string("Austen")])
            let rows: [[String: AttributeValue?]] = [
                [
                    "title": .string("Emma"), "year": .integer(1815), "inPrint": .boolean(true),
                    "price": .real(12.5),
                ],
                [:],
                [
                    "title": .string(""), "year": .integer(0), "inPrint": .boolean(false),
                    "price": .real(0),
                ],
                ["title": .string("X"), "year": .integer(-5), "price": .real(-1.25)],
            ]
            for (index, values) in rows.enumerated() {
                let book = try context.make("Book", values)
                if index.isMultiple(of: 2) { try book.setObject(austen, forKey: "author") }
            }
        }
        #expect(
            try store.summary(from: 1, to: 2) == [
                "inferred make-required Book.inPrint", "inferred make-required Book.price",
                "inferred make-required Book.title", "inferred make-required Book.year",
            ])
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Book", as: 2) == [
                #"Book/p1 inPrint=true price=12.5 title="Emma" year=1815 author=Author/p1"#,
                #"Book/p2 inPrint=false price=9.75 title="Untitled" year=0 author=nil"#,
                #"Book/p3 inPrint=false price=0.0 title="" year=0 author=Author/p1"#,
                #"Book/p4 inPrint=false price=-1.25 title="X" year=-5 author=nil"#,
            ])
        #expect(
            try store.rows("Author", as: 2) == [
                #"Author/p1 name="Austen" books=[Book/p1, Book/p3]"#
            ])
    }

    /// integer16 → 32 → 64 and float → double keep every value, the
    /// extremes of the narrower types included, directly or one version at
    /// a time; the widened column then holds values the old type could not.
    @Test func testNumericWideningKeepsEveryValue() throws {
        func fill(_ context: Context) throws {
            let austen = try context.make("Author", ["name": .string("Austen")])
            let rows: [(Int64?, Double?)] = [
                (32767, 0.5), (-32768, -2.25), (0, nil),
                (nil, Double(Float.greatestFiniteMagnitude)),
                (-1, Double(Float.leastNonzeroMagnitude)),
            ]
            for (year, price) in rows {
                let book = try context.make(
                    "Book", ["year": year.map { .integer($0) }, "price": price.map { .real($0) }])
                try book.setObject(year == nil ? nil : austen, forKey: "author")
            }
        }
        let expected = [
            "Book/p1 price=0.5 title=nil year=32767 author=Author/p1",
            "Book/p2 price=-2.25 title=nil year=-32768 author=Author/p1",
            "Book/p3 price=nil title=nil year=0 author=Author/p1",
            "Book/p4 price=\(Double(Float.greatestFiniteMagnitude)) title=nil year=nil author=nil",
            "Book/p5 price=\(Double(Float.leastNonzeroMagnitude)) title=nil year=-1 "
                + "author=Author/p1",
        ]
        let direct = try StepTestStore(chain: M.widenNumbers(), version: 1, fill: fill)
        #expect(
            try direct.summary(from: 1, to: 3) == [
                "inferred widen-type Book.price", "inferred widen-type Book.year",
            ])
        try direct.migrate(from: 1, to: 3)
        #expect(try direct.problems(as: 3) == [])
        #expect(try direct.rows("Book", as: 3) == expected)
        try direct.withContext(as: 3) { context in
            try context.findAll("Book").first?.setValue(.integer(Int64.max), forKey: "year")
            try context.save()
        }
        #expect(
            try direct.rows("Book", as: 3).first
                == "Book/p1 price=0.5 title=nil year=\(Int64.max) author=Author/p1")

        let stepwise = try StepTestStore(chain: M.widenNumbers(), version: 1, fill: fill)
        try stepwise.migrate(from: 1, to: 2)
        #expect(try stepwise.problems(as: 2) == [])
        #expect(try stepwise.rows("Book", as: 2) == expected)
        try stepwise.migrate(from: 2, to: 3)
        #expect(try stepwise.problems(as: 3) == [])
        #expect(try stepwise.rows("Book", as: 3) == expected)
    }
}
