import Foundation
import PackagePlugin

/// Generates typed entity classes at build time: for every schema folder
/// among a target's files (a folder holding `1.json`, `2.json`, …, usually
/// declared as a resource with `.copy("Schemas/Diary")`), `strata-codegen`
/// writes `<Folder>.swift` with the classes of the newest version into the
/// plugin's work folder, and the target compiles it. Runs offline: the tool
/// is built from this package.
@main
struct StrataModelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "strata-codegen")
        var commands: [Command] = []
        var usedNames: Set<String> = []
        for folder in schemaFolders(among: target.sourceFiles.map(\.url)) {
            var name = folder.url.lastPathComponent
            while usedNames.contains(name) { name += "_" }
            usedNames.insert(name)
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name).swift")
            commands.append(
                .buildCommand(
                    displayName: "Generating Strata classes of \(folder.url.lastPathComponent)",
                    executable: tool.url,
                    arguments: [folder.url.path, "-o", output.path],
                    inputFiles: folder.files,
                    outputFiles: [output]))
        }
        return commands
    }

    /// The folders holding schema versions (`<n>.json`), with their JSON
    /// files: a resource folder copied whole is listed as the folder itself,
    /// processed resources file by file.
    func schemaFolders(among urls: [URL]) -> [(url: URL, files: [URL])] {
        var files: [URL: [URL]] = [:]
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            else { continue }
            if isDirectory.boolValue {
                let enumerator = FileManager.default.enumerator(
                    at: url, includingPropertiesForKeys: nil)
                while let file = enumerator?.nextObject() as? URL {
                    if file.pathExtension == "json" {
                        files[file.deletingLastPathComponent().standardizedFileURL, default: []]
                            .append(file)
                    }
                }
            } else if url.pathExtension == "json" {
                files[url.deletingLastPathComponent().standardizedFileURL, default: []].append(url)
            }
        }
        return files.keys.sorted { $0.path < $1.path }.compactMap { folder in
            let jsons = files[folder] ?? []
            let isSchemaFolder = jsons.contains {
                Int($0.deletingPathExtension().lastPathComponent) != nil
            }
            return isSchemaFolder ? (folder, jsons.sorted { $0.path < $1.path }) : nil
        }
    }
}
