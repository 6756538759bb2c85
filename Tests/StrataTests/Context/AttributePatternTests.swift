import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore

/// An attribute's `pattern` during a save: a text that cannot be checked
/// within the ``RegexLimits`` stops the save naming the object and the
/// property, instead of passing or failing as if it did not match.
struct AttributePatternTests {
    private func fixture() throws -> ContextFixture {
        try ContextFixture(
            model: MappingTestSupport.model(
                "Codes", 1,
                #"{ "Code": { "attributes": { "value": { "type": "string", "pattern": "(a+)+$" } } } }"#
            ))
    }

    @Test func testPatternThatHitsTheLimitStopsTheSave() throws {
        let fixture = try fixture()
        let good = try fixture.context.insert("Code")
        try good.set("value", "aaa")
        let bad = try fixture.context.insert("Code")
        try bad.set("value", catastrophicText)
        let error = try #require(
            throws: ValidationError.self,
            performing: {
                try RegexLimits.$current.withValue(tightRegexLimits) {
                    try fixture.context.save()
                }
            })
        #expect(error.failures.count == 1)
        #expect(error.failures.first?.object == bad.objectID)
        #expect(error.failures.first?.property == "value")
        #expect(
            error.failures.first?.message.hasPrefix(
                "could not be checked: regular expression \"(a+)+$\": the match hit its time limit"
            ) == true)
    }

    @Test func testPatternMatchesTheWholeText() throws {
        let fixture = try fixture()
        let code = try fixture.context.insert("Code")
        try code.set("value", "aab")
        #expect(throws: ValidationError.self) { try fixture.context.save() }
        try code.set("value", "aa")
        try fixture.context.save()
    }

    @Test func testInvalidPatternNamesItsColumn() throws {
        let model = try MappingTestSupport.model(
            "Codes", 1,
            #"{ "Code": { "attributes": { "value": { "type": "string", "pattern": "ab(c" } } } }"#)
        let error = try #require(throws: ContextError.self) {
            _ = try ContextFixture(model: model)
        }
        #expect("\(error)".contains("regular expression \"ab(c\" is not valid at column 4"))
    }
}
