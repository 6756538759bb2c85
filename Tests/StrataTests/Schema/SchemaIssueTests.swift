import Testing

@testable import Strata
@testable import StrataSchema

struct SchemaIssueTests {
    @Test func testDescriptionOmitsAnUnknownPosition() {
        let located = SchemaIssue(
            file: "Diary/2.json", path: "$.model", line: 3, column: 12, message: "m")
        #expect(located.description == "Diary/2.json:3:12: $.model: m")
        let unlocated = SchemaIssue(file: "Diary/5.json", path: "$", message: "gap")
        #expect(unlocated.description == "Diary/5.json: $: gap")
    }

    @Test func testPathsQuoteNamesThatAreNotIdentifiers() {
        let entities = JSONPath.appending(JSONPath.root, key: "entities")
        #expect(JSONPath.appending(entities, key: "Diary_Entry2") == "$.entities.Diary_Entry2")
        #expect(JSONPath.appending(entities, key: #"a "b".c"#) == #"$.entities["a \"b\".c"]"#)
        #expect(JSONPath.appending(entities, key: "2x") == #"$.entities["2x"]"#)
        #expect(JSONPath.appending(entities, index: 3) == "$.entities[3]")
    }

    @Test func testAncestorsAndContainmentFollowPathComponents() {
        #expect(
            JSONPath.ancestors(of: #"$.a["x.y[0]"].b[2]"#) == [
                #"$.a["x.y[0]"].b"#, #"$.a["x.y[0]"]"#, "$.a", "$",
            ])
        #expect(JSONPath.path("$.a.bc", isWithin: "$.a"))
        #expect(JSONPath.path("$.a[0]", isWithin: "$.a"))
        #expect(!JSONPath.path("$.ab", isWithin: "$.a"))
    }

    @Test func testIssuesSortByPositionWithUnlocatedLast() {
        let issues = [
            SchemaIssue(file: "f", path: "$", message: "gap"),
            SchemaIssue(file: "f", path: "$.b", line: 2, column: 1, message: "b"),
            SchemaIssue(file: "f", path: "$.a", line: 1, column: 9, message: "a"),
        ]
        #expect(SchemaIssue.inDocumentOrder(issues).map(\.message) == ["a", "b", "gap"])
    }
}
