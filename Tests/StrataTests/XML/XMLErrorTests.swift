import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct XMLErrorTests {
    @Test func testDescriptionNamesFileLineAndColumn() {
        let error = XMLError(file: "a/contents", line: 3, column: 14, message: "boom")
        #expect(error.description == "a/contents:3:14: boom")
    }

    @Test func testDescriptionLeavesOutUnknownParts() {
        #expect(XMLError(file: "f", line: 2, message: "m").description == "f:2: m")
        #expect(XMLError(file: "f", message: "m").description == "f: m")
        // A column without a line would be meaningless, so it is not shown.
        #expect(XMLError(file: "f", column: 5, message: "m").description == "f: m")
    }
}
