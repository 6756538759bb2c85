import StrataSchema
import StrataStore

/// Turns the correspondence of two versions into table changes: for every
/// table of the newer layout, where each column's values come from, and
/// whether the old table can be altered in place or must be rebuilt.
///
/// Rebuilds follow SQLite's procedure for changes `ALTER TABLE` cannot make
/// (https://sqlite.org/lang_altertable.html, "Making Other Kinds Of Table
/// Schema Changes"): "create new table, copy data, drop old table, rename new
/// into old", then recreate the indexes. The new table is created under a
/// temporary name only when its final name is still taken by an old table.
struct MigrationScriptBuilder {
    let context: PlanContext
    let steps: [MigrationStep]
    var changes: [TableChange] = []
    /// Old tables kept under their name (altered or untouched), upper-cased.
    var keptInPlace: Set<String> = []
    /// Every old table name, upper-cased (SQLite compares names that way).
    let oldTables: Set<String>

    init(_ context: PlanContext, steps: [MigrationStep]) {
        self.context = context
        self.steps = steps
        oldTables = Set(
            (context.sourceLayout.entityTables.map(\.name)
                + context.sourceLayout.joinTables.map(\.name)).map { $0.uppercased() })
    }

    package mutating func build() -> [TableChange] {
        for table in context.destinationLayout.entityTables { planEntityTable(table) }
        for join in context.destinationLayout.joinTables { planJoinTable(join) }
        planDrops()
        planPrimaryKeys()
        for index in changes.indices {
            let table = changes[index].table
            changes[index].steps = steps.indices.filter { steps[$0].tables.contains(table) }
        }
        return changes
    }

    // MARK: - Entity tables

    private mutating func planEntityTable(_ table: TableLayout) {
        let tree = context.destinationLayout.entities.filter { $0.tableName == table.name }
        var sources: [String] = []
        for entity in tree {
            if let old = context.formerEntity(of: entity.name).flatMap(context.sourceTable(of:)),
                !sources.contains(old)
            {
                sources.append(old)
            }
        }
        guard !sources.isEmpty else {
            create(table)
            return
        }
        let values = sources.map { columnValues(of: table, from: $0) }
        if sources.count == 1, sources[0].uppercased() == table.name.uppercased(),
            let altered = alter(table, values: values[0])
        {
            keptInPlace.insert(table.name.uppercased())
            if !altered.statements.isEmpty { changes.append(altered) }
            return
        }
        rebuild(table, sources: sources, values: values)
    }

    /// The rows of `source` that belong in `table`, by old entity number.
    func rowNumbers(of table: TableLayout, from source: String) -> [Int: Int] {
        var numbers: [Int: Int] = [:]
        for entity in context.destinationLayout.entities where entity.tableName == table.name {
            guard let former = context.formerEntity(of: entity.name),
                context.sourceTable(of: former) == source,
                let old = context.sourceNumbers[former]
            else { continue }
            numbers[old] = entity.number
        }
        return numbers
    }

    /// Whether `source` holds rows that do not belong in `table`.
    private func hasOtherRows(_ source: String, than table: TableLayout) -> [Int]? {
        let kept = Set(rowNumbers(of: table, from: source).keys)
        let all = context.sourceLayout.entities.filter { $0.tableName == source }.map(\.number)
        return all.allSatisfy(kept.contains) ? nil : kept.sorted()
    }

    private mutating func create(_ table: TableLayout) {
        // A new table whose name an old one still holds waits for the drop.
        let phase: MigrationPhase = oldTables.contains(table.name.uppercased()) ? .finish : .build
        var statements = [MigrationStatement(StoreLayout.createTableSQL(table), phase: phase)]
        statements += table.indexes.map {
            MigrationStatement(StoreLayout.createIndexSQL($0, on: table.name), phase: .finish)
        }
        changes.append(
            TableChange(
                table: table.name, strategy: .create, sources: [], steps: [],
                statements: statements))
    }

    /// The in-place change of a kept table, or nil when it needs a rebuild:
    /// every old column must stay with its type, and no value may need a
    /// window function.
    private func alter(_ table: TableLayout, values: [String: ColumnValue]) -> TableChange? {
        guard let old = context.sourceLayout.entityTables.first(where: { $0.name == table.name })
        else { return nil }
        let newTypes = Dictionary(table.columns.map { ($0.name, $0.type) }) { first, _ in first }
        guard old.columns.allSatisfy({ newTypes[$0.name] == $0.type }),
            !values.values.contains(where: \.needsRebuild)
        else { return nil }
        let oldNames = Set(old.columns.map(\.name))
        let quoted = SQLName.sql(table.name)
        var statements: [MigrationStatement] = []
        if let kept = hasOtherRows(old.name, than: table) {
            let numbers = kept.map(String.init).joined(separator: ", ")
            statements.append(
                MigrationStatement(
                    kept.isEmpty
                        ? "DELETE FROM \(quoted)"
                        : "DELETE FROM \(quoted) WHERE Z_ENT NOT IN (\(numbers))", phase: .alter,
                    writesRows: true))
        }
        var sets: [String] = []
        var arguments: [AttributeValue] = []
        var fills: [MigrationStatement] = []
        for column in table.columns {
            let value = values[column.name] ?? .null
            if !oldNames.contains(column.name) {
                statements.append(
                    MigrationStatement(
                        "ALTER TABLE \(quoted) ADD COLUMN "
                            + "\(SQLName.sql(column.name)) \(column.type)",
                        phase: .alter))
                if value == .null { continue }
            } else if value == .column(column.name) {
                continue
            } else if case .coalesce(.column(let name), let fallback) = value,
                name == column.name
            {
                // Only the NULLs change: rewriting every row for them would
                // make a kept column's default cost a pass over the table.
                let sql = fallback.sql(over: table.name)
                let target = SQLName.sql(column.name)
                fills.append(
                    MigrationStatement(
                        "UPDATE \(quoted) SET \(target) = \(sql.text) WHERE \(target) IS NULL",
                        sql.arguments, phase: .alter, writesRows: true))
                continue
            }
            let sql = value.sql(over: table.name)
            sets.append("\(SQLName.sql(column.name)) = \(sql.text)")
            arguments += sql.arguments
        }
        if !sets.isEmpty {
            statements.append(
                MigrationStatement(
                    "UPDATE \(quoted) SET \(sets.joined(separator: ", "))", arguments,
                    phase: .alter, writesRows: true))
        }
        // After the other values, which read the columns as they were.
        statements += fills
        statements += Self.indexChanges(from: old.indexes, to: table.indexes, on: table.name)
        return TableChange(
            table: table.name, strategy: .alter, sources: [old.name], steps: [],
            statements: statements)
    }

    /// Drops the old indexes (by the names they have; a plan fitted to a
    /// store has the names `sqlite_master` lists) that the new table does
    /// not have under the same name and definition, then creates the new
    /// ones that are missing, in the recent naming style.
    static func indexChanges(
        from old: [TableLayout.Index], to new: [TableLayout.Index], on table: String
    ) -> [MigrationStatement] {
        var statements: [MigrationStatement] = []
        for index in old where !new.contains(where: index.isSame) {
            statements.append(
                MigrationStatement("DROP INDEX \(SQLName.sql(index.name))", phase: .alter))
        }
        for index in new where !old.contains(where: index.isSame) {
            statements.append(
                MigrationStatement(StoreLayout.createIndexSQL(index, on: table), phase: .finish))
        }
        return statements
    }

    private mutating func rebuild(
        _ table: TableLayout, sources: [String], values: [[String: ColumnValue]]
    ) {
        let building = temporaryName(for: table.name)
        var statements = [
            MigrationStatement(
                StoreLayout.createTableSQL(
                    TableLayout(name: building, columns: table.columns, indexes: [])),
                phase: .build)
        ]
        for (source, values) in zip(sources, values) {
            let filter = hasOtherRows(source, than: table).map { kept in
                let numbers = kept.map(String.init).joined(separator: ", ")
                return " WHERE \(SQLName.sql(source)).Z_ENT IN (\(numbers))"
            }
            statements.append(
                insert(
                    into: building, columns: table.columns.map(\.name), values: values,
                    from: source, filter: filter ?? ""))
        }
        statements += finish(table, builtAs: building)
        changes.append(
            TableChange(
                table: table.name, strategy: .rebuild, sources: sources, steps: [],
                statements: statements))
    }

    /// `INSERT INTO new (…) SELECT … FROM old …`, leaving out NULL columns.
    package func insert(
        into table: String, columns: [String], values: [String: ColumnValue], from source: String,
        filter: String
    ) -> MigrationStatement {
        var names: [String] = []
        var expressions: [String] = []
        var arguments: [AttributeValue] = []
        for column in columns {
            let value = values[column] ?? .null
            guard value != .null else { continue }
            let sql = value.sql(over: source)
            names.append(SQLName.sql(column))
            expressions.append(sql.text)
            arguments += sql.arguments
        }
        return MigrationStatement(
            "INSERT INTO \(SQLName.sql(table)) (\(names.joined(separator: ", "))) SELECT "
                + "\(expressions.joined(separator: ", ")) FROM \(SQLName.sql(source))\(filter)",
            arguments, phase: .build)
    }

    /// A name for building `table` while an old table still holds its name;
    /// Core Data's names all start with `Z`, so this one cannot clash.
    func temporaryName(for table: String) -> String {
        oldTables.contains(table.uppercased()) ? "strata_new_\(table)" : table
    }

    /// Rename the built table to its final name, then create its indexes.
    package func finish(_ table: TableLayout, builtAs building: String) -> [MigrationStatement] {
        var statements: [MigrationStatement] = []
        if building != table.name {
            statements.append(
                MigrationStatement(
                    "ALTER TABLE \(SQLName.sql(building)) RENAME TO \(SQLName.sql(table.name))",
                    phase: .finish))
        }
        return statements
            + table.indexes.map {
                MigrationStatement(StoreLayout.createIndexSQL($0, on: table.name), phase: .finish)
            }
    }

    // MARK: - Drops

    /// Drops every old table not kept in place, after all new tables are
    /// filled; the drop belongs to the change that took the table's rows.
    private mutating func planDrops() {
        let old =
            context.sourceLayout.entityTables.map(\.name)
            + context.sourceLayout.joinTables.map(\.name)
        for name in old where !keptInPlace.contains(name.uppercased()) {
            let drop = MigrationStatement("DROP TABLE \(SQLName.sql(name))", phase: .drop)
            let owner =
                changes.firstIndex { $0.table == name && $0.sources.contains(name) }
                ?? changes.firstIndex { $0.sources.contains(name) }
            if let owner {
                changes[owner].statements.append(drop)
            } else {
                changes.append(
                    TableChange(
                        table: name, strategy: .drop, sources: [name], steps: [],
                        statements: [drop]))
            }
        }
    }
}
