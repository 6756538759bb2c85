import StrataSchema
import StrataStore

// MARK: - Z_PRIMARYKEY

extension MigrationScriptBuilder {
    /// Rewrites `Z_PRIMARYKEY` when entity numbers, names or parents change.
    /// Core Data keeps the highest key of an inheritance tree (`Z_MAX`) on
    /// its root row only; a new root takes the highest `Z_MAX` of the old
    /// roots whose rows it took, so keys are never reused.
    mutating func planPrimaryKeys() {
        func rows(_ layout: StoreLayout) -> [[String]] {
            layout.entities.map { ["\($0.number)", $0.name, "\($0.superNumber)"] }
        }
        guard rows(context.sourceLayout) != rows(context.destinationLayout) else { return }
        let saved = SQLName.sql("strata_old_primarykey")
        var statements = [
            MigrationStatement(
                "CREATE TEMP TABLE \(saved) AS SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX "
                    + "FROM Z_PRIMARYKEY", phase: .primaryKeys),
            MigrationStatement("DELETE FROM Z_PRIMARYKEY", phase: .primaryKeys),
        ]
        let insert = "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX)"
        for entity in context.destinationLayout.entities {
            let name: [AttributeValue] = [.string(entity.name)]
            let oldRoots = entity.superNumber == 0 ? formerRoots(ofTable: entity.tableName) : []
            if oldRoots.isEmpty {
                statements.append(
                    MigrationStatement(
                        "\(insert) VALUES (\(entity.number), ?, \(entity.superNumber), 0)", name,
                        phase: .primaryKeys))
            } else {
                let numbers = oldRoots.map(String.init).joined(separator: ", ")
                statements.append(
                    MigrationStatement(
                        "\(insert) SELECT \(entity.number), ?, 0, COALESCE(MAX(Z_MAX), 0) "
                            + "FROM \(saved) WHERE Z_ENT IN (\(numbers))", name,
                        phase: .primaryKeys))
            }
        }
        statements.append(MigrationStatement("DROP TABLE \(saved)", phase: .primaryKeys))
        changes.append(
            TableChange(
                table: "Z_PRIMARYKEY", strategy: .rewrite, sources: ["Z_PRIMARYKEY"], steps: [],
                statements: statements))
    }

    /// The old numbers of the roots of the old tables whose rows the new
    /// table `table` takes.
    private func formerRoots(ofTable table: String) -> [Int] {
        var roots: Set<Int> = []
        for entity in context.destinationLayout.entities where entity.tableName == table {
            guard let former = context.formerEntity(of: entity.name),
                let root = context.source.rootEntity(of: former)?.name,
                let number = context.sourceNumbers[root]
            else { continue }
            roots.insert(number)
        }
        return roots.sorted()
    }
}
