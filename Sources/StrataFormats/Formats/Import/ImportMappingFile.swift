import Foundation
import StrataCore
import StrataSchema

/// A `strata-import/1` mapping file: how the fields of an input become an
/// entity's properties, kept beside the input so an import can be repeated.
///
/// ```json
/// {
///   "format": "strata-import/1",
///   "entity": "Recipe",
///   "fields": { "Kind": "type", "Notes": "" },
///   "compute": { "prepTime": "integer(before(prepTime, \" \"))" },
///   "unique": ["name"],
///   "dateFormat": "dd.MM.yyyy",
///   "columns": ["name", "prepTime"]
/// }
/// ```
///
/// `fields` maps input fields to properties (an empty name leaves a field
/// out); `compute` gives attributes values computed from the fields (a
/// field whose name is not a plain word is written between backquotes:
/// `` number(`Culmen Length (mm)`) ``); `unique`, `dateFormat`, `timeZone`,
/// `columns` and `ignoreUnknown` are the options of the same names. `nulls`
/// lists the cell texts that mean no value (``ImportOptions/nulls``), and
/// `fieldNulls` those of single attributes, text ones included
/// (``ImportOptions/fieldNulls``). `fileNameInto` names the attribute that
/// gets each file's name in a txt-files import (``ImportOptions/fileNameInto``).
/// Options given on the command line win.
///
/// Each key appears once in an object. Every `compute` expression is
/// checked as the file loads (its functions, their numbers and types of
/// arguments; see ``ComputedAttribute``) and against the input's fields
/// before anything is written.
public enum ImportMappingFile {
    /// Applies the mapping file at `path` to `options`.
    ///
    /// - Throws: ``ImportError`` located at the line, column and JSON path
    ///   of what is wrong (for an expression, at its column): a repeated
    ///   key, an unknown function, a call with too few or too many
    ///   arguments or of the wrong types.
    public static func apply(_ path: String, to options: inout ImportOptions) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path), "cannot read the mapping file")
        }
        try apply(data: data, file: path, to: &options)
    }

    /// Applies the mapping file `data`, read from `path`, to `options`.
    package static func apply(data: Data, file path: String, to options: inout ImportOptions) throws
    {
        let root: RecordField
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw ImportError(
                .syntax, at: SourcePosition(file: path, line: error.line, column: error.column),
                error.message)
        }
        func position(_ node: RecordField, _ keyPath: String) -> SourcePosition {
            SourcePosition(file: path, line: node.line, column: node.column, keyPath: keyPath)
        }
        func fail(_ node: RecordField, _ keyPath: String, _ message: String) -> ImportError {
            ImportError(.structure, at: position(node, keyPath), message)
        }
        /// The members of an object, each key once.
        func uniqueMembers(_ node: RecordField, _ keyPath: String, _ expected: String) throws
            -> [RecordField]
        {
            guard case .dictionary(let members) = node.value else {
                throw fail(node, keyPath, "expected \(expected), found \(node.summary)")
            }
            var first: [String: RecordField] = [:]
            for member in members {
                if let earlier = first[member.key] {
                    throw ImportError(
                        .structure,
                        at: SourcePosition(
                            file: path, line: member.keyLine, column: member.keyColumn,
                            keyPath: JSONPath.appending(keyPath, key: member.key)),
                        "duplicate key '\(member.key)' (first at line \(earlier.keyLine), column "
                            + "\(earlier.keyColumn)); each key may appear once")
                }
                first[member.key] = member
            }
            return members
        }
        let members = try uniqueMembers(root, "$", "an object")
        guard case .text("strata-import/1")? = root["format"]?.value else {
            throw fail(
                root["format"] ?? root, "$.format", "expected \"format\": \"strata-import/1\"")
        }
        func string(_ node: RecordField, _ keyPath: String) throws -> String {
            guard case .text(let text) = node.value else {
                throw fail(node, keyPath, "expected a string, found \(node.summary)")
            }
            return text
        }
        func strings(_ node: RecordField, _ keyPath: String) throws -> [String] {
            guard case .array(let items) = node.value else {
                throw fail(node, keyPath, "expected an array of strings, found \(node.summary)")
            }
            return try items.enumerated().map { try string($1, "\(keyPath)[\($0)]") }
        }
        for member in members {
            let keyPath = JSONPath.appending("$", key: member.key)
            let node = member
            switch member.key {
            case "format":
                continue
            case "entity":
                if options.entity == nil { options.entity = try string(node, keyPath) }
            case "fields":
                let pairs = try uniqueMembers(node, keyPath, "an object of field: property")
                for pair in pairs where options.fieldMap[pair.key] == nil {
                    options.fieldMap[pair.key] = try string(
                        pair, JSONPath.appending(keyPath, key: pair.key))
                }
            case "compute":
                let pairs = try uniqueMembers(node, keyPath, "an object of attribute: expression")
                for pair in pairs {
                    let pairPath = JSONPath.appending(keyPath, key: pair.key)
                    let expression = try string(pair, pairPath)
                    options.computed.append(
                        try ComputedAttribute(
                            attribute: pair.key, expression: expression,
                            at: position(pair, pairPath)))
                }
            case "unique":
                if options.uniqueKey == nil { options.uniqueKey = try strings(node, keyPath) }
            case "columns":
                if options.columns == nil { options.columns = try strings(node, keyPath) }
            case "dateFormat":
                if options.dateFormat == nil { options.dateFormat = try string(node, keyPath) }
            case "timeZone":
                let name = try string(node, keyPath)
                guard let zone = TimeZone(identifier: name) else {
                    throw fail(node, keyPath, "unknown time zone '\(name)'")
                }
                options.timeZone = zone
            case "nulls":
                if options.nulls.isEmpty { options.nulls = try strings(node, keyPath) }
            case "fieldNulls":
                let pairs = try uniqueMembers(node, keyPath, "an object of attribute: [tokens]")
                for pair in pairs where options.fieldNulls[pair.key] == nil {
                    options.fieldNulls[pair.key] = try strings(
                        pair, JSONPath.appending(keyPath, key: pair.key))
                }
            case "fileNameInto":
                if options.fileNameInto == nil {
                    let name = try string(node, keyPath)
                    guard !name.isEmpty else {
                        throw fail(node, keyPath, "expected an attribute's name, found \"\"")
                    }
                    options.fileNameInto = name
                }
            case "ignoreUnknown":
                guard case .boolean(let flag) = node.value else {
                    throw fail(node, keyPath, "expected true or false, found \(node.summary)")
                }
                options.ignoresUnknownFields = options.ignoresUnknownFields || flag
            default:
                throw fail(
                    node, keyPath,
                    "unknown key '\(member.key)' (known: entity, fields, compute, unique, columns, dateFormat, timeZone, nulls, fieldNulls, fileNameInto, ignoreUnknown)"
                )
            }
        }
    }
}
