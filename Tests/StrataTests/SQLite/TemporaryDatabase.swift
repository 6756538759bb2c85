import Foundation

@testable import Strata
@testable import StrataCore

/// A throwaway database path under the temporary directory, removed (with its
/// `-wal`, `-shm` and `-journal` companions) when the test body returns.
enum TemporaryDatabase {
    /// Calls `body` with a fresh path that does not exist yet.
    static func withPath<T>(_ body: (String) throws -> T) rethrows -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        return try body(path)
    }

    /// Calls `body` with a connection to a fresh database file, closed afterwards.
    static func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        try withPath { path in
            let connection = try Connection(path: path)
            defer { try? connection.close() }
            return try body(connection)
        }
    }
}
