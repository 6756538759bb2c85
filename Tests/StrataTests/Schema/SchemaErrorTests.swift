import Testing

@testable import Strata
@testable import StrataSchema

struct SchemaErrorTests {
    @Test func testDescriptionListsOneIssuePerLine() {
        let error = SchemaError(issues: [
            SchemaIssue(
                file: "Diary/1.json", path: "$.version", line: 4, column: 3, message: "one"),
            SchemaIssue(file: "Diary", path: "$", message: "two"),
        ])
        #expect(error.description == "Diary/1.json:4:3: $.version: one\nDiary: $: two")
    }
}
