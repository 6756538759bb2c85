@testable import Strata

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
    static let authorsAndBooks = """
        "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                   "relationships": {"books": {"destination": "Book", "inverse": "author",
                                               "toMany": true, "optional": true}}},
        "Book": {"attributes": {"title": {"type": "string", "optional": true},
                                "year": {"type": "integer32", "optional": true}},
                 "relationships": {"author": {"destination": "Author", "inverse": "books",
                                              "optional": true}}}
        """

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
