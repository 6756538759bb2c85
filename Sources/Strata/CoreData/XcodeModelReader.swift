import Foundation

/// Reads Xcode's Core Data model files into schema ``Model`` versions.
///
/// Takes a versioned bundle `Foo.xcdatamodeld/` (every `*.xcdatamodel`
/// version in it) or a lone `Foo.xcdatamodel/`, and carries over everything
/// Core Data hashes or enforces (coredata-format.md §2): types, optionality,
/// defaults, validation bounds, renaming identifiers, version hash modifiers,
/// inheritance, relationships with their counts and delete rules, uniqueness
/// constraints, indexes, `userInfo`, stored fetch requests and
/// configurations.
///
/// Versions are ordered by the number that ends their name (`Foo.xcdatamodel`
/// is 1, then `Foo 2.xcdatamodel`, …) and numbered 1…n in that order. The
/// current version (`.xccurrentversion`) must be the last: versions after it
/// are left out with a warning.
///
/// ```swift
/// let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "Model.xcdatamodeld"))
/// for model in bundle.versions { print(model.version, model.entities.count) }
/// ```
public struct XcodeModelReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Reads and converts every version of the model at `url`.
    ///
    /// - Parameter url: A `.xcdatamodeld` bundle or a `.xcdatamodel` folder.
    /// - Returns: The versions, named after the bundle, with warnings about
    ///   what was left out.
    /// - Throws: ``XcodeModelError`` listing every problem of every version
    ///   file; issues name files relative to the bundle.
    public func read(at url: URL) throws(XcodeModelError) -> XcodeModelBundle {
        let fileName = url.lastPathComponent
        let name = url.deletingPathExtension().lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw Self.error(fileName, "no such model folder")
        }
        var warnings: [XcodeModelIssue] = []
        let folders: [String]
        let base: URL
        switch url.pathExtension {
        case "xcdatamodeld":
            base = url
            folders = try Self.versionFolders(in: url, warnings: &warnings)
        case "xcdatamodel":
            base = url.deletingLastPathComponent()
            folders = [fileName]
        default:
            throw Self.error(
                fileName, "expected a .xcdatamodeld bundle or a .xcdatamodel folder")
        }

        var issues: [XcodeModelIssue] = []
        var versions: [Model] = []
        var locations: [[String: XcodeModelBundle.Location]] = []
        for (index, folder) in folders.enumerated() {
            var reader = XcodeModelVersionReader(
                file: folder + "/contents", modelName: name, version: index + 1)
            if let document = reader.load(base.appendingPathComponent(folder)) {
                let model = reader.convert(document.root)
                if reader.issues.isEmpty {
                    versions.append(model)
                    locations.append(reader.locations)
                }
            }
            issues += Self.inDocumentOrder(reader.issues)
            warnings += Self.inDocumentOrder(reader.warnings)
        }
        guard issues.isEmpty else { throw XcodeModelError(issues: issues) }
        var bundle = XcodeModelBundle(
            name: name, versions: versions, versionFolders: folders, warnings: warnings)
        bundle.locations = locations
        return bundle
    }

    /// One file's issues by line (relationship checks run after the
    /// entities are read), keeping the order of issues on one line.
    static func inDocumentOrder(_ issues: [XcodeModelIssue]) -> [XcodeModelIssue] {
        issues.enumerated().sorted { left, right in
            (left.element.line ?? 0, left.offset) < (right.element.line ?? 0, right.offset)
        }.map(\.element)
    }

    static func error(_ file: String, _ message: String) -> XcodeModelError {
        XcodeModelError(issues: [XcodeModelIssue(file: file, message: message)])
    }
}
