import Foundation

/// Executables of the package (`strata`, `strata-test-writer`), found in the
/// build folder beside the running test binary.
enum BuiltExecutable {
    /// The executable `name`, built by `swift build --build-tests`.
    static func url(named name: String) throws -> URL {
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent(name))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        guard
            let found = candidates.first(where: {
                FileManager.default.isExecutableFile(atPath: $0.path)
            })
        else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSLocalizedDescriptionKey: "build \(name) first (swift build)"])
        }
        return found
    }
}
