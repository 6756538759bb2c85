import Foundation
import Testing

@testable import Strata
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 4: `unarchive`, `archive`, `json` and `jsonValue` carry
/// a transformable attribute's keyed archive into JSON bytes and back.
struct MappingArchiveFunctionTests {
    static let emails = ["ada@example.org", "grace@example.org", "ünïcode@example.org"]

    /// Version 1 keeps the list as a transformable (a keyed archive),
    /// version 2 as JSON bytes, version 3 as a transformable again.
    static func person(_ version: Int) throws -> Model {
        let list =
            version == 2
            ? #""emailsData": { "type": "binary", "optional": true }"#
            : #""emails": { "type": "transformable", "optional": true }"#
        return try MappingTestSupport.model(
            "People", version,
            #"{"Person": {"attributes": {"name": {"type": "string"}, \#(list)}}}"#)
    }

    /// `emails` as Foundation's `NSKeyedArchiver` writes an `NSArray` of
    /// strings, as Core Data stores a transformable `[String]`.
    static func archivedEmails() throws -> Data {
        try NSKeyedArchiver.archivedData(
            withRootObject: NSArray(array: emails.map { NSString(string: $0) }),
            requiringSecureCoding: false)
    }

    @Test func testAKeyedArchivedListBecomesJSONBytesAndBack() throws {
        let (v1, v2, v3) = (try Self.person(1), try Self.person(2), try Self.person(3))
        let archived = try Self.archivedEmails()
        let first = try MappingFixture(v1) { context in
            let person = try context.insert("Person")
            try person.set("name", "Ada")
            try person.setValue(.data(archived), forKey: "emails")
            let other = try context.insert("Person")
            try other.set("name", "No list")
        }
        let toJSON = try MappingTestSupport.mapping(
            #"{"format": "strata-mapping/1", "from": 1, "to": 2, "entities": {"Person": {"attributes": {"emailsData": "json(unarchive(emails))"}}}}"#,
            from: v1, to: v2)
        let atTwo = try first.migrate(to: v2, with: toJSON).all("Person")
        guard case .data(let json)? = try atTwo[0].value(forKey: "emailsData") else {
            Issue.record("no JSON bytes in emailsData")
            return
        }
        #expect(try JSONSerialization.jsonObject(with: json) as? [String] == Self.emails)
        #expect(try atTwo[1].value(forKey: "emailsData") == nil)

        let second = try MappingFixture(v2) { context in
            let person = try context.insert("Person")
            try person.set("name", "Ada")
            try person.setValue(.data(json), forKey: "emailsData")
        }
        let back = try MappingTestSupport.mapping(
            #"{"format": "strata-mapping/1", "from": 2, "to": 3, "entities": {"Person": {"attributes": {"emails": "archive(jsonValue(emailsData))"}}}}"#,
            from: v2, to: v3)
        let atThree = try second.migrate(to: v3, with: back).all("Person")
        guard case .data(let rearchived)? = try atThree[0].value(forKey: "emails") else {
            Issue.record("no archive in emails")
            return
        }
        // Read back the way the package reads archives, and by Foundation.
        let root = try #require(try KeyedArchive(data: rearchived).topObject())
        #expect(root.isKind(of: "NSArray"))
        #expect(try root.elements().map { try $0.stringValue() } == Self.emails)
        #expect(try RecordValue(archive: rearchived) == RecordValue(archive: archived))
    }

    private func evaluate(_ text: String, _ values: [String: MappingValue]) throws -> MappingValue {
        let model = try Self.person(1)
        let node = try ExpressionParser.parse(text)
        var checker = ExpressionChecker(model: model, entity: "Person")
        _ = try checker.type(of: node)
        return try ExpressionEvaluator().evaluate(node, values)
    }

    @Test func testUnarchiveReadsDictionariesDatesNumbersAndListFunctionsUseIt() throws {
        let date = NSDate(timeIntervalSinceReferenceDate: 86_400)
        let root = NSDictionary(
            objects: [NSNumber(value: 3), NSString(string: "x"), date, NSNumber(value: 0.5)],
            forKeys: ["count", "name", "when", "ratio"].map { NSString(string: $0) })
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: root, requiringSecureCoding: false)
        #expect(
            try RecordValue(archive: data)
                == [
                    "count": .integer(3), "name": .text("x"),
                    "when": .date(Date(timeIntervalSinceReferenceDate: 86_400)),
                    "ratio": .real(0.5),
                ])
        let list = try Self.archivedEmails()
        #expect(try evaluate("count(unarchive(emails))", ["emails": .data(list)]) == .integer(3))
        #expect(
            try evaluate("first(unarchive(emails))", ["emails": .data(list)])
                == .string("ada@example.org"))
        #expect(
            try evaluate(#"json(unarchive(emails))"#, ["emails": .data(list)])
                == .data(
                    Data(#"["ada@example.org","grace@example.org","ünïcode@example.org"]"#.utf8)))
        #expect(try evaluate("unarchive(emails)", [:]) == .null)
    }

    @Test func testAClassUnarchiveCannotReadIsAnErrorNamingIt() throws {
        let archive = KeyedArchiveTests.archive([
            ["$class": .uid(2), "UIRed": .real(1)],
            KeyedArchiveTests.classEntry("UIColor"),
        ])
        let error = try #require(throws: ExpressionError.self) {
            try evaluate("json(unarchive(emails))", ["emails": .data(archive)])
        }
        #expect(error.column == 6)
        #expect(
            error.message
                == "unarchive: the archive holds an object of class UIColor (object 1), which "
                + "unarchive cannot read; it reads " + RecordValue.readableClasses)
        let notAnArchive = try #require(throws: ExpressionError.self) {
            try evaluate("unarchive(emails)", ["emails": .data(Data("plain".utf8))])
        }
        #expect(notAnArchive.message.hasPrefix("unarchive: not a keyed archive"))
    }

    @Test func testJSONValueReadsAScalarAloneAndKeepsARepeatedKeysLastValue() throws {
        #expect(try RecordValue(json: Data("5".utf8)) == .integer(5))
        #expect(try RecordValue(json: Data(#""x""#.utf8)) == .text("x"))
        #expect(
            try RecordValue(json: Data(#"{"a": 1, "a": 2.0}"#.utf8))
                == ["a": .real(2)])
        let error = try #require(throws: ExpressionError.self) {
            try RecordValue(json: Data("{\"a\": }".utf8))
        }
        #expect(error.message == "jsonValue: the bytes are not JSON")
    }

    @Test func testJSONValueIsBoundedAndTyped() throws {
        #expect(
            try RecordValue(json: Data(#"{"a": [1, 2.5, true, null, "x"]}"#.utf8))
                == ["a": [.integer(1), .real(2.5), .boolean(true), .null, .text("x")]])
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let error = try #require(throws: ExpressionError.self) {
            try RecordValue(json: Data(deep.utf8))
        }
        #expect(error.message.contains("deeper than 64 levels"))
        // An array does not fit a plain attribute.
        let attribute = try #require(
            try Self.person(1).entity(named: "Person")?.attributes.first { $0.name == "name" })
        #expect(throws: ExpressionError.self) {
            try MappingValue.structured(["a"]).attributeValue(for: attribute)
        }
        #expect(
            try MappingValue.structured(.text("a")).attributeValue(for: attribute) == .string("a")
        )
    }
}
