import Foundation
import StrataCore
import StrataQuery
import StrataSchema

/// Reads a `strata-mapping/1` file into a ``MigrationMapping``, checking it
/// against both model versions and collecting every problem with its
/// location.
struct MappingDecoder {
    let file: String
    let source: Model
    let destination: Model
    let correspondence: SchemaCorrespondence
    var issues: [MappingIssue] = []
    /// (source entity, property) pairs that expressions and paths read.
    var reads: Set<[String]> = []
    /// Where each relationship rule's key stands, by (destination entity,
    /// relationship), for issues about two rules.
    var ruleLocations: [[String]: (line: Int, column: Int)] = [:]
    /// The source entity of each rule that creates objects, by destination
    /// entity, read before the rules so that a link may point at objects a
    /// later rule creates.
    var creators: [String: String] = [:]

    init(file: String, source: Model, destination: Model) {
        self.file = file
        self.source = source
        self.destination = destination
        self.correspondence = SchemaCorrespondence(from: source, to: destination)
    }

    static let rootKeys = ["format", "from", "to", "entities", "discard", "comment"]

    /// Issues in document order, unlocated ones last.
    var sortedIssues: [MappingIssue] {
        issues.enumerated().sorted { left, right in
            (left.element.line ?? .max, left.element.column ?? .max, left.offset)
                < (right.element.line ?? .max, right.element.column ?? .max, right.offset)
        }.map(\.element)
    }

    package mutating func decode(_ data: Data) -> MigrationMapping? {
        let root: RecordField
        do {
            root = try JSONReader.parse(data)
        } catch {
            report(
                "not JSON: \(error.message)", at: JSONPath.root, line: error.line,
                column: error.column)
            return nil
        }
        if let format = root["format"], format.value != .text(MigrationMapping.format) {
            report(
                "unsupported format \(format.summary); expected \"\(MigrationMapping.format)\"",
                at: "$.format", node: format)
            return nil
        }
        guard
            let fields = fields(
                of: root, at: JSONPath.root, allowed: Self.rootKeys, what: "a mapping")
        else { return nil }
        if fields["format"] == nil {
            report(
                "missing key 'format'; expected \"format\": \"\(MigrationMapping.format)\"",
                at: JSONPath.root, node: root)
        }
        for (key, model) in [("from", source), ("to", destination)] {
            guard let node = fields[key] else {
                report(
                    "missing key '\(key)'; expected the version number \(model.version)",
                    at: JSONPath.root, node: root)
                continue
            }
            guard case .integer(let version) = node.value, version == model.version else {
                report(
                    "expected \(model.version) (the mapping is loaded for \(source.name) "
                        + "\(source.version) to \(destination.version)), found \(node.summary)",
                    at: "$.\(key)", node: node)
                continue
            }
        }
        var entities: [MappedEntity] = []
        if let node = fields["entities"], case .dictionary(let members) = node.value {
            for member in members {
                guard case .text(let sourceName)? = member["source"]?.value,
                    source.entity(named: sourceName) != nil,
                    destination.entity(named: member.key) != nil,
                    correspondence.entities[member.key] != sourceName
                else { continue }
                creators[member.key] = sourceName
            }
        }
        if let node = fields["entities"] {
            for member in namedMembers(of: node, at: "$.entities", what: "entity rules") {
                if let entity = decodeEntity(member.name, member.node, at: member.path) {
                    entities.append(entity)
                }
            }
        }
        checkInverseConflicts(entities)
        let discarded = fields["discard"].map { decodeDiscard($0, at: "$.discard") } ?? []
        return MigrationMapping(
            file: file, source: source, destination: destination, entities: entities,
            discarded: discarded, reads: reads)
    }

    // MARK: - Reporting

    package mutating func report(
        _ message: String, at path: String, line: Int?, column: Int?,
        expressionColumn: Int? = nil, expression: String? = nil
    ) {
        issues.append(
            MappingIssue(
                file: file, path: path, line: line, column: column,
                expressionColumn: expressionColumn, expression: expression, message: message))
    }

    package mutating func report(_ message: String, at path: String, node: RecordField) {
        report(message, at: path, line: node.line, column: node.column)
    }

    // MARK: - Objects and values

    /// The members of an object with a fixed set of keys; reports a value
    /// that is not an object, unknown keys and repeated keys.
    package mutating func fields(
        of node: RecordField, at path: String, allowed: [String], what: String
    ) -> [String: RecordField]? {
        var result: [String: RecordField] = [:]
        for member in namedMembers(of: node, at: path, what: what) {
            guard allowed.contains(member.name) else {
                report(
                    "unknown key '\(member.name)' in \(what); allowed keys: "
                        + allowed.joined(separator: ", "),
                    at: member.path, line: member.line, column: member.column)
                continue
            }
            result[member.name] = member.node
        }
        guard case .dictionary = node.value else { return nil }
        return result
    }

    /// The members of an object, in document order, without repeated keys.
    mutating func namedMembers(
        of node: RecordField, at path: String, what: String
    ) -> [(name: String, node: RecordField, path: String, line: Int, column: Int)] {
        guard case .dictionary(let members) = node.value else {
            report("expected \(what) as an object, found \(node.summary)", at: path, node: node)
            return []
        }
        var result: [(name: String, node: RecordField, path: String, line: Int, column: Int)] = []
        var first: [String: RecordField] = [:]
        for member in members {
            let memberPath = JSONPath.appending(path, key: member.key)
            if let earlier = first[member.key] {
                report(
                    "duplicate key '\(member.key)' (first at line \(earlier.keyLine), column "
                        + "\(earlier.keyColumn)); each key may appear once",
                    at: memberPath, line: member.keyLine, column: member.keyColumn)
                continue
            }
            first[member.key] = member
            result.append((member.key, member, memberPath, member.keyLine, member.keyColumn))
        }
        return result
    }

    /// A non-empty string.
    package mutating func text(_ node: RecordField, at path: String, expected: String) -> String? {
        guard case .text(let text) = node.value, !text.isEmpty else {
            report("expected \(expected), found \(node.summary)", at: path, node: node)
            return nil
        }
        return text
    }

    /// An expression over objects of source entity `entity`, parsed and
    /// type-checked.
    mutating func expression(
        _ node: RecordField, at path: String, over entity: String
    ) -> MappingExpression? {
        guard let text = text(node, at: path, expected: "an expression as a string") else {
            return nil
        }
        var checker = ExpressionChecker(model: source, entity: entity)
        do {
            let tree = try ExpressionParser.parse(text)
            let type = try checker.type(of: tree)
            for path in tree.keyPaths { noteRead(path, from: entity) }
            return MappingExpression(
                text: text, path: path, node: tree, type: type, keyPaths: checker.keyPaths)
        } catch {
            report(
                error.message, at: path, line: node.line, column: node.column,
                expressionColumn: error.column, expression: text)
            return nil
        }
    }

    /// Records that a path starting at `entity` reads its first property.
    mutating func noteRead(_ path: [String], from entity: String) {
        guard let first = path.first,
            let owner = PlanContext.declaringEntity(of: first, from: entity, in: source)
        else { return }
        reads.insert([owner, first])
    }
}
