import Foundation
import StrataValues

/// Writes a ``Model`` as canonical `strata-schema/1` text.
///
/// The same model always gives the same bytes: top-level keys in the order
/// `format`, `model`, `version`, `versionIdentifier`, `entities`,
/// `fetchRequests`, `configurations`; entities, properties, fetch requests
/// and configurations sorted by name (indexes keep their order); inside each, keys in the order the
/// `SchemaFormat` article lists them; values equal to their default left out.
/// Each attribute and relationship takes one line, which keeps diffs between
/// versions readable. Dates are ISO-8601 text when that reads back exactly,
/// seconds since 2001 otherwise.
///
/// `SchemaDecoder().decode(SchemaEncoder().encode(model))` equals `model` for
/// every model the decoder can produce.
///
/// ```swift
/// let text = try SchemaEncoder().encode(model)
/// ```
public struct SchemaEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The canonical text of `model`, ending with a newline.
    ///
    /// - Throws: ``SchemaError`` when a value has no JSON form (an infinite
    ///   or NaN bound or default).
    public func encode(_ model: Model) throws(SchemaError) -> String {
        var writer = Writer()
        writer.text += "{\n"
        var top = ["\"format\": \(Writer.quote(Model.format))"]
        top.append("\"model\": \(Writer.quote(model.name))")
        top.append("\"version\": \(model.version)")
        if !model.versionIdentifier.isEmpty {
            top.append("\"versionIdentifier\": \(Writer.quote(model.versionIdentifier))")
        }
        for line in top { writer.text += "  \(line),\n" }
        var groups: [String] = []
        if model.entities.isEmpty {
            groups.append("  \"entities\": {}")
        } else {
            var entities = "  \"entities\": {\n"
            for (index, entity) in model.entities.enumerated() {
                entities += writer.entityText(entity, last: index == model.entities.count - 1)
            }
            groups.append(entities + "  }")
        }
        if !model.fetchRequests.isEmpty {
            groups.append(
                Writer.group("fetchRequests", model.fetchRequests.map(Writer.fetchRequestLine)))
        }
        if !model.configurations.isEmpty {
            groups.append(
                Writer.group("configurations", model.configurations.map(Writer.configurationLine)))
        }
        writer.text += groups.joined(separator: ",\n") + "\n}\n"
        guard writer.issues.isEmpty else { throw SchemaError(issues: writer.issues) }
        return writer.text
    }

    /// The canonical text of `model` as UTF-8 bytes.
    ///
    /// - Throws: ``SchemaError`` when a value has no JSON form.
    public func encodeData(_ model: Model) throws(SchemaError) -> Data {
        Data(try encode(model).utf8)
    }
}

extension SchemaEncoder {
    /// Accumulates the text, and the values that cannot be written.
    struct Writer {
        var text = ""
        var issues: [SchemaIssue] = []

        static func quote(_ string: String) -> String {
            JSONWriter.quoted(string)
        }

        static func list(_ strings: [String]) -> String {
            "[" + strings.map(quote).joined(separator: ", ") + "]"
        }

        mutating func number(_ value: Double, at path: String) -> String {
            guard value.isFinite else {
                issues.append(
                    SchemaIssue(
                        file: "", path: path,
                        message: "\(value) has no JSON form; expected a "
                            + "finite number"))
                return "0"
            }
            return JSONWriter.numberText(value)
        }

        mutating func date(_ seconds: Double, at path: String) -> String {
            ISO8601Date.string(from: seconds).map(Self.quote) ?? number(seconds, at: path)
        }

        /// `  "key": {` + one member per line + `  }`.
        static func group(_ key: String, _ members: [String]) -> String {
            "  \(quote(key)): {\n" + members.map { "    " + $0 }.joined(separator: ",\n") + "\n  }"
        }

        mutating func entityText(_ entity: Entity, last: Bool) -> String {
            var fields: [(String, String)] = []
            if let parent = entity.parent { fields.append(("parent", Self.quote(parent))) }
            if entity.isAbstract { fields.append(("abstract", "true")) }
            if let name = entity.renamedFrom { fields.append(("renamedFrom", Self.quote(name))) }
            if let label = entity.renamingIdentifier {
                fields.append(("renamingIdentifier", Self.quote(label)))
            }
            if let modifier = entity.versionHashModifier {
                fields.append(("versionHashModifier", Self.quote(modifier)))
            }
            if !entity.uniquenessConstraints.isEmpty {
                let lists = entity.uniquenessConstraints.map(Self.list)
                fields.append(("uniquenessConstraints", "[" + lists.joined(separator: ", ") + "]"))
            }
            if !entity.indexes.isEmpty {
                // One index per line, like properties, for readable diffs.
                let indexes = entity.indexes.map { "        " + Self.index($0) }
                fields.append(("indexes", "[\n" + indexes.joined(separator: ",\n") + "\n      ]"))
            }
            if !entity.userInfo.isEmpty { fields.append(("userInfo", Self.map(entity.userInfo))) }
            if let comment = entity.comment { fields.append(("comment", Self.quote(comment))) }
            var groups: [(String, [String])] = []
            if !entity.attributes.isEmpty {
                groups.append(
                    (
                        "attributes",
                        entity.declaredOrder.arranged(entity.attributes, name: \.name).map {
                            attributeLine($0, in: entity)
                        }
                    ))
            }
            if !entity.relationships.isEmpty {
                groups.append(
                    (
                        "relationships",
                        entity.declaredOrder.arranged(entity.relationships, name: \.name).map(
                            relationshipLine)
                    ))
            }
            let comma = last ? "" : ","
            if fields.isEmpty && groups.isEmpty {
                return "    \(Self.quote(entity.name)): {}\(comma)\n"
            }
            let text = "    \(Self.quote(entity.name)): {\n"
            var lines = fields.map { "      \(Self.quote($0.0)): \($0.1)" }
            for (key, members) in groups {
                lines.append(
                    "      \(Self.quote(key)): {\n"
                        + members.map { "        " + $0 }.joined(separator: ",\n")
                        + "\n      }")
            }
            return text + lines.joined(separator: ",\n") + "\n    }\(comma)\n"
        }
    }
}
