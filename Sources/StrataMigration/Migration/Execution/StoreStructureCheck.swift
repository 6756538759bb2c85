import StrataSchema
import StrataStore

/// Checks, before a migration writes anything, that a store's tables are
/// those of the version its metadata claims.
///
/// A store whose metadata says version 1 but whose tables already carry a
/// later version's (a run interrupted by something other than Strata, a
/// hand-made copy, a foreign tool) would fail half-way ("table ZTAG already
/// exists") or be migrated wrongly; one missing a column of its own version
/// would lose it. Both are refused up front, naming what differs.
///
/// Only names that do not depend on entity numbers are compared (entity
/// tables, attribute and foreign-key columns; for later versions also join
/// tables), since stores Core Data wrote number entities their own way.
struct StoreStructureCheck {
    let store: Store
    /// The version the metadata claims.
    let current: Model
    /// The versions a run would pass through, after `current`.
    let later: [Model]

    /// What differs, one phrase each; empty when the store fits.
    func differences() throws -> [String] {
        let connection = store.connection
        let tables = Set(try connection.tableNames().map { $0.uppercased() })
        var columnsByTable: [String: Set<String>] = [:]
        func columns(_ table: String) throws -> Set<String> {
            if let known = columnsByTable[table] { return known }
            let names = Set(try connection.columns(ofTable: table).map { $0.name.uppercased() })
            columnsByTable[table] = names
            return names
        }

        var differences: [String] = []
        let layout = StoreLayout(model: current)
        var expected: [String: Set<String>] = [:]
        for entity in layout.entities {
            let table = entity.tableName.uppercased()
            expected[table, default: []].formUnion(Self.fixedColumns(of: entity))
        }
        for (table, wanted) in expected.sorted(by: { $0.key < $1.key }) {
            guard tables.contains(table) else {
                differences.append("table \(table) of version \(current.version) is missing")
                continue
            }
            let missing = wanted.subtracting(try columns(table)).sorted()
            if !missing.isEmpty {
                differences.append(
                    "\(table) lacks \(missing.joined(separator: ", ")) of version "
                        + "\(current.version)")
            }
        }

        // Tables and columns that only a later version has.
        let currentTables = Set(
            (layout.entityTables.map(\.name) + layout.joinTables.map(\.name)).map {
                $0.uppercased()
            })
        var reported: Set<String> = []
        for model in later {
            let next = StoreLayout(model: model)
            for table in (next.entityTables.map(\.name) + next.joinTables.map(\.name))
            where !currentTables.contains(table.uppercased())
                && tables.contains(table.uppercased())
                && reported.insert(table.uppercased()).inserted
            {
                differences.append(
                    "has table \(table.uppercased()), which version \(current.version) does not "
                        + "have and version \(model.version) does")
            }
            for entity in next.entities {
                let table = entity.tableName.uppercased()
                guard let ours = expected[table], tables.contains(table) else { continue }
                for column in Self.fixedColumns(of: entity).subtracting(ours).sorted()
                where try columns(table).contains(column)
                    && reported.insert("\(table).\(column)").inserted
                {
                    differences.append(
                        "\(table) has column \(column), which version \(current.version) does "
                            + "not have and version \(model.version) does")
                }
            }
        }
        return differences
    }

    /// Throws ``MigrationError`` (`structureMismatch`) listing the
    /// differences, if there are any.
    package func verify() throws {
        let found = try differences()
        guard !found.isEmpty else { return }
        throw MigrationError(
            .structureMismatch,
            message: "\(store.path): the tables do not match version \(current.version), which "
                + "the store's metadata claims; nothing was changed:\n  "
                + found.joined(separator: "\n  "))
    }

    /// The entity's attribute and foreign-key columns, upper-cased (SQLite
    /// compares names without case).
    private static func fixedColumns(of entity: EntityLayout) -> Set<String> {
        Set(
            (Array(entity.attributeColumns.values) + entity.toOneColumns.values.map(\.foreignKey))
                .map { $0.uppercased() })
    }
}
