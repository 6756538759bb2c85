@testable import StrataSchema

#if DEBUG
    import Foundation
    @testable import Strata

    /// The package's Diary schemas (`Schemas/Diary`), read once when a target
    /// starts, for the targets that need a model to check inputs against.
    enum FuzzFixtures {
        /// The Diary chain; nil only if the package's schemas are missing.
        static let diary: SchemaChain? = try? SchemaChain.load(
            directory: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Schemas/Diary"))

        /// Diary version 1.
        static let diary1 = diary?.model(version: 1)
        /// Diary version 2.
        static let diary2 = diary?.model(version: 2)
        /// Diary version 3.
        static let diary3 = diary?.model(version: 3)

        /// Diary's newest version and an empty folder of this process's
        /// (`strata-fuzz-<name>-<pid>` in the temporary directory), for a
        /// target that builds a store when it starts. The folder is removed
        /// when the process exits (not when it crashes: then it shows what the
        /// target had built).
        static func newestDiaryAndFolder(_ name: String) throws -> (Model, URL) {
            guard let model = diary?.newest else { throw CocoaError(.fileNoSuchFile) }
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-fuzz-\(name)-\(getpid())", isDirectory: true)
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            made.add(folder)
            return (model, folder)
        }

        /// The folders `newestDiaryAndFolder` made in this process.
        private static let made = MadeFolders()

        /// Folders removed when the process exits.
        private final class MadeFolders: @unchecked Sendable {
            private let lock = NSLock()
            private var urls: [URL] = []

            init() {
                atexit { FuzzFixtures.made.removeAll() }
            }

            func add(_ url: URL) { lock.withLock { urls.append(url) } }

            func removeAll() {
                for url in lock.withLock({ urls }) {
                    try? FileManager.default.removeItem(at: url)  // Best effort.
                }
            }
        }
    }
#endif
