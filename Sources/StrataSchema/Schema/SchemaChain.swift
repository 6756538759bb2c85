import Foundation

/// The versions of one model, read from its folder of schema files and
/// checked as a whole.
///
/// A model folder holds `1.json`, `2.json`, … (one file per version, no
/// gaps), plus `<from>-<to>.mapping.json` files that this type ignores.
///
/// ```swift
/// let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Diary"))
/// print(chain.newest.version)
/// ```
public struct SchemaChain: Hashable, Sendable {
    /// The versions, oldest first; never empty.
    public let versions: [Model]

    package init(versions: [Model]) {
        precondition(!versions.isEmpty, "a schema chain has at least one version")
        self.versions = versions
    }

    /// The newest version.
    public var newest: Model { versions[versions.count - 1] }

    /// The model's name, the same in every version.
    public var name: String { newest.name }

    /// The version numbered `version`, if the chain has it.
    public func model(version: Int) -> Model? {
        versions.first { $0.version == version }
    }

    /// Reads and checks every `<version>.json` file of a model folder.
    ///
    /// Each file is decoded and validated, and the files are checked
    /// together: names match versions, versions run from 1 without gaps, and
    /// every file names the same model.
    ///
    /// - Parameters:
    ///   - directory: The model folder; issues name files relative to it as
    ///     given (`Schemas/Diary` gives `Schemas/Diary/2.json`).
    ///   - checks: Checks made by layers above this one (the predicates of
    ///     stored fetch requests, say), run on each decoded version; the
    ///     issues they return are located in the file like the others.
    /// - Throws: ``SchemaError`` with every issue of every file.
    public static func load(
        directory: URL, checks: [Check] = []
    ) throws(SchemaError) -> SchemaChain {
        let folder = directory.relativePath
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw SchemaError(issues: [
                SchemaIssue(file: folder, path: JSONPath.root, message: "cannot read the folder")
            ])
        }
        var loader = Loader(checks: checks)
        var numbered: [(number: Int, name: String)] = []
        var misnamed: [String] = []
        for name in names.sorted() where Self.isCandidate(name, in: directory) {
            if let number = Self.versionNumber(fileName: name) {
                numbered.append((number, name))
            } else {
                misnamed.append(name)
            }
        }
        numbered.sort { $0.number < $1.number }
        if numbered.isEmpty && misnamed.isEmpty {
            loader.issues.append(
                SchemaIssue(
                    file: folder, path: JSONPath.root,
                    message: "no schema files; expected 1.json, 2.json, … in this folder"))
        }
        for (number, name) in numbered {
            let file = Self.join(folder, name)
            loader.load(directory.appendingPathComponent(name), file: file, number: number)
        }
        loader.checkSequence(
            numbered.map(\.number), files: numbered.map { Self.join(folder, $0.name) })
        for name in misnamed {
            loader.issues.append(
                SchemaIssue(
                    file: Self.join(folder, name), path: JSONPath.root,
                    message: "file name '\(name)' is not <version>.json (a whole number from 1, "
                        + "no leading zeros); custom steps are named <from>-<to>.mapping.json"))
        }
        return try loader.chain()
    }

    /// Reads and checks a single schema file as a chain of one version.
    ///
    /// When the file is named `<number>.json`, the number must be its version.
    ///
    /// - Parameters:
    ///   - file: The schema file; issues name it as given.
    ///   - checks: Further checks of the decoded version, as for
    ///     ``load(directory:checks:)``.
    /// - Throws: ``SchemaError`` with every issue of the file.
    public static func load(file: URL, checks: [Check] = []) throws(SchemaError) -> SchemaChain {
        var loader = Loader(checks: checks)
        loader.load(
            file, file: file.relativePath, number: versionNumber(fileName: file.lastPathComponent))
        return try loader.chain()
    }

    /// A check of a decoded, validated version: given the model and its
    /// file name, the issues found, each with its JSON path.
    public typealias Check = (_ model: Model, _ file: String) -> [SchemaIssue]

    // MARK: - File names

    /// Whether a folder entry is meant as a schema file: a visible `.json`
    /// file that is not a mapping.
    static func isCandidate(_ name: String, in directory: URL) -> Bool {
        guard name.hasSuffix(".json"), !name.hasPrefix("."), !name.hasSuffix(".mapping.json")
        else { return false }
        var isDirectory: ObjCBool = false
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
    }

    /// The version in a file name `<n>.json`, or nil for any other name.
    static func versionNumber(fileName: String) -> Int? {
        guard fileName.hasSuffix(".json") else { return nil }
        let stem = fileName.dropLast(".json".count)
        guard let first = stem.first, first != "0", stem.count <= 9,
            stem.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(stem)
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
