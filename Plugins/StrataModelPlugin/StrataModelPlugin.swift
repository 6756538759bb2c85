import Foundation
import PackagePlugin

/// Generates typed entity classes at build time: for every schema folder
/// in a target (a folder holding `1.json`, `2.json`, …: a resource such as
/// `.copy("Schemas/Diary")`, or an excluded folder or link), `strata-codegen`
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
        let urls = target.sourceFiles.map(\.url)
        for folder in schemaFolders(among: urls, below: commonFolder(of: urls)) {
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

    /// The deepest folder holding every one of `urls`: the target's folder
    /// (`Target.directoryURL` needs tools version 6.1).
    func commonFolder(of urls: [URL]) -> URL? {
        guard let first = urls.first else { return nil }
        var common = first.deletingLastPathComponent().standardizedFileURL.pathComponents
        for url in urls.dropFirst() {
            let components = url.deletingLastPathComponent().standardizedFileURL.pathComponents
            var shared = 0
            while shared < min(common.count, components.count), common[shared] == components[shared]
            {
                shared += 1
            }
            common = Array(common.prefix(shared))
        }
        guard common.count > 1 else { return nil }  // Never scan from the file system's root.
        return URL(
            fileURLWithPath: common.joined(separator: "/").replacingOccurrences(of: "//", with: "/")
        )
    }

    /// The folders holding schema versions (`<n>.json`), with their JSON
    /// files, among `urls` (a resource folder copied whole is listed as the
    /// folder itself, processed resources file by file) and below the
    /// target's folder (an excluded folder, or a link to one elsewhere).
    func schemaFolders(among urls: [URL], below root: URL?) -> [(url: URL, files: [URL])] {
        var files: [URL: [URL]] = [:]
        func visit(_ listed: URL, depth: Int) {
            // A schema folder linked into the target is read where it lies.
            let url = listed.resolvingSymlinksInPath().standardizedFileURL
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            else { return }
            if isDirectory.boolValue {
                guard depth < 8,
                    let children = try? FileManager.default.contentsOfDirectory(
                        at: url, includingPropertiesForKeys: nil)
                else { return }
                for child in children where !child.lastPathComponent.hasPrefix(".") {
                    visit(child, depth: depth + 1)
                }
            } else if url.pathExtension == "json" {
                let folder = url.deletingLastPathComponent()
                if !(files[folder]?.contains(url) ?? false) {
                    files[folder, default: []].append(url)
                }
            }
        }
        for url in urls { visit(url, depth: 0) }
        if let root { visit(root, depth: 0) }
        return files.keys.sorted { $0.path < $1.path }.compactMap { folder in
            let jsons = files[folder] ?? []
            let isSchemaFolder = jsons.contains {
                Int($0.deletingPathExtension().lastPathComponent) != nil
            }
            return isSchemaFolder ? (folder, jsons.sorted { $0.path < $1.path }) : nil
        }
    }
}
