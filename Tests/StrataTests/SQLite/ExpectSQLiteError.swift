import Testing

@testable import Strata
@testable import StrataCore

/// Records an issue unless `body` throws an ``SQLiteError`` that `pattern`
/// matches (a primary pattern matches its extended codes).
func expectSQLiteError<T>(
    _ pattern: ResultCode, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    do {
        _ = try body()
        Issue.record(
            "expected SQLite error \(pattern), nothing thrown", sourceLocation: sourceLocation)
    } catch let error where pattern ~= error {
        return
    } catch {
        Issue.record(
            "expected SQLite error \(pattern), got \(error)", sourceLocation: sourceLocation)
    }
}
