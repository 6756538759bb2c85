import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataStore

/// Expects `body` to throw a ``MigrationError`` with `code`.
func expectMigrationError(
    _ code: MigrationError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    #expect(sourceLocation: sourceLocation) {
        try body()
    } throws: { error in
        (error as? MigrationError)?.code == code
    }
}

/// Expects `body` to throw a ``StoreError`` with `code`.
func expectStoreError(
    _ code: StoreError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    #expect(sourceLocation: sourceLocation) {
        try body()
    } throws: { error in
        (error as? StoreError)?.code == code
    }
}

extension TemporaryDirectory {
    /// The names in the folder, sorted, without `-wal` and `-shm` files (a
    /// store a test still has open keeps them).
    func namesWithoutWAL() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            .filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }
}
