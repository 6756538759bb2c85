import Foundation

/// A throwaway folder under the system's temporary directory, removed when
/// the value is released.
final class TemporaryDirectory {
    /// The folder's location.
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)  // Best effort; the OS cleans tmp too.
    }

    /// A path inside the folder.
    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Copies a store under `Fixtures/coredata` with its -wal and -shm files
    /// into the folder, since SQLite rewrites WAL files when a connection
    /// closes.
    func copyFixtureStore(_ relativePath: String) throws -> URL {
        let source = Fixtures.url("coredata/" + relativePath)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: source.path])
        }
        let destination = file(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            if FileManager.default.fileExists(atPath: from.path) {
                try FileManager.default.copyItem(
                    at: from, to: URL(fileURLWithPath: destination.path + suffix))
            }
        }
        return destination
    }
}

/// The files under `Tests/StrataTests/Fixtures`.
enum Fixtures {
    /// The folder of the test fixtures, found from this source file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // StrataTests
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// A file under the fixtures folder.
    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}
