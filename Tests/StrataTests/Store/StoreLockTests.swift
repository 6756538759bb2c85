import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// ``StoreLock``: shared holders together, an exclusive one alone, a refusal
/// that names the store, and no lock file left behind.
struct StoreLockTests {
    private func expectLocked(_ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            let error = try #require(error as? StoreError)
            return error.code == .locked && error.message.contains("another process")
        }
    }

    @Test func testSharedHoldersShareAndExcludeAnExclusiveOne() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("S.sqlite")
        let first = try StoreLock(for: store, mode: .shared, waitingUpTo: 0)
        let second = try StoreLock(for: store, mode: .shared, waitingUpTo: 0)
        expectLocked { _ = try StoreLock(for: store, mode: .exclusive, waitingUpTo: 0) }
        first.release()
        expectLocked { _ = try StoreLock(for: store, mode: .exclusive, waitingUpTo: 0) }
        second.release()
        let exclusive = try StoreLock(for: store, mode: .exclusive, waitingUpTo: 0)
        expectLocked { _ = try StoreLock(for: store, mode: .shared, waitingUpTo: 0) }
        exclusive.release()
    }

    @Test func testTheLastHolderRemovesTheLockFile() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("S.sqlite")
        let path = StoreLock.path(for: store)
        let first = try StoreLock(for: store, mode: .shared, waitingUpTo: 0)
        let second = try StoreLock(for: store, mode: .shared, waitingUpTo: 0)
        first.release()
        #expect(FileManager.default.fileExists(atPath: path))  // The second still holds it.
        second.release()
        second.release()  // Twice is fine.
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func testALockFileThatCannotBeMadeIsAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let store = directory.file("missing-folder/S.sqlite")
        #expect {
            _ = try StoreLock(for: store, mode: .shared, waitingUpTo: 0)
        } throws: { error in
            (error as? StoreError)?.message.contains("cannot create the lock file") == true
        }
    }
}
