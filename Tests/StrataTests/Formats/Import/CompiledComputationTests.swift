import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 28, point 7: a mapping whose expressions are simple conversions is
/// compiled into operations on the row's cells (the direct insert path),
/// and gives what the interpreter gives, row for row and error for error.
struct CompiledComputationTests {
    private static let header = ["first", "last", "nick", "score", "born", "note"]

    /// Empty and quoted-empty fields, short rows, numbers the compiled
    /// path reads and numbers it leaves to the interpreter.
    private static let rows: [[String?]] = [
        ["Anna", "Rossi", "ann1", "12.5", "1985-03-02", "hi"],
        ["Luca", "Bianchi", nil, "45 min", "1990-12-31", ""],
        ["Olga", "Petrov", "", " 7", nil, nil],
        ["Zoë", "", "zo", "-0.25", "2001-01-01T12:00:00Z", "said \"hi\""],
        ["Kenji", "Nakamura", "ken", "+99", "2010-01-01"],
        ["Ana María", "García", "am", "1e1", "2004-02-29", "ünïcode"],
        ["Léa", "Dubois", "léa", "100.0000000000000000001", "2012-02-29", "x"],
    ]

    private static func options(_ compute: [String: String]) throws -> ImportOptions {
        var options = ImportOptions(entity: "Contact")
        options.fieldMap = ["first": "firstName", "score": "", "note": "", "born": ""]
        options.errorPolicy = .skip
        options.computed = try compute.sorted { $0.key < $1.key }.map {
            try ComputedAttribute(
                attribute: $0.key, expression: $0.value,
                at: SourcePosition(file: "m.mapping.json", keyPath: "$.compute.\($0.key)"))
        }
        return options
    }

    /// Imports `rows` with `compute` compiled and interpreted; returns both
    /// stores' rows and rejects.
    private static func both(
        _ compute: [String: String], rows: [[String?]] = rows
    ) throws -> (compiled: [[String]], interpreted: [[String]], rejects: [[String]]) {
        var results: [[[String]]] = []
        var rejects: [[String]] = []
        for compiles in [true, false] {
            let fixture = try ImportFixture("Contacts", version: 2)
            let importer = try Importer(
                store: fixture.store, model: fixture.model, options: try options(compute))
            importer.compilesComputations = compiles
            let collected = CollectedRejects()
            importer.rejects = collected
            _ = try importer.run(ArrayFieldReader(header: header, rows: rows))
            results.append(
                try fixture.rows(
                    "SELECT ZFIRSTNAME, ZLASTNAME, ZNICKNAME, ZEMAIL, ZBIRTHDAY, ZSCORE, ZNOTES "
                        + "FROM ZCONTACT ORDER BY Z_PK"))
            rejects.append(collected.messages)
        }
        return (results[0], results[1], rejects)
    }

    @Test func aMappingOfSimpleConversionsImportsTheSameObjectsAsTheInterpretedPath() throws {
        let result = try Self.both([
            "lastName": "last", "nickname": "string(nick)",
            "email": "concatenate(nick, \"@example.org\")", "score": "number(score)",
            "notes": "note + \" (\" + first + \")\"", "birthday": "born",
        ])
        #expect(result.compiled == result.interpreted)
        #expect(result.rejects[0] == result.rejects[1])
        #expect(result.compiled.count > 3)
        #expect(
            result.compiled[0] == [
                "Anna", "Rossi", "ann1", "ann1@example.org", "-499737600", "12.5", "hi (Anna)",
            ])
    }

    @Test func integersConstantsAndConcatenationsOfMissingFieldsAgreeToo() throws {
        let result = try Self.both([
            "lastName": "concatenate(last, nick)", "nickname": "\"fixed\"",
            "score": "integer(score)", "notes": "string(note)", "email": "nick + \"@x\"",
        ])
        #expect(result.compiled == result.interpreted)
        #expect(result.rejects[0] == result.rejects[1])
        let constants = try Self.both(["lastName": "last", "score": "42", "notes": "1 + 2"])
        #expect(constants.compiled == constants.interpreted)
        #expect(constants.rejects[0] == constants.rejects[1])
        #expect(constants.compiled.first?[5] == "42.0")
    }

    @Test func valuesTheAttributeRefusesAreRejectedAlike() throws {
        // Scores above 100 and text that is no number; a required last
        // name left empty.
        let result = try Self.both(
            ["lastName": "nick", "score": "number(last)", "birthday": "first"],
            rows: [
                ["Anna", "Rossi", "", "1", "x", "y"], ["Luca", "250", "lu", "1", "x", "y"],
                ["Olga", "7", "ol", "1", "x", "y"],
            ])
        #expect(result.compiled == result.interpreted)
        #expect(result.rejects[0] == result.rejects[1])
        #expect(result.rejects[0].count == 3)
    }
}

/// The messages of the rejected records, with their places.
private final class CollectedRejects: RejectWriter {
    var messages: [String] = []
    func write(_ rejected: RejectedRecord) throws { messages.append("\(rejected.error)") }
    func finish() throws {}
}
