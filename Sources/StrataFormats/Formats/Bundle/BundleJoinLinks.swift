import StrataCore
import StrataSchema
import StrataStore

/// The links of many-to-many pairs, which a bundle lists from both sides
/// (`DiaryEntry.tags` and `Tag.entries` name the same rows of one join
/// table), written once.
///
/// Of the two relationships of an unordered pair kept in one join table,
/// the *primary* is the one whose owner column leads the table's primary
/// key: its lines come in owner order, so its links are appended to the
/// key's index rather than scattered through it. The *mirror*'s links are
/// not inserted; both sides are summarised by an order-free hash (the
/// wrapping sum of a per-run seeded 64-bit hash of each link, and the
/// count), and only when the two summaries differ — the sides disagree,
/// or a side lists a link twice — are the mirror's files read again and
/// its links added (``BundleLoader`` does that). Agreeing sides give the
/// same join table as inserting both; disagreeing ones give their union,
/// as inserting both would.
///
/// Pairs kept otherwise (ordered, one-sided, reflexive, through a foreign
/// key) are written directly, as listed.
struct BundleJoinLinks {
    /// What to do with one relationship's links.
    enum Role: Equatable {
        /// Insert each link.
        case direct
        /// Insert each link and add it to the table's summary.
        case primary(table: Int)
        /// Only add each link to the table's summary.
        case mirror(table: Int)
    }

    /// The order-free summary of one side's links.
    struct Summary: Equatable {
        var sum: UInt64 = 0
        var count = 0

        package mutating func add(_ link: (first: Int64, second: Int64)) {
            var hasher = Hasher()  // Seeded per process: links cannot be chosen to collide.
            hasher.combine(link.first)
            hasher.combine(link.second)
            sum &+= UInt64(bitPattern: Int64(hasher.finalize()))
            count += 1
        }
    }

    /// One join table whose links are listed from both sides.
    struct Table {
        /// The join table's name.
        let name: String
        /// The column leading its primary key: the primary side's owners.
        let leadingColumn: String
        /// The other column: the mirror side's owners.
        let mirrorColumn: String
        /// The relationships (`Entity.relationship`) that only summarise.
        var mirrors: Set<String> = []
        var primary = Summary()
        var mirror = Summary()
    }

    private(set) var tables: [Table] = []
    private var roles: [String: Role] = [:]

    /// No pairs: every link is inserted as listed.
    init() {}

    /// Assigns roles to the to-manys of `mapping`'s entities; `leadingColumn`
    /// gives the first primary-key column of a join table, read from the
    /// store.
    init(
        model: Model, mapping: StoreMapping, leadingColumn: (String) throws -> String?
    ) rethrows {
        var sides: [String: [(key: String, source: String)]] = [:]
        for (entity, entityMapping) in mapping.entities {
            for relationship in model.allRelationships(of: entity)
            where relationship.isToMany && !relationship.isTransient {
                let key = "\(entity).\(relationship.name)"
                guard
                    case .joinTable(let table, let source, _, nil)? =
                        entityMapping.toMany[relationship.name],
                    relationship.hasInverse,
                    relationship.inverse != relationship.name
                        || relationship.destination != entity
                else { continue }
                sides[table, default: []].append((key, source))
            }
        }
        for (table, listed) in sides.sorted(by: { $0.key < $1.key }) {
            let sources = Set(listed.map(\.source))
            guard sources.count == 2, let leading = try leadingColumn(table),
                sources.contains(leading), let other = sources.first(where: { $0 != leading })
            else { continue }
            let index = tables.count
            var entry = Table(name: table, leadingColumn: leading, mirrorColumn: other)
            for side in listed {
                if side.source == leading {
                    roles[side.key] = .primary(table: index)
                } else {
                    roles[side.key] = .mirror(table: index)
                    entry.mirrors.insert(side.key)
                }
            }
            tables.append(entry)
        }
    }

    /// The column that leads join table `table`'s primary key, as the
    /// store's file has it.
    static func leadingColumn(of table: String, in connection: Connection) throws -> String? {
        try connection.columns(ofTable: table).first { $0.primaryKeyIndex == 1 }?.name
    }

    /// The role of `entity`'s to-many `relationship`.
    func role(of relationship: String, in entity: String) -> Role {
        roles["\(entity).\(relationship)"] ?? .direct
    }

    /// Adds the link of `owner` to `member` (keys) to its side's summary.
    package mutating func add(owner: Int64, member: Int64, role: Role) {
        switch role {
        case .direct: break
        case .primary(let table): tables[table].primary.add((owner, member))
        case .mirror(let table): tables[table].mirror.add((member, owner))
        }
    }

    /// The join-table columns (`table.column`) that only hold keys of
    /// objects whose own lines listed the link: both columns of each table
    /// whose two sides agree (each link was listed by the line of its
    /// primary owner, and — the summaries being equal — by the line of its
    /// mirror owner). Every such key names a row loaded.
    var knownColumns: Set<String> {
        tables.filter { $0.primary == $0.mirror }.reduce(into: []) { known, table in
            known.insert("\(table.name).\(table.leadingColumn)")
            known.insert("\(table.name).\(table.mirrorColumn)")
        }
    }

    /// The mirror relationships (`Entity.relationship`) whose links must be
    /// added: those of tables whose two sides differ.
    var disagreeingMirrors: Set<String> {
        tables.filter { $0.primary != $0.mirror }.reduce(into: []) { $0.formUnion($1.mirrors) }
    }
}
