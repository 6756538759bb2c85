import StrataCore

/// To-many memberships kept through the destination's key column, written
/// once every row exists: a loader that writes owners and members in any
/// order notes each membership here (a temporary table), and
/// ``apply()`` sets every member's key (and order) column in one pass per
/// relationship.
///
/// Lives inside the caller's write transaction; ``finish()`` drops the
/// temporary table before the commit.
package final class PendingMemberships {
    /// One to-many's storage: the destination's table and columns.
    private struct Slot: Hashable {
        let table: String
        let keyColumn: String
        let orderColumn: String?
    }

    private let connection: Connection
    private var slots: [Slot] = []
    private var slotIndex: [Slot: Int] = [:]
    /// The first relationship using each slot (`Entity.relationship`), for
    /// ``Missing``.
    private var names: [String] = []
    private var insert: Statement?

    /// A member no row has, found by ``apply()``.
    package struct Missing: Sendable, Equatable {
        /// The to-many listing it, `Entity.relationship`.
        package let relationship: String
        /// Its key.
        package let key: Int64
    }

    /// Pending memberships of rows written through `connection`.
    ///
    /// - Throws: ``SQLiteError`` when the temporary table cannot be made.
    package init(connection: Connection) throws {
        self.connection = connection
        try connection.execute(
            "CREATE TEMP TABLE strata_members (slot INTEGER, pk INTEGER, owner INTEGER, position INTEGER)"
        )
    }

    /// Notes that `member` (a key of `table`) belongs to `owner`'s to-many
    /// `relationship` (`Entity.relationship`, for errors), kept in
    /// `keyColumn` (and at `position` in `orderColumn`, when ordered).
    package func add(
        member: Int64, owner: Int64, position: Int64, relationship: String, table: String,
        keyColumn: String, orderColumn: String?
    ) throws {
        let slot = Slot(table: table, keyColumn: keyColumn, orderColumn: orderColumn)
        let number: Int
        if let known = slotIndex[slot] {
            number = known
        } else {
            number = slots.count
            slotIndex[slot] = number
            slots.append(slot)
            names.append(relationship)
        }
        let statement: Statement
        if let insert {
            statement = insert
        } else {
            statement = try connection.prepare(
                "INSERT INTO temp.strata_members VALUES (?, ?, ?, ?)")
            insert = statement
        }
        try statement.bind(Int64(number), at: 1)
        try statement.bind(member, at: 2)
        try statement.bind(owner, at: 3)
        try statement.bind(position, at: 4)
        try statement.execute()
    }

    /// Writes every membership noted, once every row exists. Rows whose
    /// columns already say so (a bundle lists both sides) are left alone:
    /// rewriting a row rewrites its media too.
    ///
    /// - Returns: The first member that no row has (it would be dropped
    ///   silently), nil when there is none.
    /// - Throws: ``SQLiteError``.
    package func apply() throws -> Missing? {
        let quoted = SQLiteIdentifier.quoted
        for (number, slot) in slots.enumerated() {
            var sets = ["\(quoted(slot.keyColumn)) = m.owner"]
            var differs = ["t.\(quoted(slot.keyColumn)) IS NOT m.owner"]
            if let order = slot.orderColumn {
                sets.append("\(quoted(order)) = m.position")
                differs.append("t.\(quoted(order)) IS NOT m.position")
            }
            // One pass over the pending links, each finding its row by key.
            try connection.execute(
                "UPDATE \(quoted(slot.table)) AS t SET \(sets.joined(separator: ", ")) "
                    + "FROM (SELECT pk, owner, position FROM temp.strata_members WHERE slot = ?1) "
                    + "AS m WHERE t.Z_PK = m.pk AND (\(differs.joined(separator: " OR ")))",
                [.integer(Int64(number))])
            if let missing = try connection.scalar(
                "SELECT m.pk FROM temp.strata_members AS m WHERE m.slot = ?1 AND NOT EXISTS "
                    + "(SELECT 1 FROM \(quoted(slot.table)) AS t WHERE t.Z_PK = m.pk) LIMIT 1",
                [.integer(Int64(number))])?.int64Value
            {
                return Missing(relationship: names[number], key: missing)
            }
        }
        return nil
    }

    /// Drops the temporary table; call before the commit.
    package func finish() throws {
        insert = nil
        try connection.execute("DROP TABLE temp.strata_members")
    }
}
