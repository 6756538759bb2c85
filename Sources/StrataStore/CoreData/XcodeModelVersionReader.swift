import Foundation
import StrataCore
import StrataSchema

/// Converts one version's `contents` file into a ``Model``, collecting every
/// problem (things Core Data hashes or enforces that cannot be carried over)
/// and every warning (things left out that it does not hash).
struct XcodeModelVersionReader {
    /// The file name issues carry, relative to the bundle.
    let file: String
    let modelName: String
    let version: Int
    var issues: [XcodeModelIssue] = []
    var warnings: [XcodeModelIssue] = []
    /// The XML element of each relationship, by entity then name, to locate
    /// problems found once every entity is known.
    var relationshipElements: [String: [String: XMLElement]] = [:]
    /// The element each part of the converted model came from, by the JSON
    /// path the part has in a schema file, to locate later problems in
    /// this file.
    var locations: [String: XcodeModelBundle.Location] = [:]

    init(file: String, modelName: String, version: Int) {
        self.file = file
        self.modelName = modelName
        self.version = version
    }

    // MARK: - Reporting

    /// Remembers that the schema part at `path` comes from `element`.
    package mutating func locate(_ path: String, at element: XMLElement) {
        locations[path] = XcodeModelBundle.Location(
            file: file, line: element.line, element: Self.describe(element))
    }

    package mutating func report(_ element: XMLElement, _ message: String) {
        issues.append(
            XcodeModelIssue(
                file: file, line: element.line, element: Self.describe(element), message: message))
    }

    package mutating func warn(_ element: XMLElement, _ message: String) {
        warnings.append(
            XcodeModelIssue(
                file: file, line: element.line, element: Self.describe(element), message: message))
    }

    /// `<attribute name="x">`, or `<model>` for an element without a name.
    package static func describe(_ element: XMLElement) -> String {
        guard let name = element[attribute: "name"] else { return "<\(element.name)>" }
        return "<\(element.name) name=\"\(name)\">"
    }

    /// Whether the XML attribute `name` says `YES` (Xcode writes only YES;
    /// absent means NO).
    static func flag(_ element: XMLElement, _ name: String) -> Bool {
        element[attribute: name] == "YES"
    }

    /// The XML attribute `name`, nil when absent or empty.
    package static func text(_ element: XMLElement, _ name: String) -> String? {
        guard let value = element[attribute: name], !value.isEmpty else { return nil }
        return value
    }

    /// The element's `elementID`, Core Data's renaming identifier; nil when
    /// absent or equal to the name, which is what it defaults to.
    static func renamingIdentifier(of element: XMLElement, named name: String) -> String? {
        guard let identifier = text(element, "elementID"), identifier != name else { return nil }
        return identifier
    }

    // MARK: - Loading

    /// Parses `<folder>/contents`; reports the legacy binary format, a
    /// missing file and malformed XML.
    package mutating func load(_ folder: URL) -> XMLDocument? {
        let contents = folder.appendingPathComponent("contents")
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: contents.path) else {
            let folderName = folder.lastPathComponent
            if fileManager.fileExists(atPath: folder.appendingPathComponent("elements").path) {
                issues.append(
                    XcodeModelIssue(
                        file: folderName + "/elements",
                        message: "this is Xcode 3's binary model format, which Strata does not "
                            + "read; open the model in Xcode 4 or later and save it, which "
                            + "rewrites it as XML (a 'contents' file)"))
            } else {
                issues.append(
                    XcodeModelIssue(
                        file: file,
                        message: "missing; a model version folder holds a "
                            + "'contents' XML file"))
            }
            return nil
        }
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            issues.append(XcodeModelIssue(file: file, message: "cannot read the file"))
            return nil
        }
        do {
            return try XMLDocument(data: data, source: file)
        } catch let error as XMLError {
            issues.append(
                XcodeModelIssue(
                    file: file, line: error.line, column: error.column, message: error.message))
        } catch {
            issues.append(XcodeModelIssue(file: file, message: "not XML (\(error))"))
        }
        return nil
    }

    // MARK: - The model

    package mutating func convert(_ root: XMLElement) -> Model {
        var model = Model(
            name: modelName, version: version,
            versionIdentifier: root[attribute: "userDefinedModelVersionIdentifier"] ?? "",
            entities: [])
        guard root.name == "model" else {
            report(root, "expected a Core Data model, whose document element is <model>")
            return model
        }
        locate(JSONPath.root, at: root)
        model.entities = root.children(named: "entity").map { convertEntity($0) }
        let requests = JSONPath.appending(JSONPath.root, key: "fetchRequests")
        model.fetchRequests = root.children(named: "fetchRequest").compactMap { element in
            guard let request = convertFetchRequest(element) else { return nil }
            locate(JSONPath.appending(requests, key: request.name), at: element)
            return request
        }
        model.configurations = root.children(named: "configuration").compactMap {
            convertConfiguration($0)
        }
        applyEntityRelatedBy(in: &model, root.children(named: "entity"))
        checkRelationships(of: model)
        return model
    }
}
