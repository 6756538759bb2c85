import Foundation
import Testing

@testable import Strata
@testable import StrataMigration

/// Mappings applied end to end: a store created at the older version, the
/// plan's SQL run on a copy, the mapping applied, every row read back.
struct MappingApplierTests {
    typealias S = MappingTestSupport

    static let library1 = #"""
        {
          "Book": {
            "attributes": {
              "title": { "type": "string", "optional": true },
              "year": { "type": "string", "optional": true }
            },
            "relationships": {
              "authors": { "destination": "Author", "inverse": "books", "toMany": true,
                           "optional": true }
            }
          },
          "Author": {
            "attributes": { "name": { "type": "string", "optional": true } },
            "relationships": {
              "books": { "destination": "Book", "inverse": "authors", "toMany": true,
                         "optional": true }
            }
          }
        }
        """#
    static let library2 = #"""
        {
          "Book": {
            "attributes": {
              "title": { "type": "string" },
              "year": { "type": "integer16", "optional": true }
            },
            "relationships": {
              "author": { "destination": "Author", "inverse": "books", "optional": true,
                          "renamedFrom": "authors" }
            }
          },
          "Author": {
            "attributes": { "name": { "type": "string", "optional": true } },
            "relationships": {
              "books": { "destination": "Book", "inverse": "author", "toMany": true,
                         "optional": true }
            }
          }
        }
        """#

    @Test func testExpressionsWhereAndWhichObjectStays() throws {
        let (v1, v2) = (
            try S.model("Library", 1, Self.library1), try S.model("Library", 2, Self.library2)
        )
        let fixture = try MappingFixture(v1) { context in
            let zoe = try context.insert("Author")
            try zoe.set("name", "Zoe")
            let ada = try context.insert("Author")
            try ada.set("name", "Ada")
            for (title, year) in [("  Emma ", "1815 (first)"), ("", "x"), ("Persuasion", "1817")] {
                let book = try context.insert("Book")
                try book.set("title", title.isEmpty ? nil : title)
                try book.set("year", year)
                try book.add(zoe, to: "authors")
                try book.add(ada, to: "authors")
            }
        }
        let mapping = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": {
                "where": "title != nil",
                "attributes": { "title": "trim(title)", "year": "integer(year)" },
                "relationships": { "author": { "from": "authors", "keep": "first", "sortBy": "name" } }
              }
            }}
            """#, from: v1, to: v2)
        var reported: [(String, Int64)] = []
        let context = try fixture.migrate(to: v2, with: mapping) { reported.append(($0, $1)) }
        let books = try context.all("Book")
        #expect(try books.map { try $0.string("title") } == ["Emma", "Persuasion"])
        #expect(try books.map { try $0.integer("year") } == [1815, 1817])
        #expect(
            try books.map { try $0.object(forKey: "author")?.string("name") } == ["Ada", "Ada"])
        let authors = try context.all("Author")
        #expect(try authors.map { try $0.objects(forKey: "books").count } == [0, 2])
        #expect(reported.map(\.0) == ["Book"])
        #expect(reported.last?.1 == 3)

        // The same rule keeping the last by name.
        let last = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": {
                "attributes": { "title": "title ?? '?'" },
                "relationships": { "author": { "from": "authors", "keep": "last", "sortBy": "name" } }
              }
            }}
            """#, from: v1, to: v2)
        let other = try fixture.migrate(to: v2, with: last)
        #expect(
            try other.all("Book").map { try $0.object(forKey: "author")?.string("name") } == [
                "Zoe", "Zoe", "Zoe",
            ])
        #expect(
            try other.all("Book").map { try $0.string("title") } == ["  Emma ", "?", "Persuasion"])
    }

    static let countries1 = #"""
        { "Country": { "attributes": {
            "name": { "type": "string" },
            "continent": { "type": "string", "optional": true } } } }
        """#
    static let countries2 = #"""
        {
          "Country": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "continent": { "destination": "Continent", "inverse": "countries", "optional": true }
            }
          },
          "Continent": {
            "uniquenessConstraints": [["code"]],
            "attributes": { "code": { "type": "string" }, "name": { "type": "string" } },
            "relationships": {
              "countries": { "destination": "Country", "inverse": "continent", "toMany": true,
                             "optional": true }
            }
          }
        }
        """#
    static let countries3 = #"""
        { "Country": { "attributes": {
            "name": { "type": "string" },
            "continentCode": { "type": "string", "optional": true } } } }
        """#

    @Test func testContinentCodesBecomeObjectsAndBack() throws {
        let v1 = try S.model("World", 1, Self.countries1)
        let v2 = try S.model("World", 2, Self.countries2)
        let v3 = try S.model("World", 3, Self.countries3)
        let fixture = try MappingFixture(v1) { context in
            for (name, code) in [
                ("France", "eu"), ("Japan", "AS"), ("Spain", "EU"), ("Nowhere", nil),
            ] {
                let country = try context.insert("Country")
                try country.set("name", name)
                try country.set("continent", code)
            }
        }
        let forward = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Country": { "relationships": { "continent": {
                "findOrCreateBy": "code", "value": "upper(trim(continent))",
                "attributes": { "name": "if(upper(continent) == 'EU', 'Europe', 'Asia')" } } } }
            }}
            """#, from: v1, to: v2)
        let plan = MigrationPlan(from: v1, to: v2)
        #expect(plan.steps.filter { $0.label != .inferred }.allSatisfy(forward.covers))
        let context = try fixture.migrate(to: v2, with: forward)
        let continents = try context.all("Continent")
        #expect(try continents.map { try $0.string("code") } == ["EU", "AS"])
        #expect(try continents.map { try $0.string("name") } == ["Europe", "Asia"])
        #expect(continents.map { $0.objectID.primaryKey } == [1, 2])
        #expect(
            try context.all("Country").map { try $0.object(forKey: "continent")?.string("code") }
                == ["EU", "AS", "EU", nil])
        #expect(
            try context.store.connection.scalar(
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Continent'")?.int64Value == 2)

        // And back: a store at version 2 loses the objects, keeping codes.
        let second = try MappingFixture(v2) { context in
            let europe = try context.insert("Continent")
            try europe.set("code", "EU")
            try europe.set("name", "Europe")
            for name in ["France", "Chile"] {
                let country = try context.insert("Country")
                try country.set("name", name)
                if name == "France" { try country.setObject(europe, forKey: "continent") }
            }
        }
        let back = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 2, "to": 3,
             "entities": { "Country": { "attributes": { "continentCode": "continent.code" } } },
             "discard": ["Continent"]}
            """#, from: v2, to: v3)
        #expect(
            MigrationPlan(from: v2, to: v3).steps.filter { $0.label != .inferred }
                .allSatisfy(back.covers))
        let reversed = try second.migrate(to: v3, with: back)
        #expect(try reversed.all("Country").map { try $0.string("continentCode") } == ["EU", nil])
    }

    static let notes1 = #"""
        { "Note": { "attributes": {
            "text": { "type": "string", "optional": true },
            "keywords": { "type": "string", "optional": true },
            "author": { "type": "string", "optional": true } } } }
        """#
    static let notes2 = #"""
        {
          "Note": {
            "attributes": { "text": { "type": "string", "optional": true } },
            "relationships": {
              "tags": { "destination": "Tag", "inverse": "notes", "toMany": true, "optional": true },
              "signature": { "destination": "Signature", "inverse": "note", "optional": true }
            }
          },
          "Tag": {
            "attributes": { "name": { "type": "string" } },
            "relationships": {
              "notes": { "destination": "Note", "inverse": "tags", "toMany": true, "optional": true }
            }
          },
          "Signature": {
            "attributes": {
              "firstName": { "type": "string" },
              "lastName": { "type": "string", "optional": true }
            },
            "relationships": {
              "note": { "destination": "Note", "inverse": "signature", "optional": true }
            }
          }
        }
        """#

    @Test func testManyToManyFromSplitAndObjectsCreatedFromAnotherEntity() throws {
        let v1 = try S.model("Notes", 1, Self.notes1)
        let v2 = try S.model("Notes", 2, Self.notes2)
        let fixture = try MappingFixture(v1) { context in
            for (text, keywords, author) in [
                ("one", "work, home", "Ada Lovelace"), ("two", "home,,home ", nil),
                ("three", nil, "Grace"),
            ] {
                let note = try context.insert("Note")
                try note.set("text", text)
                try note.set("keywords", keywords)
                try note.set("author", author)
            }
        }
        let mapping = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Note": { "relationships": {
                "tags": { "findOrCreateBy": "name", "value": "split(keywords, ',')" } } },
              "Signature": {
                "source": "Note", "where": "author != nil",
                "attributes": {
                  "firstName": "first(split(author, ' '))",
                  "lastName": "after(author, ' ')" },
                "relationships": { "note": { "from": "self" } } }
            },
            "discard": ["Note.keywords"]}
            """#, from: v1, to: v2)
        #expect(mapping.entity(named: "Signature")?.createsObjects == true)
        #expect(
            MigrationPlan(from: v1, to: v2).steps.filter { $0.label != .inferred }
                .allSatisfy(mapping.covers))
        let context = try fixture.migrate(to: v2, with: mapping)
        let notes = try context.all("Note")
        #expect(
            try notes.map {
                try $0.objects(forKey: "tags").map { try $0.string("name") ?? "" }.sorted()
            }
                == [["home", "work"], ["home"], []])
        #expect(try context.all("Tag").map { try $0.string("name") } == ["work", "home"])
        let signatures = try context.all("Signature")
        #expect(try signatures.map { try $0.string("firstName") } == ["Ada", "Grace"])
        #expect(try signatures.map { try $0.string("lastName") } == ["Lovelace", nil])
        #expect(
            try signatures.map { try $0.object(forKey: "note")?.string("text") } == [
                "one", "three",
            ])
        #expect(
            try notes.map { try $0.object(forKey: "signature")?.string("firstName") } == [
                "Ada", nil, "Grace",
            ])
    }

    /// Keys that differ only in Unicode form ("café" with é as one scalar,
    /// "cafe\u{301}") are two keys to the store, so find-or-create makes two
    /// objects, as it would for any two distinct keys.
    @Test func testFindOrCreateKeepsKeysThatDifferOnlyInUnicodeForm() throws {
        let v1 = try S.model("Notes", 1, Self.notes1)
        let v2 = try S.model("Notes", 2, Self.notes2)
        let fixture = try MappingFixture(v1) { context in
            for keywords in ["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"] {
                let note = try context.insert("Note")
                try note.set("text", "x")
                try note.set("keywords", keywords)
            }
        }
        let mapping = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Note": { "relationships": {
                "tags": { "findOrCreateBy": "name", "value": "split(keywords, ',')" } } }
            },
            "discard": ["Note.keywords", "Note.author"]}
            """#, from: v1, to: v2)
        let context = try fixture.migrate(to: v2, with: mapping)
        let tags = try context.all("Tag").map { Array(try $0.string("name")?.utf8 ?? "".utf8) }
        #expect(tags == [Array("caf\u{E9}".utf8), Array("cafe\u{301}".utf8)])
        let firstAndLast = try context.all("Note").map {
            try $0.objects(forKey: "tags").map(\.objectID)
        }
        #expect(firstAndLast.first == firstAndLast.last)
        #expect(firstAndLast.first != firstAndLast.dropFirst().first)
    }

    @Test func testAValueThatDoesNotFitNamesTheObjectAndRollsBack() throws {
        let (v1, v2) = (
            try S.model("Library", 1, Self.library1), try S.model("Library", 2, Self.library2)
        )
        let fixture = try MappingFixture(v1) { context in
            let book = try context.insert("Book")
            try book.set("title", "Big")
            try book.set("year", "99999")
        }
        let mapping = try S.mapping(
            #"""
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": { "attributes": { "year": "integer(year)" } } }}
            """#, from: v1, to: v2)
        do {
            _ = try fixture.migrate(to: v2, with: mapping)
            Issue.record("expected a mapping error")
        } catch let error as MappingError {
            #expect(error.issues.first?.path == "$.entities.Book.attributes.year")
            #expect(
                error.issues.first?.message
                    == "99999 does not fit year (integer16) (for Book p1 of version 1)")
        }
    }
}
