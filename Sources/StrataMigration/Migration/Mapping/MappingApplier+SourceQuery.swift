import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Reading the source rows

extension MappingApplier {
    /// The statement that streams a rule's source rows: `Z_PK`, then the
    /// `where` flag (1 keeps the row) when the rule has one, then one column
    /// per key path, in primary-key order.
    struct SourceQuery {
        var statement: Statement
        var hasCondition: Bool
        var paths: [(path: String, attribute: Attribute)]
        var firstValue: Int
    }

    /// The source rows of `rule`'s entity (and its subentities) with the
    /// values of `paths`: an attribute, or one reached through to-ones
    /// (NULL where a link is empty or the store lacks a column on the way).
    func sourceQuery(_ rule: MappedEntity, paths: [String: Attribute]) throws -> SourceQuery {
        var query = RowQuery(rule.source, [.key])
        if let condition = rule.condition {
            try PredicateSQLFunctions.register(on: source)
            var compiler = try PredicateSQLCompiler(mapping: sourceTables, entity: rule.source)
            compiler.predicateText = condition
            let sql = try compiler.condition(FetchPredicate(condition))
            query.from = compiler.fromClause
            query.columns.append(.compiled("CASE WHEN \(sql) THEN 1 ELSE 0 END"))
            query.arguments = compiler.arguments
        }
        let firstValue = query.columns.count
        let ordered = paths.sorted { $0.key < $1.key }
        for (path, _) in ordered {
            query.columns.append(.keyPath(path.split(separator: ".").map(String.init)))
        }
        let reader = RowReader(source, tables: sourceTables, path: source.path)
        let statement = try reader.prepare(query)
        return SourceQuery(
            statement: statement, hasCondition: rule.condition != nil,
            paths: ordered.map { ($0.key, $0.value) }, firstValue: firstValue)
    }
}
