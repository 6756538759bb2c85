// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

// The examples of the Predicate docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum PredicateDocExamples {
    /// From Sources/Strata/Predicate/PredicateSubject.swift.
    static func predicateSubject(entry: ManagedObject, predicate: Strata.Predicate) throws {
        let matches = try predicate.evaluate(with: entry)
        _ = matches
    }

    /// From Sources/Strata/Predicate/PredicateArgument.swift.
    static func predicateArgument() throws {
        let p = try Predicate("%K > %d", arguments: [.keyPath("age"), .value(.integer(3))])
        _ = p
    }

    /// From Sources/Strata/Predicate/PredicateArgumentConvertible.swift.
    static func predicateArgumentConvertible() throws {
        let recent = try Predicate("title == %@ AND wordCount > %d", "Home", 3)
        _ = recent
    }

    /// From Sources/Strata/Predicate/PredicateArgumentConvertible.swift.
    static func predicateArgumentConvertible2() throws {
        let search = try Predicate("body CONTAINS[cd] %@ AND wordCount > %d", "paris", 3)
        _ = search
    }

    /// From Sources/Strata/Predicate/PredicateSQLCompiler.swift.
    static func predicateSQLCompiler(connection: Connection, predicate: Strata.Predicate, mapping: StoreMapping) throws {
        var compiler = try PredicateSQLCompiler(mapping: mapping, entity: "DiaryEntry")
        let condition = try compiler.condition(predicate)
        let sql = "SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE \(condition)"
        let rows = try connection.prepare(sql)
        try rows.bind(compiler.arguments)
    }

    /// From Sources/Strata/Predicate/PredicateRegex.swift.
    static func predicateRegex() throws {
        let matched = try PredicateRegex.matches("FINN", pattern: "f.nn", options: .caseInsensitive)  // true
        _ = matched
    }

    /// From Sources/Strata/Predicate/PredicateLike.swift.
    static func predicateLike() throws {
        let liked = PredicateLike.matches("Countess", pattern: "c*ss", options: .caseInsensitive)  // true
        _ = liked
    }

    /// From Sources/Strata/Predicate/PredicateStringFolding.swift.
    static func predicateStringFolding() throws {
        let folded = PredicateStringFolding.fold("Alle Vögel", [.caseInsensitive, .diacriticInsensitive])
        // "alle vogel"
        _ = folded
    }

    /// From Sources/Strata/Predicate/Predicate.swift.
    static func predicate() throws {
        let search = try Predicate("body CONTAINS[cd] %@", "all")
        _ = search
    }

    /// From Sources/Strata/Predicate/PredicateError.swift.
    static func predicateError(model: Model, predicate: Strata.Predicate) throws {
        do {
            try predicate.check(entity: "Person", model: model)
        } catch PredicateError.typeMismatch {
            print("the values do not fit the keys")
        }
    }

    /// From Sources/Strata/Predicate/Predicate+TextArguments.swift.
    static func predicateTextArguments(diary: Model) throws {
        let p = try Predicate(
            "creationTime > %@ AND body CONTAINS[cd] %@", textArguments: ["2024-05-01", "all"],
            entity: "DiaryEntry", model: diary)
        _ = p
    }

    /// From Sources/Strata/Predicate/Predicate+Checking.swift.
    static func predicateChecking(diary: Model) throws {
        let text = "ANY media.type = 'image'"
        try Predicate(text).check(entity: "DiaryEntry", model: diary, format: text)
    }

    /// From Sources/Strata/Predicate/Predicate+Parsing.swift.
    static func predicateParsing() throws {
        let recent = try Predicate(
            "ANY media.type = %@ AND creationTime > $SINCE",
            arguments: [.value(.string("image"))],
            variables: ["SINCE": .date(740_000_000)])
        _ = recent
    }
}
