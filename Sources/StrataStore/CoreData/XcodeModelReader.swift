import Foundation
import StrataSchema

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
/// Versions are ordered by the version that ends their name
/// (``XcodeModelVersionOrder``: `Foo.xcdatamodel` first, then
/// `Foo 2.xcdatamodel`, …, `1.9.2` before `1.10.0`) or as ``order`` gives,
/// and numbered 1…n in that order. The current version (`.xccurrentversion`)
/// is the last: versions numbered after it are left out with a warning. A
/// version missing several properties that the versions around it share
/// gets a warning too: the order is likely wrong.
///
/// ```swift
/// let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "Model.xcdatamodeld"))
/// for model in bundle.versions { print(model.version, model.entities.count) }
/// ```
public struct XcodeModelReader: Sendable {
    /// The version folders in the order to convert them, replacing the
    /// order read from their names; nil to read it from the names.
    public var order: [String]?

    /// Creates a reader.
    ///
    /// - Parameter order: Version folder names (with or without
    ///   `.xcdatamodel`) in version order, or nil for the order their names
    ///   give.
    public init(order: [String]? = nil) {
        self.order = order
    }

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
        var explanation = ""
        switch url.pathExtension {
        case "xcdatamodeld":
            base = url
            let versionOrder = try Self.versionOrder(in: url, given: order, warnings: &warnings)
            folders = versionOrder.folders
            explanation = versionOrder.explanation
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
        warnings += Self.unlikelyOrderWarnings(versions, folders: folders)
        var bundle = XcodeModelBundle(
            name: name, versions: versions, versionFolders: folders, warnings: warnings)
        bundle.locations = locations
        bundle.orderExplanation = explanation
        return bundle
    }

    /// One file's issues by line (relationship checks run after the
    /// entities are read), keeping the order of issues on one line.
    static func inDocumentOrder(_ issues: [XcodeModelIssue]) -> [XcodeModelIssue] {
        issues.enumerated().sorted { left, right in
            (left.element.line ?? 0, left.offset) < (right.element.line ?? 0, right.offset)
        }.map(\.element)
    }

    package static func error(_ file: String, _ message: String) -> XcodeModelError {
        XcodeModelError(issues: [XcodeModelIssue(file: file, message: message)])
    }
}
