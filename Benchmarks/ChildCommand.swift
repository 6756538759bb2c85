import Foundation

/// A program to run as a child process: an executable and its arguments.
struct ChildCommand: CustomStringConvertible {
    /// The executable's path.
    var executable: String
    /// The arguments after the program name.
    var arguments: [String]

    /// The command as a shell would show it (for messages only).
    var description: String {
        ([executable] + arguments).map { argument in
            argument.contains(where: { " '\"\\$".contains($0) })
                ? "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'" : argument
        }.joined(separator: " ")
    }

    /// Finds `name` on `PATH`.
    ///
    /// - Throws: ``BenchError`` (`setup`) when no executable of that name is
    ///   found; `hint` says how to get one.
    static func locate(_ name: String, hint: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchError(.setup, "`\(name)` is not on PATH; \(hint)")
    }

    /// This program's own executable, for re-invoking it as a worker.
    static func currentExecutable() throws -> String {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError(.setup, "cannot find this program's own executable")
        }
        return path
    }
}
