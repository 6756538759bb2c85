import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// The one prepared `SELECT` an export streams its rows from — compiled
/// from the entity, the predicate and the sort keys through
/// ``PredicateSQLCompiler`` — and the fields read from each row.
final class ExportQuery {
    /// The store read.
    let store: Store
    /// The store's model.
    let model: Model
    /// Where each entity and property lives in this store.
    let mapping: StoreMapping
    /// The entity exported.
    let entity: String
    /// The fields, in output order.
    let fields: [ExportField]
    /// The rows: `Z_PK, Z_ENT`, then the fields' columns.
    let statement: Statement
    /// Entity names by the store's numbers.
    let namesByNumber: [Int: String]
    /// The `Z_ENT` values of the rows exported.
    let entityNumbers: Set<Int>
    /// The rows' query, for ``total()``.
    private let rowQuery: RowQuery
    /// Whether a predicate chooses the rows (then ``total()`` is nil).
    private let isFiltered: Bool

    /// Compiles the query of `options` on `store`.
    ///
    /// - Throws: ``ExportError`` `unknownField` for an entity, field, sort key
    ///   or nested relationship the model lacks; ``FetchPredicateError`` for a
    ///   predicate that does not fit the model.
    init(store: Store, model: Model, mapping: StoreMapping, options: ExportOptions) throws {
        self.store = store
        self.model = model
        self.mapping = mapping
        self.entity = options.entity
        namesByNumber = Dictionary(store.entityRecords.map { ($0.number, $0.name) }) { a, _ in a }
        guard let entityMapping = mapping.entities[options.entity],
            model.entity(named: options.entity) != nil
        else {
            throw ExportError(
                .unknownField, path: store.path,
                "the model has no entity '\(options.entity)' (entities: "
                    + model.entities.map(\.name).sorted().joined(separator: ", ") + ")")
        }
        // In the order the schema file lists them, parents' first.
        let attributes = model.attributesInDeclaredOrder(of: options.entity).filter {
            !$0.isTransient && entityMapping.attributeColumns[$0.name] != nil
        }
        let relationships = model.allRelationships(of: options.entity).filter { !$0.isTransient }
        let names =
            options.fields
            ?? attributes.map(\.name)
            + options.nested.filter { !attributes.map(\.name).contains($0) }

        // Rows in key order over the whole entity: each to-many is read by
        // one scan in owner order beside the rows (a merge), not by one
        // lookup per row; a hundred thousand lookups cost more than the rest
        // of an archive.
        let merges =
            options.sortDescriptors.isEmpty && options.predicate == nil && options.limit == 0
        var columns: [RowColumn] = [.key, .entity]
        var fields: [ExportField] = []
        if options.includesIDs { fields.append(ExportField(name: "_id", source: .id)) }
        func nextColumn() -> Int32 { Int32(columns.count) }
        var compiler = try PredicateSQLCompiler(mapping: mapping, entity: options.entity)
        for name in names {
            if name.contains(".") {
                let source = try Self.keyPathSource(
                    name, compiler: &compiler, column: nextColumn(), path: store.path)
                fields.append(ExportField(name: name, source: source.source))
                columns.append(.compiled(source.sql))
            } else if let attribute = attributes.first(where: { $0.name == name }) {
                fields.append(
                    ExportField(name: name, source: .attribute(attribute, column: nextColumn())))
                // A value read in pieces later only needs its first bytes here.
                columns.append(
                    options.prefixOnly.contains(name)
                        ? .attributePrefix(name, bytes: ExportQuery.prefixLength)
                        : .attribute(name))
            } else if let relationship = relationships.first(where: { $0.name == name }) {
                if options.nested.contains(name) {
                    let rows = try ExportQuery.relatedRows(
                        relationship, from: entityMapping, store: store, model: model,
                        mapping: mapping, inOwnerOrder: merges && relationship.isToMany)
                    var keyColumn: Int32?
                    if !relationship.isToMany, entityMapping.toOne[name] != nil {
                        keyColumn = nextColumn()
                        columns.append(.toOne(name))
                    }
                    fields.append(
                        ExportField(
                            name: name, source: .nested(relationship, rows, keyColumn: keyColumn)))
                } else if relationship.isToMany {
                    let rows = try ExportQuery.relatedRows(
                        relationship, from: entityMapping, store: store, model: model,
                        mapping: mapping, attributes: false, inOwnerOrder: merges)
                    fields.append(ExportField(name: name, source: .toMany(relationship, rows)))
                } else if let toOne = entityMapping.toOne[name] {
                    let keyColumn = nextColumn()
                    columns.append(.toOne(name))
                    var entityColumn: Int32?
                    if toOne.entityColumn != nil {
                        entityColumn = nextColumn()
                        columns.append(.toOneEntity(name))
                    }
                    fields.append(
                        ExportField(
                            name: name,
                            source: .toOne(
                                relationship, column: keyColumn, entityColumn: entityColumn)))
                }
            } else {
                throw ExportError(
                    .unknownField, path: store.path,
                    "\(options.entity) has no attribute or relationship '\(name)' (it has: "
                        + (attributes.map(\.name) + relationships.map(\.name)).joined(
                            separator: ", ") + ")")
            }
        }
        for name in options.nested where !names.contains(name) {
            throw ExportError(
                .unknownField, path: store.path,
                "cannot nest '\(name)': it is not among the fields written")
        }
        self.fields = fields

        if let predicate = options.predicate {
            try predicate.check(entity: options.entity, model: model)
            compiler.predicateText = predicate.description
        }
        let condition = try options.predicate.map { try compiler.condition($0) }
        var order: [String] = []
        for sort in options.sortDescriptors {
            let expression: String
            do {
                expression = try compiler.attributeExpression(keyPath: sort.key).sql
            } catch {
                throw ExportError(
                    .unknownField, path: store.path,
                    "cannot sort \(options.entity) by '\(sort.key)': \(error)")
            }
            order.append(expression + (sort.ascending ? " ASC" : " DESC"))
        }
        let numbers =
            options.includesSubentities ? entityMapping.treeNumbers : [entityMapping.number]
        // The other entities of the table are left out by number; a row
        // whose Z_ENT names no entity is read too, so that the writers
        // refuse it (checkEntity()) rather than leave it out unseen, without
        // a second scan of the table.
        let others = Self.otherEntities(of: numbers, in: store)
        entityNumbers = Set(numbers)
        var query = RowQuery(options.entity, columns)
        query.entities = .allBut(others)
        query.from = compiler.fromClause
        if let condition { query.filters = [.compiled(condition)] }
        query.arguments = compiler.arguments
        query.order = order
        query.limit = options.limit > 0 ? options.limit : nil
        statement = try RowReader(store, tables: mapping).prepare(query)
        rowQuery = query
        isFiltered = options.predicate != nil
    }

    /// How many objects the export writes, when that costs no more than a
    /// count of the entity's rows: nil when a predicate chooses them (the
    /// count would evaluate it over the whole table a second time).
    func total() throws -> Int? {
        guard !isFiltered else { return nil }
        return Int(try RowReader(store, tables: mapping).count(rowQuery))
    }

    /// The source of a field named by a key path through to-one
    /// relationships (`species.name`): the attribute it ends at, read from a
    /// column the compiler joins in, as the predicate and the sort keys
    /// resolve key paths.
    ///
    /// - Throws: ``ExportError`` `unknownField` for a path the model does not
    ///   have, one that ends at a relationship, or one through a to-many.
    private static func keyPathSource(
        _ name: String, compiler: inout PredicateSQLCompiler, column: Int32, path: String
    ) throws -> (source: ExportField.Source, sql: String) {
        let target: PredicateSQLCompiler.Target
        do {
            target = try compiler.target(keyPath: name)
        } catch let error as FetchPredicateError {
            throw ExportError(
                .unknownField, path: path, "cannot write the field '\(name)': \(error.message)")
        }
        switch target {
        case .attribute(let sql, let attribute):
            return (.attribute(attribute, column: column), sql)
        case .toMany(_, let owner, let relationship, _):
            throw ExportError(
                .unknownField, path: path,
                "cannot write the field '\(name)': \(owner).\(relationship.name) is to-many, "
                    + "and a field holds one value; write \(relationship.destination) "
                    + "objects in an export of their own, or nest them with --nest (plist, JSON)")
        case .toOne(_, let destination), .object(_, entity: let destination):
            throw ExportError(
                .unknownField, path: path,
                "cannot write the field '\(name)': it ends at a \(destination) object; name "
                    + "one of its attributes (\(name).<attribute>)")
        }
    }

    /// The statement reading the destinations of `relationship` from one
    /// row, with their attributes when `attributes` is true.
    ///
    /// With `inOwnerOrder` (a to-many of rows read in key order) the
    /// statement reads every owner's destinations at once, ordered by owner,
    /// with the owner's key as its last column, for
    /// ``ExportRelatedRows/forEachRow(of:_:)`` to merge beside the rows.
    static func relatedRows(
        _ relationship: Relationship, from owner: StoreMapping.EntityMapping, store: Store,
        model: Model, mapping: StoreMapping, attributes withAttributes: Bool = true,
        inOwnerOrder: Bool = false
    ) throws -> ExportRelatedRows {
        guard let destination = mapping.entities[relationship.destination] else {
            throw ExportError(
                .unknownField, path: store.path,
                "\(relationship.name) leads to \(relationship.destination), which the store lacks")
        }
        let attributes =
            withAttributes
            ? model.allAttributes(of: relationship.destination).filter {
                !$0.isTransient && destination.attributeColumns[$0.name] != nil
            } : []
        if relationship.isToMany, owner.toMany[relationship.name] == nil {
            throw ExportError(
                .unknownField, path: store.path,
                "the store has no table for the relationship \(relationship.name)")
        }
        let rows = try RowReader(store, tables: mapping).destinations(
            of: relationship, from: owner, attributes: attributes, inOwnerOrder: inOwnerOrder)
        return ExportRelatedRows(
            relationship: relationship, statement: rows.statement, attributes: attributes,
            bindsDestinationKey: rows.bindsDestinationKey, ownerColumn: rows.ownerColumn)
    }

    /// The bytes of a ``ExportOptions/prefixOnly`` attribute selected: enough
    /// for the external-storage marker and file name, or for sniffing.
    static let prefixLength = 96

    /// The numbers of the store's entities other than `numbers` whose rows
    /// are in the same table as theirs.
    private static func otherEntities(of numbers: [Int], in store: Store) -> [Int] {
        let byNumber = store.entityRecordsByNumber
        func root(_ number: Int) -> Int {
            guard let record = byNumber[number] else { return number }
            return Store.root(of: record, in: byNumber).number
        }
        let roots = Set(numbers.map(root))
        let wanted = Set(numbers)
        return store.entityRecords.map(\.number).filter {
            !wanted.contains($0) && roots.contains(root($0))
        }
    }

    /// Throws when the current row's `Z_ENT` is not one of the entities
    /// exported: a number that names no entity of the table (the query
    /// reads such rows so that they are refused, not left out unseen).
    ///
    /// - Throws: ``ExportError`` `store` naming the row.
    @inline(__always)
    func checkEntity() throws {
        let number = statement.int64(at: 1)
        if entityNumbers.contains(Int(number)), statement.columnType(1) == .integer { return }
        let value = statement.columnType(1) == .null ? "NULL" : String(number)
        throw ExportError(
            .store, path: store.path,
            "\(entity)/p\(statement.int64(at: 0)) (a row of \(entity)'s table): its Z_ENT \(value)"
                + " names no entity, so the export would leave it out; nothing was written")
    }

    /// The object's id text, `Entity/p<pk>`.
    func idText(number: Int64, key: Int64, fallback: String) -> String {
        "\(namesByNumber[Int(number)] ?? fallback)/p\(key)"
    }
}
