import Foundation

/// Finds the Strata package root: the nearest folder, from the current one
/// upwards, holding `Package.swift` and `Benchmarks/` (`make bench` and
/// `swift run` start there).
enum PackageRoot {
    /// - Throws: ``BenchError`` (`setup`) when no such folder is found.
    static func find() throws -> URL {
        let fileManager = FileManager.default
        var folder = URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true)
        while true {
            let manifest = folder.appendingPathComponent("Package.swift").path
            let benchmarks = folder.appendingPathComponent("Benchmarks").path
            if fileManager.fileExists(atPath: manifest)
                && fileManager.fileExists(atPath: benchmarks)
            {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path {
                throw BenchError(
                    .setup, "run strata-bench inside the Strata package (no Package.swift found)")
            }
            folder = parent
        }
    }
}
