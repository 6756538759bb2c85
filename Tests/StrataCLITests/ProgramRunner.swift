import Foundation

/// Runs any program with a chosen environment and working folder, output
/// captured through files (never a pipe that could fill and block). For
/// the tests that must change `PATH`: the `strata` binary without Graphviz
/// on it, or the README's shell commands with `strata` on it.
enum ProgramRunner {
    /// Runs `program` with `arguments` in `folder`, its environment this
    /// process's with `environment` laid over it.
    static func run(
        _ program: URL, _ arguments: [String], in folder: URL,
        environment: [String: String] = [:]
    ) throws -> StrataRunner.Outcome {
        let scratch = try ScratchFolder()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        return StrataRunner.Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}
