import Foundation

/// `swiftc -typecheck` of one source file against the Strata module this
/// test bundle was built with, in Swift 6 mode with warnings as errors
/// (`-warnings-as-errors`): the check that generated code compiles as a
/// user's target would compile it.
struct SwiftCompiler {
    /// The build folder holding `Modules/Strata.swiftmodule`.
    let buildFolder: URL

    struct Outcome {
        var status: Int32
        var output: String
    }

    init() throws {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates: [URL] = []
        for _ in 0..<5 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder)
        }
        candidates.append(TypedFixture.packageRoot.appendingPathComponent(".build/debug"))
        guard
            let found = candidates.first(where: {
                FileManager.default.fileExists(
                    atPath: $0.appendingPathComponent("Modules/Strata.swiftmodule").path)
            })
        else {
            throw CompilerError(message: "Modules/Strata.swiftmodule not found beside the tests")
        }
        buildFolder = found
    }

    struct CompilerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Type-checks `source` as module `module`.
    func typecheck(_ source: String, module: String) throws -> Outcome {
        try typecheck(files: ["\(module).swift": source], module: module)
    }

    /// Type-checks the files (name to source) together as module `module`;
    /// one named `main.swift` may hold top-level code, as in an app.
    func typecheck(files: [String: String], module: String) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-swiftc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, source) in files.sorted(by: { $0.key < $1.key }) {
            let file = folder.appendingPathComponent(name)
            try Data(source.utf8).write(to: file)
            paths.append(file.path)
        }
        let sources = TypedFixture.packageRoot.appendingPathComponent("Sources")
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
            "-module-name", module, "-I", buildFolder.appendingPathComponent("Modules").path,
            "-module-cache-path", folder.appendingPathComponent("cache").path,
            // libxml2's headers, through the link in CLibXML2's include folder.
            "-Xcc", "-I" + sources.appendingPathComponent("CLibXML2/include").path,
        ]
        for map in [
            "CSQLite/module.modulemap", "CLibXML2/include/module.modulemap",
            "CArchive/include/module.modulemap",
            "CCrypto/module.modulemap", "CICU/include/module.modulemap",
            "CFileSystem/include/module.modulemap",
        ] {
            arguments += ["-Xcc", "-fmodule-map-file=" + sources.appendingPathComponent(map).path]
        }
        arguments += paths
        let log = folder.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = try String(contentsOf: log, encoding: .utf8)
        return Outcome(status: process.terminationStatus, output: output)
    }
}
