import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema

/// Bad mapping files: every problem reported with file, JSON path, line,
/// column and, inside expressions, the column in the expression.
struct MigrationMappingLoadingTests {
    static let v1 = #"""
        {
          "Book": {
            "attributes": {
              "title": { "type": "string", "optional": true },
              "year": { "type": "string", "optional": true },
              "isFavorite": { "type": "boolean", "optional": true }
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
          },
          "Shelf": { "attributes": { "label": { "type": "string", "optional": true } } }
        }
        """#
    static let v2 = #"""
        {
          "Book": {
            "attributes": {
              "title": { "type": "string" },
              "year": { "type": "integer16", "optional": true }
            },
            "relationships": {
              "author": { "destination": "Author", "inverse": "books", "optional": true }
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

    private func models() throws -> (Model, Model) {
        (
            try MappingTestSupport.model("Library", 1, Self.v1),
            try MappingTestSupport.model("Library", 2, Self.v2)
        )
    }

    private func issues(_ text: String) throws -> [MappingIssue] {
        let (from, to) = try models()
        return MappingTestSupport.issues(text, from: from, to: to)
    }

    @Test func testAGoodFileLoadsAndCoversTheStepsItResolves() throws {
        let (from, to) = try models()
        let mapping = try MappingTestSupport.mapping(
            #"""
            {
              "format": "strata-mapping/1", "from": 1, "to": 2,
              "entities": {
                "Book": {
                  "where": "title != nil",
                  "attributes": { "title": "trim(title)", "year": "integer(year)" },
                  "relationships": { "author": { "from": "authors", "keep": "first", "sortBy": "name" } }
                }
              },
              "discard": ["Book.isFavorite", "Shelf"]
            }
            """#, from: from, to: to)
        #expect(mapping.entities.map(\.name) == ["Book"])
        #expect(mapping.entity(named: "Book")?.condition == "title != nil")
        #expect(mapping.entity(named: "Book")?.createsObjects == false)
        let plan = MigrationPlan(from: from, to: to)
        let unresolved = plan.steps.filter { $0.label != .inferred && !mapping.covers($0) }
        #expect(unresolved.map(\.names) == [])
        #expect(plan.steps.contains { $0.label != .inferred })
        // Without the file, the same steps are not covered.
        let empty = try MappingTestSupport.mapping(
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {}}"#,
            from: from, to: to)
        #expect(
            Set(plan.steps.filter { $0.label != .inferred && !empty.covers($0) }.map(\.names))
                == ["Book.authors", "Book.isFavorite", "Book.title", "Book.year", "Shelf"])
    }

    @Test func testJSONSyntaxErrorIsLocated() throws {
        let found = try issues("{\n  \"format\": \"strata-mapping/1\",\n  \"from\" 1\n}")
        #expect(
            found.map(\.description) == [
                "test.mapping.json:3:10: $: not JSON: expected ':' after object key, found '1'"
            ])
    }

    @Test func testStructuralErrorsAreAllReportedInDocumentOrder() throws {
        let text = """
            {
              "format": "strata-mapping/1",
              "from": 1,
              "to": 3,
              "entities": {
                "Novel": {},
                "Book": { "colour": 1, "attributes": { "pages": "1" } }
              },
              "discard": ["Book.nothing", 5]
            }
            """
        let found = try issues(text).map(\.description)
        #expect(found.count == 6)
        #expect(found[0].hasPrefix("test.mapping.json:4:9: $.to: expected 2"))
        #expect(
            found[1].hasPrefix(
                "test.mapping.json:6:14: $.entities.Novel: version 2 has no entity 'Novel'"))
        #expect(
            found[2].hasPrefix(
                "test.mapping.json:7:15: $.entities.Book.colour: unknown key 'colour'"))
        #expect(
            found[3].hasPrefix(
                "test.mapping.json:7:44: $.entities.Book.attributes.pages: Book has no attribute 'pages'"
            ))
        #expect(
            found[4].hasPrefix("test.mapping.json:9:15: $.discard[0]: 'Book.nothing' names nothing")
        )
        #expect(found[5].hasPrefix("test.mapping.json:9:31: $.discard[1]: expected"))
    }

    @Test func testWrongFormatStopsAtOnce() throws {
        let found = try issues(#"{"format": "strata-mapping/2", "from": 1}"#)
        #expect(found.map(\.path) == ["$.format"])
        #expect(found.first?.message.contains("expected \"strata-mapping/1\"") == true)
    }

    @Test func testExpressionErrorsGiveTheColumnInsideTheExpression() throws {
        let text = """
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": {
                "attributes": { "title": "trim(titel)", "year": "number(year)" },
                "where": "title BEGINSWITH 3"
              }
            }}
            """
        let found = try issues(text)
        #expect(found.count == 3)
        let title = try #require(found.first { $0.path == "$.entities.Book.attributes.title" })
        #expect(title.line == 3)
        #expect(title.column == 30)
        #expect(title.expressionColumn == 6)
        #expect(title.message.hasPrefix("Book has no property 'titel' in version 1"))
        #expect(
            title.description.hasSuffix(
                "column 6 of the expression: \(title.message)\n  trim(titel)\n       ^"))
        let year = try #require(found.first { $0.path == "$.entities.Book.attributes.year" })
        #expect(year.message.contains("convert with round(…) or integer(…)"))
        let condition = try #require(found.first { $0.path == "$.entities.Book.where" })
        #expect(condition.line == 4)
        #expect(condition.expressionColumn != nil)
    }

    @Test func testRelationshipRuleErrors() throws {
        let text = """
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": { "relationships": { "author": { "from": "authors" } } },
              "Author": { "relationships": {
                "books": { "from": "name" },
                "nothing": { "from": "books" }
              } }
            }}
            """
        let found = try issues(text).map(\.description)
        #expect(
            found.contains {
                $0.contains(
                    "$.entities.Book.relationships.author.from: the path authors reaches several objects but author is to-one"
                )
            })
        #expect(
            found.contains {
                $0.contains(
                    "$.entities.Author.relationships.books.from: column 1 of the expression: Author.name is an attribute"
                )
            })
        #expect(
            found.contains {
                $0.contains(
                    "$.entities.Author.relationships.nothing: Author has no relationship 'nothing'")
            })
        let both = """
            {"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {
              "Book": { "relationships": { "author": { "from": "authors", "keep": "last" } } },
              "Author": { "relationships": { "books": { "from": "books" } } }
            }}
            """
        #expect(
            try issues(both).map(\.message) == [
                "Author.books and its inverse Book.author (line 2, column 32) both have rules; "
                    + "give the links one rule, on either side"
            ])
        // Located at the later of the two rules.
        #expect(try issues(both).map { [$0.line, $0.column] } == [[3, 34]])
    }

    @Test func testNewEntityNeedsASourceAndRequiredValues() throws {
        let from = try MappingTestSupport.model("Library", 1, Self.v1)
        var to = try MappingTestSupport.model("Library", 2, Self.v2)
        var label = Entity(name: "Label")
        var text = Attribute(name: "text", type: .string)
        text.isOptional = false
        label.attributes = [text]
        to.entities.append(label)
        let noSource = MappingTestSupport.issues(
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {"Label": {}}}"#,
            from: from, to: to)
        #expect(
            noSource.first?.message.contains("Label is new in version 2; name the entity") == true)
        let noValue = MappingTestSupport.issues(
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {"Label": {"source": "Shelf"}}}"#,
            from: from, to: to)
        #expect(
            noValue.first?.message.contains(
                "required attribute text without a default has no expression") == true)
    }

    @Test func testDiscoveryFindsTheFileOrNothing() throws {
        let folder = try TemporaryDirectory()
        let (from, to) = try models()
        #expect(try MigrationMapping.load(directory: folder.url, from: from, to: to) == nil)
        try Data(
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {"Book": {"attributes": {"title": "title ?? 'x'"}}}}"#
                .utf8
        )
        .write(to: folder.file("1-2.mapping.json"))
        let mapping = try #require(
            try MigrationMapping.load(directory: folder.url, from: from, to: to))
        #expect(mapping.entity(named: "Book")?.attributes["title"]?.text == "title ?? 'x'")
        #expect(mapping.file.hasSuffix("1-2.mapping.json"))
        #expect(throws: MappingError.self) {
            try MigrationMapping.load(
                file: folder.file("missing.json"), source: from, destination: to)
        }
    }
}
