import Foundation
import Testing

/// Runs the built `strata` binary and captures what it prints.
struct StrataRunner {
    /// What one run printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, found from this file's path; commands run there so
    /// that `Schemas/` and `Samples/` resolve as in the README.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `strata` executable beside the test bundle in the build folder,
    /// or the one `STRATA_TEST_BINARY` names: an earlier build, to show that
    /// a regression test fails on the code before its fix.
    static func executable() throws -> URL {
        if let chosen = ProcessInfo.processInfo.environment["STRATA_TEST_BINARY"] {
            return URL(fileURLWithPath: chosen)
        }
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("strata"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("strata"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/strata"))
        guard
            let found = candidates.first(where: {
                FileManager.default.isExecutableFile(atPath: $0.path)
            })
        else {
            throw RunnerError(message: "strata binary not found; build it with `swift build` first")
        }
        return found
    }

    /// Runs `strata` with `arguments` in the package root. Output goes to
    /// files rather than pipes, so a chatty command can never block on a
    /// full pipe.
    static func run(_ arguments: [String]) throws -> Outcome {
        try run(arguments, unprivileged: false)
    }

    /// Whether ``run(_:unprivileged:)`` can drop root's rights: as root it
    /// needs util-linux's `setpriv`, and `nobody` must be able to run the
    /// built `strata`, read the package's schemas and write a scratch
    /// folder, which a clone inside a private folder (a container's
    /// `/root`, `mktemp -d`) does not allow. Any other user is unprivileged
    /// already. The answer comes from running exactly that once.
    static var canRunUnprivileged: Bool { unprivilegedProbe == nil }

    /// Why the tests that drop root's rights cannot run here, or nil when
    /// they can: the reason their skip prints.
    static let unprivilegedProbe: String? = {
        guard getuid() == 0 else { return nil }
        guard FileManager.default.isExecutableFile(atPath: setpriv) else {
            return "running as root without \(setpriv) (util-linux) to drop root's rights"
        }
        do {
            let folder = try ScratchFolder()
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o777], ofItemAtPath: folder.url.path)
            let outcome = try run(
                ["create", folder.path("probe.sqlite"), "--schemas", "Schemas/Diary"],
                unprivileged: true)
            guard outcome.status == 0 else {
                return "user nobody cannot run strata on this package and a scratch folder "
                    + "(a clone in a private folder?): "
                    + outcome.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return nil
        } catch {
            return "user nobody cannot run strata here: \(error)"
        }
    }()

    /// The condition of a test that drops root's rights: skipped, with the
    /// reason, where ``canRunUnprivileged`` is false.
    static var unprivilegedCondition: ConditionTrait {
        .enabled(if: canRunUnprivileged, Comment(rawValue: unprivilegedProbe ?? ""))
    }

    private static let setpriv = "/usr/bin/setpriv"

    /// Runs `strata` as a user without root's rights (`nobody` when the
    /// tests run as root), so file permissions apply as they do to users.
    static func runUnprivileged(_ arguments: [String]) throws -> Outcome {
        try run(arguments, unprivileged: true)
    }

    private static func run(_ arguments: [String], unprivileged: Bool) throws -> Outcome {
        let scratch = try ScratchFolder()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: outURL)
        let stderr = try FileHandle(forWritingTo: errURL)
        let process = Process()
        if unprivileged && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments =
                ["--reuid=65534", "--regid=65534", "--clear-groups", try executable().path]
                + arguments
        } else {
            process.executableURL = try executable()
            process.arguments = arguments
        }
        process.currentDirectoryURL = packageRoot
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

struct RunnerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A throwaway folder for the stores a command test creates.
final class ScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folder, including what a test made read-only in it: its
    /// folders are made writable again first (a user other than root cannot
    /// delete from a folder it may not write).
    deinit {
        let files = FileManager.default
        try? files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        let items = files.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
        while let item = items?.nextObject() as? URL {
            guard (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            else { continue }
            try? files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: item.path)
        }
        try? files.removeItem(at: url)  // Best effort.
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

extension ScratchFolder {
    /// A model folder `name` whose version 1 is `json`.
    ///
    /// - Returns: The folder's path, for `--schemas`.
    func schemaFolder(_ name: String, version1 json: String) throws -> String {
        let schemas = path(name)
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: "\(schemas)/1.json"))
        return schemas
    }

    /// A `Notes` chain in the folder `Notes`, one version per entry of
    /// `attributes` (the members of `Note.attributes`, as JSON), and a store
    /// `Notes.sqlite` of version 1 made by `strata create`.
    ///
    /// - Returns: The chain's folder and the store's path.
    func notesChain(_ attributes: [String]) throws -> (schemas: String, store: String) {
        let schemas = path("Notes")
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        for (index, members) in attributes.enumerated() {
            let json = """
                { "format": "strata-schema/1", "model": "Notes", "version": \(index + 1),
                  "entities": { "Note": { "attributes": { \(members) } } } }
                """
            try Data(json.utf8).write(to: URL(fileURLWithPath: "\(schemas)/\(index + 1).json"))
        }
        let store = path("Notes.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "\(schemas)/1.json"])
        #expect(created.status == 0, "\(created.stderr)")
        return (schemas, store)
    }
}
