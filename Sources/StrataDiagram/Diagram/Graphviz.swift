import Foundation

/// Graphviz's `dot`, run as a process (no shell) to lay out and draw a
/// diagram; layout is Graphviz's work, not Strata's.
public enum Graphviz {
    /// The Debian package that provides `dot`.
    public static let debianPackage = "graphviz"

    /// The `dot` program on `searchPath` (a `PATH`-style list of folders),
    /// or nil when there is none.
    public static func executable(
        searchPath: String? = ProcessInfo.processInfo.environment["PATH"]
    ) -> URL? {
        for folder in (searchPath ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("dot")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Writes the DOT source `dot` to `destination` as `format`: the source
    /// itself for ``DiagramFormat/dot`` (no Graphviz needed), otherwise the
    /// picture `dot` draws of it.
    ///
    /// Atomic: the file is written beside `destination` under a temporary
    /// name and renamed into place only when complete; on any failure
    /// nothing is left at `destination`.
    ///
    /// - Parameter searchPath: Where to look for `dot` (default: `PATH`).
    /// - Throws: ``DiagramError``: `dot` missing (naming the package to
    ///   install) or failing (with what it said), or the file unwritable.
    public static func render(
        _ dot: String, as format: DiagramFormat, to destination: URL,
        searchPath: String? = ProcessInfo.processInfo.environment["PATH"]
    ) throws(DiagramError) {
        var program: URL?
        if format != .dot {
            program = executable(searchPath: searchPath)
            if program == nil {
                throw DiagramError(
                    .graphvizMissing,
                    message: "Graphviz's dot is needed to draw \(format.rawValue) and is not "
                        + "installed (no 'dot' on PATH); install Debian's package "
                        + "'\(debianPackage)' (apt-get install \(debianPackage))")
            }
        }
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        let initial = program == nil ? Data(dot.utf8) : Data()
        guard FileManager.default.createFile(atPath: temporary.path, contents: initial) else {
            throw DiagramError(
                .cannotWrite, message: "\(destination.path): cannot write in this folder")
        }
        defer { try? FileManager.default.removeItem(at: temporary) }  // Gone once renamed.
        if let program {
            try draw(dot, with: program, as: format, to: temporary)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw DiagramError(.cannotWrite, message: "\(destination.path): \(reason)")
        }
    }

    /// Runs `dot -T<format> -o <output> <input>`, the source in a private
    /// temporary file and what `dot` says on stderr in another, so that
    /// no pipe can fill up and block it.
    private static func draw(
        _ dot: String, with program: URL, as format: DiagramFormat, to output: URL
    ) throws(DiagramError) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-diagram-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }  // Best effort.
        let input = folder.appendingPathComponent("graph.dot")
        let messages = folder.appendingPathComponent("stderr")
        let status: Int32
        let reason: Process.TerminationReason
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(dot.utf8).write(to: input)
            _ = FileManager.default.createFile(atPath: messages.path, contents: nil)
            let stderr = try FileHandle(forWritingTo: messages)
            defer { try? stderr.close() }
            let process = Process()
            process.executableURL = program
            process.arguments = ["-T\(format.rawValue)", "-o", output.path, input.path]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            try process.run()
            process.waitUntilExit()
            status = process.terminationStatus
            reason = process.terminationReason
        } catch {
            throw DiagramError(
                .graphvizFailed,
                message: "cannot run \(program.path): \(error.localizedDescription)")
        }
        guard reason == .exit, status == 0 else {
            let said =
                (try? Data(contentsOf: messages)).map {
                    String(decoding: $0.prefix(2000), as: UTF8.self)
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                } ?? ""
            let how = reason == .exit ? "exit status \(status)" : "signal \(status)"
            throw DiagramError(
                .graphvizFailed,
                message: "Graphviz's dot failed (\(how))" + (said.isEmpty ? "" : ": \(said)"))
        }
    }
}
