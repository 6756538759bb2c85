import Foundation
import StrataValues

/// Reads `strata-schema/1` files into ``Model`` values, reporting every
/// problem at once, each with its file, JSON path, line and column.
///
/// The format (also in the `SchemaFormat` article). Keys marked * are
/// required; every other key may be left out and then takes the value shown.
///
/// ```
/// { "format"*: "strata-schema/1", "model"*: "Diary", "version"*: 2,
///   "versionIdentifier": "", "entities"*: { "<Entity>": entity, … },
///   "fetchRequests": { "<name>": { "entity"*: name, "predicate": text,
///     "options": { "fetchLimit": "10", … } }, … },
///   "configurations": { "<name>": { "entities": [names],
///     "usedWithCloudKit": false }, … } }
///
/// entity: "parent": null, "abstract": false, "renamedFrom": null,
///   "renamingIdentifier": null, "versionHashModifier": null, "uniquenessConstraints": [["a", "b"], …],
///   "indexes": [{ "name"*: text, "elements"*: [{ "property"*: name,
///     "order": "ascending" | "descending", "type": "binary" | "rtree" }] }],
///   "userInfo": { "key": "value", … }, "comment": text (documentation, not hashed),
///   "attributes": { "<name>": attribute, … }, "relationships": { … }
///
/// attribute: "type"*: string | integer16 | integer32 | integer64 | decimal |
///   double | float | boolean | date | binary | uuid | uri | transformable,
///   "optional": false, "transient": false, "default": (see below),
///   "indexed": false, "minValue"/"maxValue": number (integers within the
///   type's width; dates as ISO-8601 text or seconds since 2001-01-01Z),
///   "minLength"/"maxLength": integer ≥ 0 and "pattern": regex (strings),
///   "externalStorage": false (binary, transformable), "media": false (binary),
///   "preserveAfterDeletion": false, "valueTransformer": name (transformable),
///   "touch": "save" (dates), "dateFormat": text (dates),
///   "importKeys": [names], "renamedFrom": name, "renamingIdentifier": text,
///   "versionHashModifier": text,
///   "userInfo": { "key": "value", … }, "comment": text
///
/// default: a string (string, uri), an integer within the width (integer16/
///   32/64), a number (decimal, double, float), true/false (boolean), ISO-8601
///   text, seconds since 2001 or "now" (date), base64 text (binary,
///   transformable), a UUID string or "uuid" (uuid)
///
/// relationship: "destination"*: entity, "inverse"*: relationship of the
///   destination, "toMany": false, "ordered": false, "optional": false,
///   "transient": false, "minCount": 0, "maxCount": 0 (0 = no limit),
///   "deleteRule": "nullify" | "cascade" | "deny" | "noAction",
///   "relatedBy": attribute of the destination, "renamedFrom",
///   "renamingIdentifier", "versionHashModifier", "userInfo", "comment"
/// ```
///
/// Decoding checks each value on its own; ``SchemaValidator`` checks how
/// values relate (destinations, inverses, bounds, inheritance).
///
/// ```swift
/// let model = try SchemaDecoder().decode(data, file: "Schemas/Diary/2.json")
/// ```
public struct SchemaDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes one schema file.
    ///
    /// - Parameters:
    ///   - data: The file's bytes (UTF-8 JSON).
    ///   - file: The file's name as issues should show it.
    /// - Returns: The model, when the file has no problems.
    /// - Throws: ``SchemaError`` listing every problem found while decoding.
    public func decode(_ data: Data, file: String) throws(SchemaError) -> Model {
        let outcome = decodeReportingIssues(data, file: file)
        guard outcome.issues.isEmpty, let model = outcome.model else {
            throw SchemaError(issues: SchemaIssue.inDocumentOrder(outcome.issues))
        }
        return model
    }

    /// Decodes one schema file from text.
    ///
    /// - Throws: ``SchemaError`` listing every problem found while decoding.
    public func decode(_ text: String, file: String) throws(SchemaError) -> Model {
        try decode(Data(text.utf8), file: file)
    }

    // MARK: - Decoding with issues

    /// A best-effort model (placeholders where values could not be read), the
    /// issues found, and where every value is, for locating later issues.
    struct Outcome {
        var model: Model?
        var issues: [SchemaIssue]
        var locations: [String: SourcePosition]
        var placeholders: Set<String>

        /// `issue` with the line and column of its path (or the nearest
        /// enclosing value), unless it only repeats a problem already reported.
        func locate(_ issue: SchemaIssue) -> SchemaIssue? {
            if placeholders.contains(where: { JSONPath.path(issue.path, isWithin: $0) }) {
                return nil
            }
            var located = issue
            for path in [issue.path] + JSONPath.ancestors(of: issue.path) {
                if let position = locations[path] {
                    located.line = position.line
                    located.column = position.column
                    break
                }
            }
            return located
        }
    }

    static let modelKeys = [
        "format", "model", "version", "versionIdentifier", "entities", "fetchRequests",
        "configurations",
    ]

    func decodeReportingIssues(_ data: Data, file: String) -> Outcome {
        var state = State(file: file)
        let root: RecordField
        do {
            root = try JSONReader.parse(data)
        } catch {
            state.report(
                "not JSON: \(error.message)", at: JSONPath.root, line: error.line,
                column: error.column)
            return Outcome(model: nil, issues: state.issues, locations: [:], placeholders: [])
        }
        state.locations[JSONPath.root] = SourcePosition(
            file: file, line: root.line, column: root.column)
        let model = state.decodeModel(root)
        return Outcome(
            model: model, issues: state.issues, locations: state.locations,
            placeholders: state.placeholders)
    }
}

extension SchemaDecoder.State {
    mutating func decodeModel(_ root: RecordField) -> Model? {
        let path = JSONPath.root
        if let format = root["format"] {
            guard case .text(Model.format) = format.value else {
                // Another format's keys would only produce noise; stop here.
                report(
                    "unsupported format \(format.summary); expected \"\(Model.format)\"",
                    at: JSONPath.appending(path, key: "format"), node: format)
                return nil
            }
        }
        guard
            let fields = fields(
                of: root, at: path, allowed: SchemaDecoder.modelKeys, what: "a schema")
        else { return nil }
        if fields.values["format"] == nil {
            report(
                "missing key 'format'; expected \"format\": \"\(Model.format)\"", at: path,
                node: root)
        }
        let name = string(fields, "model", required: "the model's name, such as \"Diary\"")
        let version = fields.values["version"].flatMap {
            integer(
                $0, at: fields.path("version"), in: 1...Int64(Int32.max),
                expected: "a version number from 1")
        }
        if fields.values["version"] == nil {
            report("missing key 'version'; expected a version number from 1", at: path, node: root)
        }
        let identifier = string(fields, "versionIdentifier", allowEmpty: true) ?? ""
        var entities: [Entity] = []
        if let entitiesNode = fields.values["entities"] {
            for member in namedMembers(
                of: entitiesNode, at: fields.path("entities"), what: "entities")
            {
                entities.append(
                    decodeEntity(name: member.name, node: member.node, path: member.path))
            }
        } else {
            report(
                "missing key 'entities'; expected an object of entities by name", at: path,
                node: root)
        }
        let requests = fields.values["fetchRequests"].map {
            decodeFetchRequests($0, at: fields.path("fetchRequests"))
        }
        let configurations = fields.values["configurations"].map {
            decodeConfigurations($0, at: fields.path("configurations"))
        }
        return Model(
            name: name ?? "", version: version.map { Int($0) } ?? 0,
            versionIdentifier: identifier, entities: entities, fetchRequests: requests ?? [],
            configurations: configurations ?? [])
    }
}
