import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Values a mapping cannot read

extension MigrationPreflight {
    /// How many unreadable values a finding lists by object before it
    /// only counts them.
    static let unreadableExamples = 10

    /// The values a stage's mapping file would turn into nil: for each
    /// attribute expression that replaces the one attribute it reads (a
    /// text `prepTime` becoming minutes), the stored values it gives nil
    /// for ("overnight"). Each is a loss: blocking, unless the
    /// file discards the attribute (`"discard": ["Recipe.prepTime"]`) or
    /// lossy steps are accepted (then a note).
    ///
    /// Only a stage that starts at the store's version reads today's rows;
    /// later stages' values do not exist yet. Rows are read one at a time.
    func unreadableValues(in stage: MigrationStage) throws -> [MigrationPreview.Finding] {
        guard stage.from == current.version, let file = stage.mapping as? MigrationMapping
        else { return [] }
        var findings: [MigrationPreview.Finding] = []
        let evaluator = ExpressionEvaluator()
        for rule in file.entities where !rule.createsObjects {
            guard let place = mapping.entities[rule.source] else { continue }
            for (name, expression) in rule.attributes.sorted(by: { $0.key < $1.key }) {
                // Only an expression that replaces the very attribute it
                // reads loses what it cannot read: a new attribute derived
                // from one that stays (a title from a name) loses nothing.
                guard expression.keyPaths.count == 1,
                    let (path, attribute) = expression.keyPaths.first,
                    !path.contains("."),
                    file.correspondence.attributes[rule.name]?[name] == path,
                    place.attributeColumns[path] != nil
                else { continue }
                let (count, examples) = try unreadable(
                    expression, evaluator, path: path, attribute: attribute, of: rule.source)
                guard count > 0 else { continue }
                let lost = "\(rule.source).\(path)"
                let accepted =
                    file.discarded.contains(lost) || file.discarded.contains(rule.source)
                let listed =
                    examples.map { "\(rule.source) p\($0.key) \($0.text)" }
                    .joined(separator: ", ") + (count > examples.count ? ", …" : "")
                var message =
                    "\(count) values of \(lost) cannot be read by \(name)'s expression in "
                    + "\(MigrationMapping.fileName(from: stage.from, to: stage.to)) and would "
                    + "become nil: \(listed)"
                let severity: MigrationPreview.Finding.Severity
                if accepted {
                    severity = .note
                    message += " (discarded by the mapping file)"
                } else if options.acceptsLossySteps || options.asCoreData {
                    severity = .note
                    message +=
                        options.asCoreData
                        ? " (accepted: --as-core-data)" : " (accepted: --accept-lossy)"
                } else {
                    severity = .blocking
                    message +=
                        "; acknowledge it with \"discard\": [\"\(lost)\"] in "
                        + "\(MigrationMapping.fileName(from: stage.from, to: stage.to)) or pass "
                        + "--accept-lossy"
                }
                var finding = MigrationPreview.Finding(
                    severity: severity, stage: stage.name, step: lost, message: message)
                finding.isAccepted = severity == .note && !accepted
                findings.append(finding)
            }
        }
        return findings
    }

    /// The stored values of attribute `path` of `entity`'s objects for
    /// which `expression` gives nil (or fails), counted, with the first few
    /// by primary key.
    private func unreadable(
        _ expression: MappingExpression, _ evaluator: ExpressionEvaluator, path: String,
        attribute: Attribute, of entity: String
    ) throws -> (count: Int64, examples: [(key: Int64, text: String)]) {
        var query = RowQuery(entity, [.key, .attribute(path)])
        query.filters = [.isNotNull(.attribute(path))]
        var count: Int64 = 0
        var examples: [(key: Int64, text: String)] = []
        try reader.forEachRow(query) { row in
            let key = row.int64(at: 0)
            let stored = row.value(at: 1)
            let value = MappingValue(
                try ColumnValueCodec.decode(stored, attribute, storeURL: store.url, primaryKey: key)
            )
            let result = try? evaluator.evaluate(expression.node, [path: value])
            guard result == nil || result == .null else { return }
            count += 1
            if examples.count < Self.unreadableExamples {
                examples.append((key, Self.excerpt(stored)))
            }
        }
        return (count, examples)
    }

    /// A stored value as a finding shows it: text quoted and cut short.
    package static func excerpt(_ value: SQLiteValue) -> String {
        switch value {
        case .text(let text):
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\"\(cut)\""
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .blob(let data): return "\(data.count) bytes"
        case .null: return "nil"
        }
    }
}
