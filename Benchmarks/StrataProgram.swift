import Foundation

/// The `strata` command the import benchmarks time: the one built beside
/// this program (`.build/release/strata` for a release `strata-bench`).
enum StrataProgram {
    /// The path of `strata` in the folder of `executable`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when it has not been built.
    static func locate(besides executable: String) throws -> String {
        let path = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent("strata").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError(
                .setup,
                "\(path) is missing; build both products with `swift build -c release "
                    + "--static-swift-stdlib` (`make bench` does)")
        }
        return path
    }
}
