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

    func sourceQuery(
        _ rule: MappedEntity, entity: StoreMapping.EntityMapping, paths: [String: Attribute]
    ) throws -> SourceQuery {
        var from = "\(SQLiteIdentifier.quoted(entity.table)) AS \(PredicateSQLCompiler.rootAlias)"
        var columns = ["\(PredicateSQLCompiler.rootAlias).Z_PK"]
        var arguments: [SQLiteValue] = []
        if let condition = rule.condition {
            try PredicateSQLFunctions.register(on: source)
            var compiler = try PredicateSQLCompiler(mapping: sourceTables, entity: rule.source)
            compiler.predicateText = condition
            let sql = try compiler.condition(FetchPredicate(condition))
            from = compiler.fromClause
            columns.append("CASE WHEN \(sql) THEN 1 ELSE 0 END")
            arguments = compiler.arguments
        }
        let firstValue = columns.count
        var joins: [String] = []
        var aliases: [String: String] = [:]
        let ordered = paths.sorted { $0.key < $1.key }
        for (path, attribute) in ordered {
            columns.append(try column(path, attribute, from: rule.source, &joins, &aliases))
        }
        let numbers = entity.treeNumbers
        let sql =
            "SELECT \(columns.joined(separator: ", ")) FROM \(from) \(joins.joined(separator: " ")) "
            + "WHERE \(PredicateSQLCompiler.rootAlias).Z_ENT IN "
            + "(\(numbers.map { _ in "?" }.joined(separator: ", "))) "
            + "ORDER BY \(PredicateSQLCompiler.rootAlias).Z_PK"
        let statement = try source.prepare(sql)
        try statement.bind(arguments + numbers.map { .integer(Int64($0)) })
        return SourceQuery(
            statement: statement, hasCondition: rule.condition != nil,
            paths: ordered.map { ($0.key, $0.value) }, firstValue: firstValue)
    }

    /// The SQL of one key path's value: `t0.ZTEXT`, or through `LEFT JOIN`s
    /// for each to-one crossed (`m1.ZTITLE`); `NULL` when the store lacks a
    /// column.
    private func column(
        _ path: String, _ attribute: Attribute, from entity: String, _ joins: inout [String],
        _ aliases: inout [String: String]
    ) throws -> String {
        let names = path.split(separator: ".").map(String.init)
        var alias = PredicateSQLCompiler.rootAlias
        var current = entity
        for (index, name) in names.dropLast().enumerated() {
            guard
                let relationship = mapping.source.allRelationships(of: current).first(where: {
                    $0.name == name
                }),
                let key = sourceTables.entity(named: current)?.toOne[name],
                let target = sourceTables.entity(named: relationship.destination)
            else { return "NULL" }
            let prefix = names[0...index].joined(separator: ".")
            if let known = aliases[prefix] {
                alias = known
            } else {
                let next = "m\(aliases.count + 1)"
                joins.append(
                    "LEFT JOIN \(SQLiteIdentifier.quoted(target.table)) AS \(next) ON "
                        + "\(next).Z_PK = \(alias).\(SQLiteIdentifier.quoted(key.foreignKey))")
                aliases[prefix] = next
                alias = next
            }
            current = relationship.destination
        }
        guard let column = sourceTables.entity(named: current)?.attributeColumns[attribute.name]
        else { return "NULL" }
        return "\(alias).\(SQLiteIdentifier.quoted(column))"
    }
}
