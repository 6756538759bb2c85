import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `strata` and kills it (SIGKILL) at a moment given by its
/// own progress, not a clock: once the kernel has counted a given number of
/// bytes written by it (`wchar` in `/proc/<pid>/io`). The count grows with
/// every write of the store, its WAL, work files and output, so a threshold
/// drawn between 0 and an uninterrupted run's total lands anywhere in the
/// run; the process keeps going while the signal is on its way, so kills
/// land inside writes, commits and renames too.
enum KillRunner {
    /// How a run ended.
    struct Run {
        /// The largest write count seen.
        var written: Int64
        /// Whether it was killed.
        var killed: Bool
        /// The exit status (the signal's number when killed).
        var status: Int32
    }

    /// Runs `strata arguments` in the package root, killing it once it has
    /// written `threshold` bytes (0: at once; nil: never).
    static func run(_ arguments: [String], killAfterWriting threshold: Int64?) throws -> Run {
        let process = Process()
        process.executableURL = try StrataRunner.executable()
        process.arguments = arguments
        process.currentDirectoryURL = StrataRunner.packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        var written: Int64 = 0
        var killed = false
        if threshold == 0 {
            kill(pid, SIGKILL)
            killed = true
        }
        while process.isRunning {
            if let count = writeCount(of: pid) { written = max(written, count) }
            if !killed, let threshold, written >= threshold {
                kill(pid, SIGKILL)
                killed = true
            }
            sched_yield()  // Watching, not waiting: the child runs on the other core.
        }
        process.waitUntilExit()
        return Run(written: written, killed: killed, status: process.terminationStatus)
    }

    /// `wchar` of `/proc/<pid>/io`: bytes the process has written so far.
    private static func writeCount(of pid: Int32) -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else {
            return nil
        }
        for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
            return Int64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// The names in `folder` that a finished run should not leave: Strata's
    /// work files (`.<name>.strata-…`, `<name>.strata-…`), rollback journals
    /// and anything in the shared temporary folder named after Strata's
    /// old scratch folders.
    static func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains(".strata-") || $0.hasSuffix("-journal")
        }.sorted()
    }
}

/// A small seeded generator (SplitMix64), so the kill moments repeat.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound` (bound > 0).
    mutating func next(below bound: Int64) -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int64((z ^ (z >> 31)) % UInt64(bound))
    }
}
