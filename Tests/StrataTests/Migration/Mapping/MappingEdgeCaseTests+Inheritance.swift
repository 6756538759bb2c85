import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration

// MARK: - Subentities

extension MappingEdgeCaseTests {
    static let media1 = #"""
        {
          "Item": {
            "attributes": {
              "title": { "type": "string" },
              "note": { "type": "string", "optional": true }
            },
            "relationships": {
              "shelf": { "destination": "Shelf", "inverse": "items", "optional": true }
            }
          },
          "Book": { "parent": "Item",
                    "attributes": { "pages": { "type": "string", "optional": true } } },
          "Film": { "parent": "Item",
                    "attributes": { "minutes": { "type": "string", "optional": true } } },
          "Shelf": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "items": { "destination": "Item", "inverse": "shelf", "toMany": true,
                         "optional": true }
            }
          }
        }
        """#
    static let media2 = #"""
        {
          "Entry": {
            "attributes": { "text": { "type": "string" } },
            "relationships": {
              "item": { "destination": "Item", "inverse": "entries", "optional": true }
            }
          },
          "Item": {
            "attributes": {
              "title": { "type": "string" },
              "label": { "type": "string" },
              "note": { "type": "string", "optional": true }
            },
            "relationships": {
              "shelf": { "destination": "Shelf", "inverse": "items", "optional": true },
              "entries": { "destination": "Entry", "inverse": "item", "toMany": true,
                           "optional": true }
            }
          },
          "Book": { "parent": "Item",
                    "attributes": { "pages": { "type": "string", "optional": true } } },
          "Film": { "parent": "Item",
                    "attributes": { "minutes": { "type": "string", "optional": true },
                                    "length": { "type": "integer32", "optional": true } } },
          "Shelf": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "items": { "destination": "Item", "inverse": "shelf", "toMany": true,
                         "optional": true }
            }
          }
        }
        """#

    /// Version 2 adds `Entry` before `Item` in name order, so every entity
    /// number of the tree moves. The parent's expression reaches the rows
    /// of both subentities; the subentity's `where` drops one film; a rule
    /// whose source is the parent creates one entry per object of the tree,
    /// the dropped film's entry linking nowhere.
    @Test func testRulesOnATreeReachSubentityRows() throws {
        let chain = try MappingEdgeCaseChain(
            "Media", v1: Self.media1, v2: Self.media2,
            mapping: #"""
                "entities": {
                  "Item": { "attributes": { "label": "upper(title)" } },
                  "Film": { "where": "minutes != nil",
                            "attributes": { "length": "round(number(minutes))" } },
                  "Entry": { "source": "Item",
                             "attributes": { "text": "concatenate(title, ': ', note)" },
                             "relationships": { "item": { "from": "self" } } }
                }
                """#)
        try chain.makeStore { context in
            let shelf = try context.insert("Shelf")
            try shelf.set("name", "Den")
            let rows: [(String, String, String?, String?)] = [
                ("Item", "Plain", "n1", nil), ("Book", "Emma", nil, "300"),
                ("Film", "Jaws", "n3", "124.4"), ("Film", "Lost", nil, nil),
                ("Book", "Dune", "n5", nil),
            ]
            for (entity, title, note, extra) in rows {
                let item = try context.insert(entity)
                try item.set("title", title)
                try item.set("note", note)
                if entity == "Book" { try item.set("pages", extra) }
                if entity == "Film" { try item.set("minutes", extra) }
                try item.setObject(shelf, forKey: "shelf")
            }
        }

        try chain.migrate()

        let context = try chain.open()
        let items = try context.all("Item")
        #expect(items.map(\.objectID.primaryKey) == [1, 2, 3, 5])
        #expect(items.map(\.entityName) == ["Item", "Book", "Film", "Book"])
        #expect(try items.map { try $0.string("title") } == ["Plain", "Emma", "Jaws", "Dune"])
        #expect(try items.map { try $0.string("label") } == ["PLAIN", "EMMA", "JAWS", "DUNE"])
        #expect(try items.map { try $0.string("note") } == ["n1", nil, "n3", "n5"])
        #expect(try items[1].string("pages") == "300")
        #expect(try items[2].string("minutes") == "124.4")
        #expect(try items[2].integer("length") == 124)
        #expect(
            try context.all("Shelf").map { try $0.names("items", "title") }
                == [["Plain", "Emma", "Jaws", "Dune"]])
        let entries = try context.all("Entry")
        #expect(
            try entries.map { try $0.string("text") } == [
                "Plain: n1", "Emma: ", "Jaws: n3", "Lost: ", "Dune: n5",
            ])
        #expect(
            try entries.map { try $0.object(forKey: "item")?.string("title") } == [
                "Plain", "Emma", "Jaws", nil, "Dune",
            ])
        #expect(
            try entries.map { try $0.object(forKey: "item")?.entityName } == [
                "Item", "Book", "Film", nil, "Book",
            ])
        #expect(
            try items.map { try $0.names("entries", "text") } == [
                ["Plain: n1"], ["Emma: "], ["Jaws: n3"], ["Dune: n5"],
            ])
    }

    // MARK: - Dropped objects that others point at

    static func authors(bookAuthorOptional: Bool, born: Bool) -> String {
        let born = born ? #", "born": { "type": "integer16", "optional": true }"# : ""
        return #"""
            {
              "Author": {
                "attributes": { "name": { "type": "string" }\#(born) },
                "relationships": {
                  "books": { "destination": "Book", "inverse": "author", "toMany": true,
                             "optional": true },
                  "awards": { "destination": "Award", "inverse": "winners", "toMany": true,
                              "optional": true },
                  "portrait": { "destination": "Portrait", "inverse": "sitter", "optional": true }
                }
              },
              "Book": {
                "attributes": { "title": { "type": "string" } },
                "relationships": {
                  "author": { "destination": "Author", "inverse": "books",
                              "optional": \#(bookAuthorOptional) }
                }
              },
              "Award": {
                "attributes": { "name": { "type": "string" } },
                "relationships": {
                  "winners": { "destination": "Author", "inverse": "awards", "toMany": true,
                               "optional": true }
                }
              },
              "Portrait": {
                "attributes": { "name": { "type": "string" } },
                "relationships": {
                  "sitter": { "destination": "Author", "inverse": "portrait", "optional": true }
                }
              }
            }
            """#
    }

    /// Version 2 only adds `Author.born`; the mapping drops the author
    /// called Ghost.
    static func authorsChain(bookAuthorOptional: Bool) throws -> MappingEdgeCaseChain {
        let v1 = authors(bookAuthorOptional: bookAuthorOptional, born: false)
        let v2 = authors(bookAuthorOptional: bookAuthorOptional, born: true)
        let chain = try MappingEdgeCaseChain(
            "Authors", v1: v1, v2: v2,
            mapping: #""entities": { "Author": { "where": "name != 'Ghost'" } }"#)
        try chain.makeStore { context in
            var authors: [String: ManagedObject] = [:]
            for name in ["Ada", "Ghost", "Cy"] {
                let author = try context.insert("Author")
                try author.set("name", name)
                authors[name] = author
            }
            for (title, author) in [("B1", "Ghost"), ("B2", "Ada"), ("B3", "Ghost"), ("B4", "Cy")] {
                let book = try context.insert("Book")
                try book.set("title", title)
                try book.setObject(authors[author], forKey: "author")
            }
            for (name, winners) in [("Prize", ["Ghost", "Ada"]), ("Medal", ["Ghost"])] {
                let award = try context.insert("Award")
                try award.set("name", name)
                for winner in winners {
                    try award.add(try #require(authors[winner]), to: "winners")
                }
            }
            for name in ["Ghost", "Cy"] {
                let portrait = try context.insert("Portrait")
                try portrait.set("name", "of \(name)")
                try portrait.setObject(authors[name], forKey: "sitter")
            }
        }
        return chain
    }

    /// Every to-one key, one-to-one key and join row that pointed at the
    /// dropped author is cleared; nothing else changes.
    @Test func testDroppedObjectsLeaveNoDanglingReferences() throws {
        let chain = try Self.authorsChain(bookAuthorOptional: true)

        try chain.migrate()

        let context = try chain.open()
        let authors = try context.all("Author")
        #expect(try authors.map { try $0.string("name") } == ["Ada", "Cy"])
        #expect(authors.map(\.objectID.primaryKey) == [1, 3])
        #expect(try authors.map { try $0.names("books", "title") } == [["B2"], ["B4"]])
        #expect(try authors.map { try $0.names("awards") } == [["Prize"], []])
        #expect(
            try authors.map { try $0.object(forKey: "portrait")?.string("name") } == [nil, "of Cy"])
        let books = try context.all("Book")
        #expect(
            try books.map { try $0.object(forKey: "author")?.string("name") } == [
                nil, "Ada", nil, "Cy",
            ])
        #expect(try context.all("Award").map { try $0.names("winners") } == [["Ada"], []])
        #expect(
            try context.all("Portrait").map { try $0.object(forKey: "sitter")?.string("name") }
                == [nil, "Cy"])
        #expect(
            try chain.rows(context, "SELECT COUNT(*) FROM Z_1AWARDS WHERE Z_1WINNERS = 2")
                == [["0"]])
    }

    /// A required to-one that pointed at a dropped object fails the stage's
    /// checks: the copy is thrown away and the store's files stay as they
    /// were, at version 1 with every row.
    @Test func testDroppingARequiredDestinationRollsTheStageBack() throws {
        let chain = try Self.authorsChain(bookAuthorOptional: false)
        let before = try chain.fingerprint()

        do {
            try chain.migrate()
            Issue.record("the stage should have failed its checks")
        } catch let error as MigrationError {
            #expect(error.code == .verificationFailed)
            #expect(
                error.message.contains(
                    "Book.author: 2 objects have no value, but version 2 requires one "
                        + "(Book p1, Book p3)"))
        }

        #expect(try chain.fingerprint() == before)
        #expect(try chain.files() == ["Authors.sqlite", "Schemas"])
        let context = try chain.open(version: 1)
        #expect(
            try context.all("Author").map { try $0.string("name") } == ["Ada", "Ghost", "Cy"])
        #expect(
            try context.all("Book").map { try $0.object(forKey: "author")?.string("name") } == [
                "Ghost", "Ada", "Ghost", "Cy",
            ])
        #expect(
            try context.all("Award").map { Set(try $0.names("winners")) } == [
                ["Ghost", "Ada"], ["Ghost"],
            ])
    }
}
