@testable import Strata
@testable import StrataSchema

/// The chains of the relationship, inheritance and index step tests:
/// the structure between entities rather than their values.
extension MigrationStepModels {
    // MARK: - Relationships

    /// Author, Book and Tag; `linked` adds `Book.author` ↔ `Author.books`
    /// and the many-to-many `Book.tags` ↔ `Tag.books`.
    static func authorsBooksTags(linked: Bool) -> String {
        let author = """
            "books": {"destination": "Book", "inverse": "author", "toMany": true,
                      "optional": true}
            """
        let book = """
            "author": {"destination": "Author", "inverse": "books", "optional": true},
            "tags": {"destination": "Tag", "inverse": "books", "toMany": true, "optional": true}
            """
        let tag = """
            "books": {"destination": "Book", "inverse": "tags", "toMany": true, "optional": true}
            """
        func relationships(_ members: String) -> String {
            linked ? ", \"relationships\": {\(members)}" : ""
        }
        return """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}}
                       \(relationships(author))},
            "Book": {"attributes": {"title": {"type": "string", "optional": true}}
                     \(relationships(book))},
            "Tag": {"attributes": {"label": {"type": "string", "optional": true}}
                    \(relationships(tag))}
            """
    }

    /// `Book.author` to-one becomes `Book.authors` to-many, while the
    /// inverse `Author.books` stays to-many (ordered when `ordered`).
    static func toOneToToMany(ordered: Bool) throws -> SchemaChain {
        let books = """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"books": {"destination": "Book", "inverse": "%INVERSE%",
                           "toMany": true, "ordered": \(ordered), "optional": true}}},
            """
        return try chain(
            books.replacingOccurrences(of: "%INVERSE%", with: "author") + """
                "Book": {"attributes": {"title": {"type": "string", "optional": true}},
                         "relationships": {"author": {"destination": "Author",
                             "inverse": "books", "optional": true}}}
                """,
            books.replacingOccurrences(of: "%INVERSE%", with: "authors") + """
                "Book": {"attributes": {"title": {"type": "string", "optional": true}},
                         "relationships": {"authors": {"destination": "Author",
                             "inverse": "books", "toMany": true, "optional": true,
                             "renamedFrom": "author"}}}
                """)
    }

    /// One-to-one `Person.passport` ↔ `Passport.holder`; version 2 makes
    /// `Person.passports` to-many, while `holder` stays to-one.
    static func oneToOneToToMany() throws -> SchemaChain {
        let passport = """
            "Passport": {"attributes": {"number": {"type": "string", "optional": true}},
                         "relationships": {"holder": {"destination": "Person",
                             "inverse": "%INVERSE%", "optional": true}}}
            """
        return try chain(
            """
            "Person": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"passport": {"destination": "Passport",
                           "inverse": "holder", "optional": true}}},
            """ + passport.replacingOccurrences(of: "%INVERSE%", with: "passport"),
            """
            "Person": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"passports": {"destination": "Passport",
                           "inverse": "holder", "toMany": true, "optional": true,
                           "renamedFrom": "passport"}}},
            """ + passport.replacingOccurrences(of: "%INVERSE%", with: "passports"))
    }

    /// `Author.books` ↔ `Book.author` and the many-to-many `Shelf.books` ↔
    /// `Book.shelves`, with `Author.books` and `Shelf.books` ordered or not.
    static func shelves(ordered: Bool) -> String {
        """
        "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                   "relationships": {"books": {"destination": "Book", "inverse": "author",
                       "toMany": true, "ordered": \(ordered), "optional": true}}},
        "Book": {"attributes": {"title": {"type": "string", "optional": true}},
                 "relationships": {
                     "author": {"destination": "Author", "inverse": "books", "optional": true},
                     "shelves": {"destination": "Shelf", "inverse": "books", "toMany": true,
                                 "optional": true}}},
        "Shelf": {"attributes": {"name": {"type": "string", "optional": true}},
                  "relationships": {"books": {"destination": "Book", "inverse": "shelves",
                      "toMany": true, "ordered": \(ordered), "optional": true}}}
        """
    }

    // MARK: - Inheritance

    /// `Author.books` ↔ `Book.author`; version 2 gives Book the new parent
    /// Item and moves `note` up to it.
    static func moveUpToNewParent() throws -> SchemaChain {
        let author = """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"books": {"destination": "Book", "inverse": "author",
                           "toMany": true, "optional": true}}},
            """
        let relationships = """
            "relationships": {"author": {"destination": "Author", "inverse": "books",
                                         "optional": true}}
            """
        return try chain(
            author + """
                "Book": {"attributes": {"title": {"type": "string", "optional": true},
                                        "note": {"type": "string", "optional": true}},
                         \(relationships)}
                """,
            author + """
                "Item": {"attributes": {"note": {"type": "string", "optional": true}}},
                "Book": {"parent": "Item",
                         "attributes": {"title": {"type": "string", "optional": true}},
                         \(relationships)}
                """)
    }

    /// Item with subentities Article and Book (`Author.books` ↔
    /// `Book.author`), with `note` declared on Item (`onItem`) or on Book.
    static func items(noteOnItem: Bool) -> String {
        let note = #""note": {"type": "string", "optional": true}"#
        return """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"books": {"destination": "Book", "inverse": "author",
                           "toMany": true, "optional": true}}},
            "Item": {"attributes": {"added": {"type": "integer32", "optional": true}
                                    \(noteOnItem ? ", " + note : "")}},
            "Article": {"parent": "Item",
                        "attributes": {"url": {"type": "string", "optional": true}}},
            "Book": {"parent": "Item",
                     "attributes": {"title": {"type": "string", "optional": true}
                                    \(noteOnItem ? "" : ", " + note)},
                     "relationships": {"author": {"destination": "Author", "inverse": "books",
                                                  "optional": true}}}
            """
    }

    /// Separate roots Book and Magazine, each with rows; version 2 gives both
    /// the new parent Publication, merging their tables.
    static func mergeUnderNewParent() throws -> SchemaChain {
        func version(parent: Bool) -> String {
            let child = parent ? #""parent": "Publication","# : ""
            return """
                \(parent ? #""Publication": {"attributes": {}},"# : "")
                "Book": {\(child) "attributes": {"title": {"type": "string", "optional": true}}},
                "Magazine": {\(child) "attributes": {"issue": {"type": "integer32",
                                                                "optional": true}}}
                """
        }
        return try chain(version(parent: false), version(parent: true))
    }

    /// `Author.books` ↔ `Book.author`; version 2 adds Editor, a subentity of
    /// the to-one's destination Author.
    static func addSubentityOfDestination() throws -> SchemaChain {
        try chain(
            authorsAndBooks,
            authorsAndBooks + """
                , "Editor": {"parent": "Author",
                             "attributes": {"desk": {"type": "string", "optional": true}}}
                """)
    }

    // MARK: - Indexes

    /// `Author.books` ↔ `Book.author`, books with a title and an ISBN;
    /// optionally an indexed title, a fetch index on ISBN and title, and
    /// unique ISBNs.
    static func indexedBooks(indexed: Bool = false, unique: Bool = false) -> String {
        let extras =
            (unique ? #""uniquenessConstraints": [["isbn"]],"# : "")
            + (indexed
                ? #""indexes": [{"name": "byISBN", "elements": [{"property": "isbn"},"#
                    + #" {"property": "title", "order": "descending"}]}],"#
                : "")
        return """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"books": {"destination": "Book", "inverse": "author",
                           "toMany": true, "optional": true}}},
            "Book": {\(extras)
                     "attributes": {"title": {"type": "string", "optional": true,
                                              "indexed": \(indexed)},
                                    "isbn": {"type": "string", "optional": true}},
                     "relationships": {"author": {"destination": "Author", "inverse": "books",
                                                  "optional": true}}}
            """
    }
}
