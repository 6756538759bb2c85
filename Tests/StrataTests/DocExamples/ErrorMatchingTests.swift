import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats
@testable import StrataMigration
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// Every public error type can be matched in a `catch` the same way: a
/// static member per kind (`catch ContextError.conflict`) for the types
/// with kinds, the type itself (`catch let error as SchemaError`) for the
/// others. Each clause below is the form the documentation shows.
struct ErrorMatchingTests {
    /// The name of the first clause that catches `error`.
    func clause(catching error: any Error) -> String {
        do {
            throw error
        } catch ContextError.conflict {
            return "ContextError.conflict"
        } catch StoreError.notFound {
            return "StoreError.notFound"
        } catch FetchPredicateError.typeMismatch {
            return "FetchPredicateError.typeMismatch"
        } catch MigrationError.downgrade {
            return "MigrationError.downgrade"
        } catch ImportError.invalidValue {
            return "ImportError.invalidValue"
        } catch ExportError.unknownField {
            return "ExportError.unknownField"
        } catch BundleError.checksumMismatch {
            return "BundleError.checksumMismatch"
        } catch ArchiveError.symlink {
            return "ArchiveError.symlink"
        } catch RegexError.timeLimit {
            return "RegexError.timeLimit"
        } catch SQLiteError.constraint {
            return "SQLiteError.constraint"
        } catch let error as ValidationError {
            return "ValidationError \(error.failures.count)"
        } catch let error as SchemaError {
            return "SchemaError \(error.issues.count)"
        } catch let error as MappingError {
            return "MappingError \(error.issues.count)"
        } catch let error as XcodeModelError {
            return "XcodeModelError \(error.issues.count)"
        } catch let error as PredicateSyntaxError {
            return "PredicateSyntaxError \(error.column)"
        } catch let error as JSONSyntaxError {
            return "JSONSyntaxError \(error.line)"
        } catch let error as XMLError {
            return "XMLError \(error.file)"
        } catch let error as PropertyListError {
            return "PropertyListError \(error.message)"
        } catch let error as KeyedArchiveError {
            return "KeyedArchiveError \(error.message)"
        } catch let error as ModelCacheError {
            return "ModelCacheError \(error.message)"
        } catch let error as CompressionError {
            return "CompressionError \(error.code)"
        } catch {
            return "other"
        }
    }

    @Test func eachErrorWithKindsIsCaughtByItsStaticMember() {
        let position = SourcePosition(file: "contacts.csv", line: 3, column: 2)
        let cases: [(any Error, String)] = [
            (ContextError(.conflict, "changed elsewhere"), "ContextError.conflict"),
            (StoreError(.notFound, path: "a.sqlite", message: "no file"), "StoreError.notFound"),
            (
                FetchPredicateError(
                    .typeMismatch, predicate: "age CONTAINS 3", column: 1, message: "m"),
                "FetchPredicateError.typeMismatch"
            ),
            (MigrationError(.downgrade, message: "3 to 1"), "MigrationError.downgrade"),
            (ImportError(.invalidValue, at: position, "not a date"), "ImportError.invalidValue"),
            (ExportError(.unknownField, path: "out.csv", "no colour"), "ExportError.unknownField"),
            (
                BundleError(.checksumMismatch, path: "d.zip", "SHA-256 differs"),
                "BundleError.checksumMismatch"
            ),
            (ArchiveError(.symlink, path: "d.zip", message: "a link"), "ArchiveError.symlink"),
            (RegexError(.timeLimit, pattern: "(a+)+$", message: "slow"), "RegexError.timeLimit"),
            (SQLiteError(code: .constraintUnique, message: "UNIQUE"), "SQLiteError.constraint"),
        ]
        for (error, expected) in cases {
            #expect(clause(catching: error) == expected)
        }
    }

    @Test func anotherKindOfTheSameTypeIsNotCaught() {
        #expect(clause(catching: ContextError(.wrongType, "no")) == "other")
        #expect(clause(catching: StoreError(.locked, path: "a", message: "held")) == "other")
        #expect(clause(catching: MigrationError(.unknownVersion, message: "9")) == "other")
        #expect(!(ContextError.conflict ~= StoreError(.notFound, path: "a", message: "m")))
    }

    @Test func eachErrorOfOneKindIsCaughtByType() {
        let cases: [(any Error, String)] = [
            (ValidationError(failures: []), "ValidationError 0"),
            (SchemaError(issues: []), "SchemaError 0"),
            (MappingError(issues: []), "MappingError 0"),
            (XcodeModelError(issues: []), "XcodeModelError 0"),
            (
                PredicateSyntaxError(predicate: "age >", column: 5, message: "m"),
                "PredicateSyntaxError 5"
            ),
            (JSONSyntaxError(line: 2, column: 1, message: "m"), "JSONSyntaxError 2"),
            (XMLError(file: "contents", message: "m"), "XMLError contents"),
            (PropertyListError("short"), "PropertyListError short"),
            (KeyedArchiveError("no root"), "KeyedArchiveError no root"),
            (ModelCacheError("odd"), "ModelCacheError odd"),
            (CompressionError(message: "bad", code: -3), "CompressionError -3"),
        ]
        for (error, expected) in cases {
            #expect(clause(catching: error) == expected)
        }
    }

    /// A `switch` over any error takes the same patterns.
    @Test func theStaticMembersWorkInASwitchToo() {
        let error: any Error = StoreError(.unknownVersion, path: "a", message: "m")
        let kind: String
        switch error {
        case StoreError.notFound: kind = "missing"
        case StoreError.unknownVersion: kind = "unknown version"
        default: kind = "other"
        }
        #expect(kind == "unknown version")
    }
}
