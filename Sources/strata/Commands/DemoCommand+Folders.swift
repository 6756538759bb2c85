import Foundation

extension DemoCommand {
    /// The bundled `Schemas` and `Samples` folders: those of the current
    /// folder when it is the package (where `make demo` runs the demo), else
    /// those of the package the executable was built in
    /// (`.build/<triple>/<configuration>/strata`), so `strata demo` works
    /// from any folder.
    ///
    /// - Throws: ``CommandFailure`` naming where it looked.
    static func bundledFolders() throws -> (schemas: String, samples: String) {
        if StoreBatch.isFolder("Schemas"), StoreBatch.isFolder("Samples") {
            return ("Schemas", "Samples")
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<5 {
            let schemas = folder.appendingPathComponent("Schemas").path
            let samples = folder.appendingPathComponent("Samples").path
            if StoreBatch.isFolder(schemas), StoreBatch.isFolder(samples) {
                return (schemas, samples)
            }
            folder = folder.deletingLastPathComponent()
        }
        throw CommandFailure(
            message: "the demo runs on the bundled Schemas/ and Samples/ folders, and there are "
                + "none here (\(FileManager.default.currentDirectoryPath)) nor in a package "
                + "around \(executable.path): run it in the Strata package folder (`make demo` "
                + "does), or name the folders with --schemas and --samples")
    }

    /// Checks that `path`, given as `option`, is a folder.
    static func requireFolder(_ path: String, option: String) throws {
        guard StoreBatch.isFolder(path) else {
            throw CommandFailure(
                message: "\(path) (\(option)): expected a folder, and there is none")
        }
    }
}
