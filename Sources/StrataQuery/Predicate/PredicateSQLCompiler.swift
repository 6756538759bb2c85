import StrataCore
import StrataSchema
import StrataStore

/// Compiles predicates and key paths over one entity into SQL on the tables
/// of one store (coredata-format.md §1.3–1.5).
///
/// The entity's table is `t0`; each to-one path the predicate or the sort
/// keys follow becomes one `LEFT JOIN` with its own alias, shared by every
/// use of the path. To-many relationships become correlated subqueries
/// (`EXISTS`, `COUNT(*)`) through the inverse foreign key or the join table.
/// Every value is bound: the SQL text holds only quoted identifiers, aliases,
/// operators and `?`.
///
/// ```swift
/// var compiler = try PredicateSQLCompiler(mapping: mapping, entity: "DiaryEntry")
/// let condition = try compiler.condition(predicate)
/// let sql = "SELECT t0.Z_PK FROM \(compiler.fromClause) WHERE \(condition)"
/// let rows = try connection.prepare(sql)
/// try rows.bind(compiler.arguments)
/// ```
///
/// Statements using string operators with `[c]`/`[d]`, `LIKE` or `MATCHES`
/// need the functions of ``PredicateSQLFunctions`` on their connection.
public struct PredicateSQLCompiler {
    /// The most to-one joins one scope makes (SQLite's limit is 64 tables
    /// per SELECT, the scope's own table and subqueries' included).
    static let maximumJoins = 60

    /// The alias of the entity's own table in ``fromClause``.
    public static let rootAlias = "t0"

    /// The store's tables and columns.
    public let mapping: StoreMapping
    /// The entity whose objects the predicate selects.
    public let entityName: String
    /// The predicate's text, quoted in errors (empty when built in code).
    public var predicateText = ""
    /// Renders the predicate's text for an error message, used when
    /// ``predicateText`` is empty: rendering it up front would cost every
    /// fetch a string build that only a failure needs.
    package var predicateTextProvider: (() -> String)?

    /// The text errors quote.
    var quotedText: String {
        predicateText.isEmpty ? predicateTextProvider?() ?? "" : predicateText
    }
    /// The values bound to the `?` of the conditions compiled so far, in
    /// order.
    public private(set) var arguments: [SQLiteValue] = []

    /// The top-level scope: `t0` and its joins.
    private var root: Scope
    /// Aliases handed out so far (`t1`, `t2`, … and `j1`, … for join tables).
    var aliasCount = 0
    /// The SQL nesting open at the part being compiled, in the units of
    /// ``PredicateLimits/maximumSQLNesting``.
    var nesting = 0

    /// A table in a `FROM` clause with the to-one joins made from it.
    package struct Scope {
        var alias: String
        var entity: String
        var joins: [String] = []
        var joinAliases: [String: String] = [:]
    }

    /// What a key path leads to.
    package enum Target {
        /// An attribute's column.
        case attribute(String, Attribute)
        /// A to-one relationship's foreign key (its value is the `Z_PK` of
        /// the destination).
        case toOne(String, destination: String)
        /// The object itself (`Z_PK`), at the end of an empty path.
        case object(String, entity: String)
        /// A to-many relationship from `alias`, with the path beyond it.
        case toMany(alias: String, entity: String, Relationship, rest: [String])
    }

    /// A compiler for predicates on `entity`.
    ///
    /// - Throws: ``FetchPredicateError`` (`unknownEntity`) when the mapping has no
    ///   such entity.
    public init(mapping: StoreMapping, entity: String) throws {
        guard mapping.entity(named: entity) != nil else {
            throw FetchPredicateError(
                .unknownEntity, predicate: "", column: 1,
                message: "the model has no entity '\(entity)'")
        }
        self.mapping = mapping
        self.entityName = entity
        self.root = Scope(alias: PredicateSQLCompiler.rootAlias, entity: entity)
    }

    /// The entity's table as `t0`, followed by the joins that the compiled
    /// conditions and sort keys need.
    public var fromClause: String {
        let table = (try? table(of: entityName)) ?? entityName
        return ([SQLiteIdentifier.quoted(table) + " AS " + root.alias] + root.joins)
            .joined(separator: " ")
    }

    /// The SQL condition for `predicate`; its values are appended to
    /// ``arguments``.
    ///
    /// The condition is two-valued: where SQL would give NULL (a comparison
    /// with a missing value) it counts as false, also under `NOT` and `ALL`,
    /// as the in-memory evaluation does.
    ///
    /// - Throws: ``FetchPredicateError`` for keys the model does not have, a
    ///   to-many key path without a quantifier, unbound variables and
    ///   operands the operator cannot take; `tooComplex` for a predicate
    ///   beyond what SQLite takes: more than
    ///   500 comparisons, nesting deeper than SQLite's parser takes (about 6
    ///   nested to-many steps, 20 nested `AND`/`OR` groups or 26 nested
    ///   `NOT`s), or more than 32,766 values.
    public mutating func condition(_ predicate: FetchPredicate) throws -> String {
        let shape = predicate.shape
        if let error = FetchPredicate.depthError(shape.depth, quoting: predicateText) {
            throw error
        }
        guard shape.comparisons <= PredicateLimits.maximumComparisons else {
            throw error(
                .tooComplex, column: 1,
                "the predicate has \(shape.comparisons) comparisons; SQLite takes at most "
                    + "\(PredicateLimits.maximumComparisons) in one query (use IN {…} for "
                    + "many values)")
        }
        var scope = root
        defer { root = scope }
        let sql = try condition(predicate, in: &scope)
        guard arguments.count <= PredicateLimits.maximumArguments else {
            throw error(
                .tooComplex, column: 1,
                "the predicate binds \(arguments.count) values; SQLite takes at most "
                    + "\(PredicateLimits.maximumArguments)")
        }
        return sql
    }

    /// The SQL expression of an attribute reached by `keyPath` (dotted,
    /// through to-one relationships), for `ORDER BY`, with the attribute.
    ///
    /// - Throws: ``FetchPredicateError`` (`unknownKey`) when the path does not end
    ///   at an attribute or crosses a to-many relationship.
    public mutating func attributeExpression(keyPath: String) throws -> (
        sql: String, attribute: Attribute
    ) {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var scope = root
        defer { root = scope }
        guard case .attribute(let sql, let attribute) = try resolve(path, column: 1, in: &scope)
        else {
            throw error(.unknownKey, column: 1, "'\(keyPath)' is not an attribute of \(entityName)")
        }
        return (sql, attribute)
    }

    /// What `keyPath` (dotted) reaches from the entity: an attribute, a
    /// to-one's key or a to-many, its to-one steps joined into
    /// ``fromClause`` — the one resolution predicates, sort keys and export
    /// fields share.
    ///
    /// - Throws: ``FetchPredicateError`` (`unknownKey`) for a key the model
    ///   lacks, a key beyond an attribute, or a property without a column.
    package mutating func target(keyPath: String) throws -> Target {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var scope = root
        defer { root = scope }
        return try resolve(path, column: 1, in: &scope)
    }

    /// Runs `body` `levels` deeper in the SQL being built; nesting beyond
    /// ``PredicateLimits/maximumSQLNesting`` is an error at `column`, before
    /// SQLite's parser would overflow on it.
    mutating func deeper<T>(
        by levels: Int, column: Int, _ body: (inout PredicateSQLCompiler) throws -> T
    ) throws -> T {
        guard nesting + levels <= PredicateLimits.maximumSQLNesting else {
            let limit = PredicateLimits.maximumSQLNesting
            throw error(
                .tooComplex, column: column,
                "the predicate nests too deeply for SQLite here; it takes about "
                    + "\(limit / PredicateLimits.subqueryNesting) nested to-many steps "
                    + "(ANY, ALL, NONE, @count), \(limit / PredicateLimits.groupNesting) "
                    + "nested AND/OR groups or \(limit / PredicateLimits.notNesting) "
                    + "nested NOTs, fewer when mixed")
        }
        nesting += levels
        defer { nesting -= levels }
        return try body(&self)
    }

    // MARK: - Boolean structure

    package mutating func condition(_ predicate: FetchPredicate, in scope: inout Scope) throws
        -> String
    {
        switch predicate {
        case .constant(let value):
            return value ? "1" : "0"
        case .not(let inner):
            // `IS NOT 1` keeps NULL (unknown) on the false side under NOT.
            let sql = try deeper(by: PredicateLimits.notNesting, column: predicate.firstColumn) {
                try $0.condition(inner, in: &scope)
            }
            return "((\(sql)) IS NOT 1)"
        case .and(let parts):
            guard !parts.isEmpty else { return "1" }
            return try deeper(by: PredicateLimits.groupNesting, column: predicate.firstColumn) {
                compiler in
                "("
                    + (try parts.map { try compiler.condition($0, in: &scope) })
                    .joined(separator: " AND ") + ")"
            }
        case .or(let parts):
            guard !parts.isEmpty else { return "0" }
            return try deeper(by: PredicateLimits.groupNesting, column: predicate.firstColumn) {
                compiler in
                "("
                    + (try parts.map { try compiler.condition($0, in: &scope) })
                    .joined(separator: " OR ") + ")"
            }
        case .comparison(let comparison):
            return try self.comparison(comparison, in: &scope)
        }
    }

    // MARK: - Key paths

    /// Follows `path` from the scope's table: to-one steps become joins of
    /// the scope; the first to-many step stops the walk.
    package mutating func resolve(_ path: [String], column: Int, in scope: inout Scope) throws
        -> Target
    {
        var alias = scope.alias
        var entity = scope.entity
        var walked: [String] = []
        if path.isEmpty || path == ["self"] {
            return .object("\(alias).\"Z_PK\"", entity: entity)
        }
        for (index, key) in path.enumerated() {
            let isLast = index == path.count - 1
            guard let mappingEntity = mapping.entity(named: entity) else {
                throw error(.unknownEntity, column: column, "the model has no entity '\(entity)'")
            }
            if let attribute = mapping.model.allAttributes(of: entity).first(where: {
                $0.name == key
            }) {
                guard isLast else {
                    throw error(
                        .unknownKey, column: column,
                        "\(entity).\(key) is an attribute; '\(path.joined(separator: "."))' "
                            + "cannot go beyond it")
                }
                guard let name = mappingEntity.attributeColumns[key] else {
                    throw error(
                        .unknownKey, column: column,
                        "\(entity).\(key) is not stored (transient), so it cannot be fetched on")
                }
                return .attribute("\(alias).\(SQLiteIdentifier.quoted(name))", attribute)
            }
            guard
                let relationship = mapping.model.allRelationships(of: entity).first(where: {
                    $0.name == key
                })
            else {
                throw error(.unknownKey, column: column, "\(entity) has no property '\(key)'")
            }
            if relationship.isToMany {
                return .toMany(
                    alias: alias, entity: entity, relationship,
                    rest: Array(path[(index + 1)...]))
            }
            guard let foreignKey = mappingEntity.toOne[key]?.foreignKey else {
                throw error(
                    .unknownKey, column: column, "\(entity).\(key) has no column in the store")
            }
            let keyColumn = "\(alias).\(SQLiteIdentifier.quoted(foreignKey))"
            if isLast { return .toOne(keyColumn, destination: relationship.destination) }
            walked.append(key)
            let joinKey = walked.joined(separator: ".")
            if let known = scope.joinAliases[joinKey] {
                alias = known
            } else {
                // SQLite joins at most 64 tables in one SELECT; say which
                // key path went too far instead of its bare refusal.
                guard scope.joins.count < Self.maximumJoins else {
                    throw error(
                        .tooComplex, column: column,
                        "'\(path.joined(separator: "."))' follows more than "
                            + "\(Self.maximumJoins) to-one relationships, more than one "
                            + "SQLite query can join; shorten the key path (a loop such as "
                            + "\(entity).\(key) back and forth reaches no new object)")
                }
                let next = newAlias("t")
                let table = try self.table(of: relationship.destination)
                scope.joins.append(
                    "LEFT JOIN \(SQLiteIdentifier.quoted(table)) AS \(next)"
                        + " ON \(next).\"Z_PK\" = \(keyColumn)")
                scope.joinAliases[joinKey] = next
                alias = next
            }
            entity = relationship.destination
        }
        // The loop returns on its last step.
        throw error(.unknownKey, column: column, "empty key path")
    }

    /// The `FROM … WHERE` of a correlated subquery over the destinations of
    /// a to-many relationship from `alias`: the destination table is the new
    /// scope's alias, and the link to the owner is the returned condition.
    mutating func toManySource(
        _ relationship: Relationship, from alias: String, entity: String, column: Int
    ) throws -> (scope: Scope, from: String, link: String) {
        guard let how = mapping.entity(named: entity)?.toMany[relationship.name] else {
            throw error(
                .unknownKey, column: column,
                "\(entity).\(relationship.name) has no inverse column or join table in the store")
        }
        let destination = newAlias("t")
        let table = SQLiteIdentifier.quoted(try self.table(of: relationship.destination))
        let scope = Scope(alias: destination, entity: relationship.destination)
        switch how {
        case .inverseForeignKey(_, let column, _):
            return (
                scope, "\(table) AS \(destination)",
                "\(destination).\(SQLiteIdentifier.quoted(column)) = \(alias).\"Z_PK\""
            )
        case .joinTable(let joinTable, let sourceColumn, let destinationColumn, _):
            let join = newAlias("j")
            return (
                scope,
                "\(SQLiteIdentifier.quoted(joinTable)) AS \(join) JOIN \(table) AS \(destination)"
                    + " ON \(destination).\"Z_PK\" = \(join).\(SQLiteIdentifier.quoted(destinationColumn))",
                "\(join).\(SQLiteIdentifier.quoted(sourceColumn)) = \(alias).\"Z_PK\""
            )
        }
    }

    /// `EXISTS (SELECT 1 FROM … WHERE link AND condition)` text, given the
    /// scope's joins.
    func subquery(_ select: String, _ scope: Scope, from: String, link: String, _ rest: String)
        -> String
    {
        let joins = scope.joins.isEmpty ? "" : " " + scope.joins.joined(separator: " ")
        let condition = rest.isEmpty ? "" : " AND \(rest)"
        return "(SELECT \(select) FROM \(from)\(joins) WHERE \(link)\(condition))"
    }

    mutating func newAlias(_ prefix: String) -> String {
        aliasCount += 1
        return "\(prefix)\(aliasCount)"
    }

    package func table(of entity: String) throws -> String {
        guard let table = mapping.entity(named: entity)?.table else {
            throw error(.unknownEntity, column: 1, "the model has no entity '\(entity)'")
        }
        return table
    }

    /// Binds `value` and returns its placeholder.
    package mutating func bind(_ value: SQLiteValue) -> String {
        arguments.append(value)
        return "?"
    }

    package func error(_ code: FetchPredicateError.Code, column: Int, _ message: String)
        -> FetchPredicateError
    {
        FetchPredicateError(code, predicate: quotedText, column: column, message: message)
    }
}
