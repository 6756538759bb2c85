// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore
@testable import StrataQuery
@testable import StrataContext

// The examples of the FetchPredicate docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum PredicateDocExamples {
    /// From Sources/StrataQuery/Predicate/PredicateSubject.swift.
    static func predicateSubject(entry: ManagedObject, predicate: Strata.FetchPredicate) throws {
        let matches = try predicate.evaluate(with: entry)
        _ = matches
    }

    /// From Sources/StrataQuery/Syntax/ExpressionNode.swift.
    static func expressionNode() throws {
        let predicate = try FetchPredicate("pages > 3")
        if case .comparison(let comparison) = predicate {
            print(comparison.left)  // pages
            print(comparison.right == .value(.integer(3), column: 9))  // true
        }
    }

    /// From Sources/StrataQuery/Predicate/PredicateArgument.swift.
    static func predicateArgument() throws {
        let p = try FetchPredicate("%K > %d", arguments: [.keyPath("age"), .value(.integer(3))])
        _ = p
    }

    /// From Sources/StrataQuery/Predicate/PredicateArgumentConvertible.swift.
    static func predicateArgumentConvertible() throws {
        let recent = try FetchPredicate("title == %@ AND wordCount > %d", "Home", 3)
        _ = recent
    }

    /// From Sources/StrataQuery/Predicate/PredicateArgumentConvertible.swift.
    static func predicateArgumentConvertible2() throws {
        let search = try FetchPredicate("body CONTAINS[cd] %@ AND wordCount > %d", "paris", 3)
        _ = search
    }

    /// From Sources/StrataQuery/Predicate/PredicateSQLCompiler.swift.
    static func predicateSQLCompiler(connection: Connection, predicate: Strata.FetchPredicate, mapping: StoreMapping) throws {
        var compiler = try PredicateSQLCompiler(mapping: mapping, entity: "DiaryEntry")
        let condition = try compiler.condition(predicate)
        let sql = "SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE \(condition)"
        let rows = try connection.prepare(sql)
        try rows.bind(compiler.arguments)
    }

    /// From Sources/StrataQuery/Predicate/PredicateRegex.swift.
    static func predicateRegex() throws {
        let matched = try PredicateRegex.matches("FINN", pattern: "f.nn", options: .caseInsensitive)  // true
        _ = matched
    }

    /// From Sources/StrataQuery/Predicate/PredicateLike.swift.
    static func predicateLike() throws {
        let liked = PredicateLike.matches("Countess", pattern: "c*ss", options: .caseInsensitive)  // true
        _ = liked
    }

    /// From Sources/StrataQuery/Predicate/PredicateStringFolding.swift.
    static func predicateStringFolding() throws {
        let folded = PredicateStringFolding.fold("Alle Vögel", [.caseInsensitive, .diacriticInsensitive])
        // "alle vogel"
        _ = folded
    }

    /// From Sources/StrataQuery/Predicate/FetchPredicate.swift.
    static func predicate() throws {
        let search = try FetchPredicate("body CONTAINS[cd] %@", "all")
        _ = search
    }

    /// From Sources/StrataQuery/Predicate/FetchPredicateError.swift.
    static func predicateError(model: Model, predicate: Strata.FetchPredicate) throws {
        do {
            try predicate.check(entity: "Person", model: model)
        } catch FetchPredicateError.typeMismatch {
            print("the values do not fit the keys")
        }
    }

    /// From Sources/StrataQuery/Predicate/FetchPredicate+TextArguments.swift.
    static func predicateTextArguments(diary: Model) throws {
        let p = try FetchPredicate(
            "creationTime > %@ AND body CONTAINS[cd] %@", textArguments: ["2024-05-01", "all"],
            entity: "DiaryEntry", model: diary)
        _ = p
    }

    /// From Sources/StrataQuery/Predicate/FetchPredicate+Checking.swift.
    static func predicateChecking(diary: Model) throws {
        let text = "ANY media.type = 'image'"
        try FetchPredicate(text).check(entity: "DiaryEntry", model: diary, format: text)
    }

    /// From Sources/StrataQuery/Predicate/FetchPredicate+Parsing.swift.
    static func predicateParsing() throws {
        let recent = try FetchPredicate(
            "ANY media.type = %@ AND creationTime > $SINCE",
            arguments: [.value(.string("image"))],
            variables: ["SINCE": .date(740_000_000)])
        _ = recent
    }
}
