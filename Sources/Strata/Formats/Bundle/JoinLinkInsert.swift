/// Inserts the rows of an unordered join table (`owner`, `member`) many at
/// a time: one statement of ``rowsPerStatement`` rows costs about what a
/// few one-row statements do, and a bundle has a link per tag of every
/// entry. `INSERT OR IGNORE`, so a link listed twice is kept once.
final class JoinLinkInsert {
    /// The rows of the many-row statement.
    static let rowsPerStatement = 32

    private let one: Statement
    private let many: Statement
    private var pending: [(owner: Int64, member: Int64)] = []

    init(connection: Connection, table: String, ownerColumn: String, memberColumn: String) throws {
        let quoted = SQLiteIdentifier.quoted
        let head =
            "INSERT OR IGNORE INTO \(quoted(table)) (\(quoted(ownerColumn)), \(quoted(memberColumn))) VALUES "
        one = try connection.prepare(head + "(?, ?)")
        many = try connection.prepare(
            head + Array(repeating: "(?, ?)", count: Self.rowsPerStatement).joined(separator: ", "))
        pending.reserveCapacity(Self.rowsPerStatement)
    }

    /// Adds the link of `owner` to `member`; written by a later ``flush()``
    /// at the latest.
    func add(owner: Int64, member: Int64) throws {
        pending.append((owner, member))
        if pending.count == Self.rowsPerStatement {
            for (index, link) in pending.enumerated() {
                try many.bind(link.owner, at: Int32(2 * index + 1))
                try many.bind(link.member, at: Int32(2 * index + 2))
            }
            try many.execute()
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the links still waiting.
    func flush() throws {
        for link in pending {
            try one.bind(link.owner, at: 1)
            try one.bind(link.member, at: 2)
            try one.execute()
        }
        pending.removeAll(keepingCapacity: true)
    }
}
