import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

extension Context {
    // MARK: - Rows to objects

    /// The read of every stored column of one row of `description`'s
    /// entity tree, by the key bound per read.
    static func rowQuery(of description: EntityDescription) -> RowQuery {
        var query = RowQuery(description.name, description.selectColumns)
        query.filters = [.key]
        query.inKeyOrder = false
        return query
    }

    /// The registered object of the current row, or a new one read from it
    /// and registered (as part of the fetch's run when `fetched`, see
    /// ``ObjectRegistry``). A registered object keeps its in-memory state.
    func materialize(_ row: Statement, description: EntityDescription, fetched: Bool = false)
        throws -> ManagedObject
    {
        try materializeRow(row, description: description, fetched: fetched).object
    }

    /// As ``materialize(_:description:fetched:)``, and whether the object was
    /// made from this row (it then has no changes, so a fetch need not ask).
    func materializeRow(_ row: Statement, description: EntityDescription, fetched: Bool)
        throws -> (object: ManagedObject, isNew: Bool)
    {
        let primaryKey = row.int64(at: 0)
        let number = row.int64(at: 1)
        // Rows of the entity itself (the usual case) skip the name lookups.
        let isOwnRow = number == Int64(description.number)
        let entityName =
            isOwnRow ? description.name : namesByNumber[Int(number)] ?? description.name
        let id = ObjectID(entityName: entityName, key: primaryKey)
        if isOwnRow, !id.isTemporary {
            // The usual case: one access to the registry finds or adds the
            // object (making it reads only the row, never the registry).
            return try registry.object(for: id, fetched: fetched) {
                description.makeObject(
                    id: id, link: link,
                    state: try readState(row, description: description, primaryKey: primaryKey))
            }
        }
        if let object = registered(id) { return (object, false) }
        // A row of a subentity is read with that subentity's columns.
        let concrete = isOwnRow ? description : try self.description(of: entityName)
        guard concrete === description else {
            guard let object = try load(concrete, primaryKeys: [primaryKey]).first else {
                throw ContextError(.objectNotFound, "\(id) vanished while reading", objects: [id])
            }
            return (object, false)
        }
        let object = description.makeObject(
            id: id, link: link,
            state: try readState(row, description: description, primaryKey: primaryKey))
        if fetched {
            registry.addFetched(object)
        } else {
            registry[id] = object
        }
        return (object, true)
    }

    /// The state of `object`'s row as stored now, or nil when the row is
    /// gone (or the object was never saved).
    func storedState(of object: ManagedObject) throws -> ObjectState? {
        guard let key = object.objectID.primaryKey else { return nil }
        let description = object.description_
        let statement = try rowReader.prepare(Self.rowQuery(of: description))
        try statement.bind([.integer(key)])
        guard try statement.step() else { return nil }
        return try readState(statement, description: description, primaryKey: key)
    }

    /// Replaces the state of `object` — registered before the fetch reading
    /// the current row, and without unsaved changes — with the row's (a
    /// fetch with ``FetchRequest/refreshesRefetchedObjects``). Returns
    /// whether the row had changed (a new `Z_OPT`).
    func refetch(_ object: ManagedObject, row: Statement, description: EntityDescription)
        throws -> Bool
    {
        let state: ObjectState
        if object.description_ === description {
            state = try readState(row, description: description, primaryKey: object.objectID.key)
        } else {
            // A subentity's row, read with the fetched entity's columns only:
            // read it whole. (The fetch's own read keeps it alive meanwhile.)
            guard let stored = try storedState(of: object) else { return false }
            state = stored
        }
        let changed = state.version != object.state.version
        object.state = state
        object.committed = nil
        return changed
    }

    /// The state of an object of `description` read from the current row:
    /// `Z_OPT`, each attribute, then each to-one's key and entity columns.
    private func readState(_ row: Statement, description: EntityDescription, primaryKey: Int64)
        throws -> ObjectState
    {
        let types = description.attributeTypes
        // The template's relationship arrays are shared until written; the
        // values are written in place (building them apart and moving them in
        // costs a copy and a destroy of every value).
        var state = ObjectState(
            values: AttributeValues(count: types.count), toOne: description.emptyState.toOne,
            toMany: description.emptyState.toMany, version: row.int64(at: 2))
        var column: Int32 = 3
        for index in types.indices {
            state.values[index] = try readValue(
                row, column: column, type: types[index], description: description, index: index,
                primaryKey: primaryKey)
            column += 1
        }
        for (index, relationship) in description.relationships.enumerated()
        where !relationship.isToMany {
            if !row.isNull(at: column) {
                let destination =
                    row.isNull(at: column + 1)
                    ? relationship.destination
                    : namesByNumber[Int(row.int64(at: column + 1))] ?? relationship.destination
                state.toOne[index] = ObjectID(entityName: destination, key: row.int64(at: column))
            }
            column += 2
        }
        return state
    }

    /// The value of attribute `index` (of `type`) in `column` of the row.
    @inline(__always)  // Once per value of every row fetched.
    private func readValue(
        _ row: Statement, column: Int32, type: AttributeType, description: EntityDescription,
        index: Int, primaryKey: Int64
    ) throws -> AttributeValue? {
        // The common kinds are read straight from the column; copying the
        // Attribute for the general decoder costs more than the read.
        switch (type, row.columnType(column)) {
        case (_, .null):
            return nil
        case (.string, .text), (.uri, .text):
            return .string(row.nonNullText(at: column))
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer):
            return .integer(row.int64(at: column))
        case (.double, .real), (.double, .integer), (.float, .real), (.float, .integer):
            return .real(row.double(at: column))
        case (.date, .real), (.date, .integer):
            return .date(row.double(at: column))
        case (.boolean, .integer):
            return .boolean(row.int64(at: column) != 0)
        default:
            return try ColumnValueCodec.decode(
                row.value(at: column), description.attributes[index], store: store,
                primaryKey: primaryKey)
        }
    }

    /// Reads the rows with `primaryKeys` of `description`'s entity tree.
    package func load(_ description: EntityDescription, primaryKeys: [Int64]) throws
        -> [ManagedObject]
    {
        var objects: [ManagedObject] = []
        let compiled = try rowReader.compile(Self.rowQuery(of: description))
        for key in primaryKeys {
            let statement = try rowReader.prepare(compiled)
            try statement.bind([.integer(key)])
            if try statement.step() {
                objects.append(try materialize(statement, description: description))
            }
        }
        return objects
    }
}
