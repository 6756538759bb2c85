@testable import Strata
@testable import StrataContext
@testable import StrataSchema

/// The small chains of the migration step tests, written as the `entities`
/// object of Strata schema files (SchemaFormat.md) and checked like files of
/// a schema folder. Version n of a chain is its n-th string.
enum MigrationStepModels {
    /// A chain whose version n has the entities of `versions[n - 1]`.
    static func chain(_ versions: String...) throws -> SchemaChain {
        var models: [Model] = []
        for (index, entities) in versions.enumerated() {
            let file = "\(index + 1).json"
            let model = try SchemaDecoder().decode(
                """
                {"format": "strata-schema/1", "model": "Steps", "version": \(index + 1),
                 "entities": {\(entities)}}
                """, file: file)
            let issues = SchemaValidator().validate(model, file: file)
            if !issues.isEmpty { throw SchemaError(issues: issues) }
            models.append(model)
        }
        return SchemaChain(versions: models)
    }

    // MARK: - Entities

    /// `Author.books` ↔ `Book.author`, as most chains start.
    static let authorsAndBooks = library(
        bookAttributes: """
            "title": {"type": "string", "optional": true},
            "year": {"type": "integer32", "optional": true}
            """)

    /// `Author.books` ↔ `Book.author`, with the book attributes given as
    /// the members of a JSON object.
    static func library(bookAttributes: String) -> String {
        """
        "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                   "relationships": {"books": {"destination": "Book", "inverse": "author",
                                               "toMany": true, "optional": true}}},
        "Book": {"attributes": {\(bookAttributes)},
                 "relationships": {"author": {"destination": "Author", "inverse": "books",
                                              "optional": true}}}
        """
    }

    /// Version 2 adds `Anthology`, which sorts first: Author and Book are
    /// renumbered.
    static func addEntity() throws -> SchemaChain {
        try chain(
            authorsAndBooks,
            authorsAndBooks + """
                , "Anthology": {"attributes": {"name": {"type": "string"},
                                               "volumes": {"type": "integer16", "default": 1}}}
                """)
    }

    /// Version 1 has `Agency` ↔ `Author.agency`; version 2 drops both, so
    /// Author and Book are renumbered.
    static func removeEntity() throws -> SchemaChain {
        try chain(
            """
            "Agency": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"authors": {"destination": "Author",
                           "inverse": "agency", "toMany": true, "optional": true}}},
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {
                           "agency": {"destination": "Agency", "inverse": "authors",
                                      "optional": true},
                           "books": {"destination": "Book", "inverse": "author",
                                     "toMany": true, "optional": true}}},
            "Book": {"attributes": {"title": {"type": "string", "optional": true},
                                    "year": {"type": "integer32", "optional": true}},
                     "relationships": {"author": {"destination": "Author", "inverse": "books",
                                                  "optional": true}}}
            """, authorsAndBooks)
    }

    /// Author → Writer and Book → Volume (numbers swap: Volume 1, Writer 2),
    /// with a many-to-many `books` ↔ `authors` and a to-one `editor` ↔
    /// to-many `edited`.
    static func renameEntity() throws -> SchemaChain {
        func version(author: String, book: String, renamed: Bool) -> String {
            """
            "\(author)": {\(renamed ? "\"renamedFrom\": \"Author\"," : "")
                "attributes": {"name": {"type": "string", "optional": true}},
                "relationships": {
                    "books": {"destination": "\(book)", "inverse": "authors",
                              "toMany": true, "optional": true},
                    "edited": {"destination": "\(book)", "inverse": "editor",
                               "toMany": true, "optional": true}}},
            "\(book)": {\(renamed ? "\"renamedFrom\": \"Book\"," : "")
                "attributes": {"title": {"type": "string", "optional": true}},
                "relationships": {
                    "authors": {"destination": "\(author)", "inverse": "books",
                                "toMany": true, "optional": true},
                    "editor": {"destination": "\(author)", "inverse": "edited",
                               "optional": true}}}
            """
        }
        return try chain(
            version(author: "Author", book: "Book", renamed: false),
            version(author: "Writer", book: "Volume", renamed: true))
    }

    // MARK: - Attributes

    /// Version 2 adds to Book an optional attribute, and required ones with
    /// literal defaults of several types (plus an optional one with a
    /// default).
    static func addAttributes() throws -> SchemaChain {
        try chain(
            authorsAndBooks,
            library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true},
                    "year": {"type": "integer32", "optional": true},
                    "isbn": {"type": "string", "optional": true},
                    "pages": {"type": "integer32", "default": 100},
                    "inPrint": {"type": "boolean", "default": true},
                    "published": {"type": "date", "default": "2001-01-02T00:00:00Z"},
                    "rating": {"type": "double", "optional": true, "default": 2.5},
                    "cover": {"type": "binary", "default": "AQI="}
                    """))
    }

    /// Version 2 adds required attributes whose defaults are computed:
    /// `"now"` and `"uuid"`.
    static func addComputedDefaults() throws -> SchemaChain {
        try chain(
            authorsAndBooks,
            library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true},
                    "year": {"type": "integer32", "optional": true},
                    "checked": {"type": "date", "default": "now"},
                    "token": {"type": "uuid", "default": "uuid"}
                    """))
    }

    /// Version 1 books have an `isbn`; version 2 drops it.
    static func removeAttribute() throws -> SchemaChain {
        try chain(
            library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true},
                    "isbn": {"type": "string", "optional": true},
                    "year": {"type": "integer32", "optional": true}
                    """),
            authorsAndBooks)
    }

    /// Version 2 renames `title` → `name`, `year` → `published`, and the
    /// pair `author` ↔ `books` → `writer` ↔ `works`.
    static func renameProperties() throws -> SchemaChain {
        try chain(
            authorsAndBooks,
            """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"works": {"destination": "Book", "inverse": "writer",
                           "toMany": true, "optional": true, "renamedFrom": "books"}}},
            "Book": {"attributes": {
                         "name": {"type": "string", "optional": true, "renamedFrom": "title"},
                         "published": {"type": "integer32", "optional": true,
                                       "renamedFrom": "year"}},
                     "relationships": {"writer": {"destination": "Author", "inverse": "works",
                         "optional": true, "renamedFrom": "author"}}}
            """)
    }

    /// Renames twice: Author → Writer → Person, `books` → `works` →
    /// `oeuvre`, `title` → `name` → `heading`, `author` → `writer` →
    /// `creator`.
    static func renameTwice() throws -> SchemaChain {
        func version(
            _ author: String, _ books: String, _ title: String, _ writer: String,
            from old: [String]?
        ) -> String {
            func renamed(_ index: Int) -> String {
                old.map { #", "renamedFrom": "\#($0[index])""# } ?? ""
            }
            return """
                "\(author)": {"attributes": {"name": {"type": "string", "optional": true}}
                    \(renamed(0)),
                    "relationships": {"\(books)": {"destination": "Book", "inverse": "\(writer)",
                        "toMany": true, "optional": true\(renamed(1))}}},
                "Book": {"attributes": {
                             "\(title)": {"type": "string", "optional": true\(renamed(2))},
                             "year": {"type": "integer32", "optional": true}},
                         "relationships": {"\(writer)": {"destination": "\(author)",
                             "inverse": "\(books)", "optional": true\(renamed(3))}}}
                """
        }
        return try chain(
            version("Author", "books", "title", "author", from: nil),
            version(
                "Writer", "works", "name", "writer", from: ["Author", "books", "title", "author"]),
            version(
                "Person", "oeuvre", "heading", "creator",
                from: ["Writer", "works", "name", "writer"]))
    }

    /// Version 2 makes four optional attributes required, each with a
    /// default.
    static func makeRequired() throws -> SchemaChain {
        try chain(
            library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true},
                    "year": {"type": "integer32", "optional": true},
                    "inPrint": {"type": "boolean", "optional": true},
                    "price": {"type": "double", "optional": true}
                    """),
            library(
                bookAttributes: """
                    "title": {"type": "string", "default": "Untitled"},
                    "year": {"type": "integer32", "default": 0},
                    "inPrint": {"type": "boolean", "default": false},
                    "price": {"type": "double", "default": 9.75}
                    """))
    }

    /// `year` integer16 → integer32 → integer64 and `price` float →
    /// double (in version 2).
    static func widenNumbers() throws -> SchemaChain {
        func version(_ year: String, _ price: String) -> String {
            library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true},
                    "year": {"type": "\(year)", "optional": true},
                    "price": {"type": "\(price)", "optional": true}
                    """)
        }
        return try chain(
            version("integer16", "float"), version("integer32", "double"),
            version("integer64", "double"))
    }
}

// MARK: - Data

extension MigrationStepModels {
    /// Three authors (one without a name or books) and five books, one with
    /// nothing set and one with an empty title and the smallest integer32.
    static func fillAuthorsAndBooks(_ context: Context) throws {
        let austen = try context.make("Author", ["name": .string("Austen")])
        let bronte = try context.make("Author", ["name": .string("Brontë")])
        try context.make("Author")
        let books: [(String?, Int64?, ManagedObject?)] = [
            ("Emma", 1815, austen), ("Persuasion", 1817, austen), ("Jane Eyre", 1847, bronte),
            (nil, nil, nil), ("", -2_147_483_648, nil),
        ]
        for (title, year, author) in books {
            let book = try context.make(
                "Book", ["title": title.map { .string($0) }, "year": year.map { .integer($0) }])
            try book.setObject(author, forKey: "author")
        }
    }

    /// The authors of ``fillAuthorsAndBooks(_:)``.
    static let authorRows = [
        #"Author/p1 name="Austen" books=[Book/p1, Book/p2]"#,
        #"Author/p2 name="Brontë" books=[Book/p3]"#,
        "Author/p3 name=nil books=[]",
    ]

    /// The books of ``fillAuthorsAndBooks(_:)``.
    static let bookRows = [
        #"Book/p1 title="Emma" year=1815 author=Author/p1"#,
        #"Book/p2 title="Persuasion" year=1817 author=Author/p1"#,
        #"Book/p3 title="Jane Eyre" year=1847 author=Author/p2"#,
        "Book/p4 title=nil year=nil author=nil",
        #"Book/p5 title="" year=-2147483648 author=nil"#,
    ]
}
