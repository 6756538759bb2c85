import Foundation
import StrataCore
import StrataSchema
import StrataStore

// MARK: - Writing a save to the store

extension Context {
    /// Writes the save inside the caller's transaction (which holds the
    /// store's write lock): conflict check, keys, inserts, updates, order
    /// columns, join tables, deletes.
    func writeChanges() throws -> SaveResult {
        var result = SaveResult()
        let rows = RowWriter(connection: store.connection)
        try resolveConflicts(&result, rows: rows)
        try allocateKeys(rows)
        func key(_ id: ObjectID) -> Int64 {
            id.isTemporary ? inserted[id]?.savingKey ?? id.key : id.key
        }

        // Grouped by entity so each runs one prepared statement; inserts in
        // the order they were made.
        let insertedObjects = savingInserted ?? inserted.values
        if let first = insertedObjects.first,
            insertedObjects.allSatisfy({ $0.description_ === first.description_ })
        {
            // One entity (a bulk import): no grouping, so no hashing per object.
            try writeRows(insertedObjects, isInsert: true, rows: rows, key: key)
        } else {
            let byEntity = Dictionary(grouping: insertedObjects) { $0.description_.number }
            for number in byEntity.keys.sorted() {
                try writeRows(byEntity[number] ?? [], isInsert: true, rows: rows, key: key)
            }
        }
        let updatedObjects = updated.values.filter {
            $0.state.hasChanges && !result.mergedUpdates.contains(ObjectIdentifier($0))
        }
        .sorted {
            ($0.description_.number, $0.objectID.key) < (
                $1.description_.number, $1.objectID.key
            )
        }
        try writeRows(updatedObjects, isInsert: false, rows: rows, key: key)
        for object in updated.values where result.mergedUpdates.contains(ObjectIdentifier(object)) {
            try writeChangedColumns(of: object, rows: rows, key: key)
        }
        for object in insertedObjects where !object.state.changedRelationships.isEmpty {
            try writeToManyChanges(of: object, rows: rows, key: key)
        }
        for object in updatedObjects where !object.state.changedRelationships.isEmpty {
            try writeToManyChanges(of: object, rows: rows, key: key)
        }
        for object in deleted.values.sorted(by: { $0.objectID.key < $1.objectID.key }) {
            try deleteRow(object, rows: rows)
        }
        return result
    }

    // MARK: Conflicts

    /// Compares each overwritten row's `Z_OPT` with the version this context
    /// read, and applies the merge policy to the rows that moved on.
    private func resolveConflicts(_ result: inout SaveResult, rows: RowWriter) throws {
        var conflicts: [(ManagedObject, Int64?)] = []
        for object in Array(updated.values) + Array(deleted.values) {
            guard let key = object.objectID.primaryKey else { continue }
            let version = try rows.storedVersion(of: key, in: object.description_.mapping.table)
            if version != object.state.version { conflicts.append((object, version)) }
        }
        guard !conflicts.isEmpty else { return }
        let ids = conflicts.map(\.0.objectID).sorted { $0.description < $1.description }
        switch mergePolicy {
        case .error:
            throw ContextError(
                .conflict,
                "another writer changed or deleted \(ids.map(\.description).joined(separator: ", ")) "
                    + "since this context read them; nothing was saved",
                objects: ids)
        case .contextWins:
            for (object, version) in conflicts {
                journal(object)
                if let version {
                    // Property by property: this context's changed values
                    // win, the other writer's changes to the rest stay.
                    object.state.version = version
                    result.mergedUpdates.insert(ObjectIdentifier(object))
                    result.refreshed.append(object)
                } else {
                    // Deleted by the other writer: it stays deleted.
                    updated[object.objectID] = nil
                    deleted[object.objectID] = nil
                    object.isDeleted = true
                }
            }
        case .storeWins:
            for (object, version) in conflicts {
                journal(object)
                updated[object.objectID] = nil
                deleted[object.objectID] = nil
                object.isDeleted = version == nil
                result.refreshed.append(object)
            }
        }
    }

    // MARK: Keys

    /// Takes primary keys for inserted objects from their root entity's
    /// counter (``KeyAllocator``), as Core Data does, in insertion order.
    private func allocateKeys(_ rows: RowWriter) throws {
        let insertedObjects = savingInserted ?? inserted.values
        guard let first = insertedObjects.first?.description_ else { return }
        if insertedObjects.allSatisfy({ $0.description_.rootNumber == first.rootNumber }) {
            // One tree (a bulk import): no grouping, so no hashing per object.
            let counter = try rows.keyCounter(for: first.layout)
            var key = counter.take(insertedObjects.count)
            for object in insertedObjects {
                object.savingKey = key
                key += 1
            }
            try rows.saveKeys()
            return
        }
        let byRoot = Dictionary(grouping: insertedObjects) { $0.description_.rootNumber }
        for (_, objects) in byRoot.sorted(by: { $0.key < $1.key }) {
            guard let description = objects.first?.description_ else { continue }
            let counter = try rows.keyCounter(for: description.layout)
            for object in objects { object.savingKey = counter.next() }
        }
        try rows.saveKeys()
    }

    // MARK: Rows

    /// Inserts or updates the rows of `objects`, one prepared statement per
    /// entity, binding each value in place (the hot path of bulk imports).
    private func writeRows(
        _ objects: [ManagedObject], isInsert: Bool, rows: RowWriter, key: (ObjectID) -> Int64
    ) throws {
        var start = objects.startIndex
        while start < objects.endIndex {
            // A run of objects of one entity shares its statement and columns.
            let description = objects[start].description_
            var end = start + 1
            while end < objects.endIndex, objects[end].description_ === description { end += 1 }
            let statement =
                try isInsert
                ? rows.insertStatement(for: description.layout)
                : rows.updateStatement(for: description.layout)
            let attributes = description.storedAttributes
            let keyParameter = EntityRowLayout.keyParameter
            let firstValue: Int32 = isInsert ? EntityRowLayout.firstValueParameter : 2
            for object in objects[start..<end] {
                if isInsert {
                    try statement.bind(object.savingKey, at: keyParameter)
                } else {
                    try statement.bind(object.state.version + 1, at: 1)
                }
                var position = firstValue
                for (index, externalStorage) in attributes {
                    // Each value bound where it is stored (copying the values
                    // would retain and release each of them).
                    try object.state.values.withValueInPlace(at: index) { value in
                        if case .string(let text)? = value {
                            // The usual column, bound without making an SQLiteValue.
                            try statement.bind(text, at: position)
                        } else {
                            try statement.bind(
                                ColumnValueCodec.encode(value, externalStorage: externalStorage),
                                at: position)
                        }
                    }
                    position += 1
                }
                if !description.storedToOnes.isEmpty {
                    try bindToOnes(
                        of: object, description, to: statement, from: &position, key: key)
                }
                if !isInsert { try statement.bind(object.objectID.key, at: position) }
                // Each write resets the statement, ready for the next row.
                try rows.write(statement)
            }
            start = end
        }
    }

    /// Binds the key and entity columns of `object`'s to-one relationships
    /// from parameter `position` on.
    private func bindToOnes(
        of object: ManagedObject, _ description: EntityDescription, to statement: Statement,
        from position: inout Int32, key: (ObjectID) -> Int64
    ) throws {
        let toOne = object.state.toOne
        for (index, hasEntityColumn) in description.storedToOnes {
            let destination = toOne[index].flatMap {
                registered($0)?.isDeleted == true ? nil : $0
            }
            try statement.bind(destination.map { .integer(key($0)) } ?? .null, at: position)
            position += 1
            if hasEntityColumn {
                let number = destination.flatMap {
                    descriptions[$0.entityName]?.mapping.number
                }
                try statement.bind(number.map { .integer(Int64($0)) } ?? .null, at: position)
                position += 1
            }
        }
    }

    /// Updates only the columns of `object`'s changed attributes and to-one
    /// relationships (and `Z_OPT`): how `.contextWins` merges with another
    /// writer's changes to the same row.
    private func writeChangedColumns(
        of object: ManagedObject, rows: RowWriter, key: (ObjectID) -> Int64
    ) throws {
        let description = object.description_
        let layout = description.layout
        var columns: [(column: Int, value: SQLiteValue)] = []
        for index in object.state.changedAttributes.sorted() {
            guard let column = description.storedAttributes.firstIndex(where: { $0.index == index })
            else { continue }
            columns.append(
                (
                    column,
                    ColumnValueCodec.encode(object.state.values[index], layout.attributes[column])
                ))
        }
        for (slot, toOne) in description.storedToOnes.enumerated()
        where object.state.changedRelationships.contains(toOne.index) {
            let destination = object.state.toOne[toOne.index]
            let kept = layout.toOnes[slot]
            columns.append((kept.foreignKey, destination.map { .integer(key($0)) } ?? .null))
            if let entity = kept.entity {
                let number = destination.flatMap { descriptions[$0.entityName]?.mapping.number }
                columns.append((entity, number.map { .integer(Int64($0)) } ?? .null))
            }
        }
        try rows.update(
            layout, key: object.objectID.key, columns: columns,
            version: .set(object.state.version + 1))
    }

    /// Writes order columns of ordered to-many relationships and the join
    /// table rows of many-to-many ones that changed on `object`.
    private func writeToManyChanges(
        of object: ManagedObject, rows: RowWriter, key: (ObjectID) -> Int64
    ) throws {
        guard !object.state.changedRelationships.isEmpty else { return }
        let description = object.description_
        for index in object.state.changedRelationships.sorted() {
            let relationship = description.relationships[index]
            guard relationship.isToMany,
                let mapping = description.mapping.toMany[relationship.name],
                let members = object.state.toMany[index]
            else { continue }
            let living = members.filter { registered($0)?.isDeleted != true }
            switch mapping {
            case .inverseForeignKey(let table, _, let order?):
                for (position, member) in living.enumerated() {
                    try rows.setOrder(
                        OrderKey.at(position), column: order, of: key(member), in: table)
                }
            case .inverseForeignKey:
                break  // Unordered: the members' own foreign keys say it all.
            case .joinTable(let table, let source, let target, let order):
                try rewriteJoinRows(
                    of: object, relationship, table: table, source: source, target: target,
                    order: order, members: living, rows: rows, key: key)
            }
        }
    }

    private func rewriteJoinRows(
        of object: ManagedObject, _ relationship: Relationship, table: String, source: String,
        target: String, order: String?, members: [ObjectID], rows: RowWriter,
        key: (ObjectID) -> Int64
    ) throws {
        // The inverse's order column, when the other side is ordered.
        let inverseOrder = descriptions[relationship.destination].flatMap {
            destination -> String? in
            guard
                case .joinTable(_, _, _, let order)? = destination.mapping.toMany[
                    relationship.inverse]
            else { return nil }
            return order
        }
        var placed: [(key: Int64, inversePlace: Int64)] = []
        for member in members {
            var place: Int64 = 0
            if inverseOrder != nil {
                let other = try self.object(with: member)
                let inverseIndex = try other.description_.relationship(relationship.inverse)
                let index =
                    try toManyIDs(of: other, inverseIndex).firstIndex(of: object.objectID) ?? 0
                place = OrderKey.at(index)
            }
            placed.append((key(member), place))
        }
        try rows.replaceJoinRows(
            of: key(object.objectID), table: table, sourceColumn: source,
            destinationColumn: target, order: order, inverseOrder: inverseOrder, members: placed)
    }

    /// Deletes `object`'s row and its join-table rows.
    ///
    /// Only the column holding this object's own keys is matched: the other
    /// column holds another table's keys, which may equal this one's. (Both
    /// columns of a reflexive pair are covered, since each relationship of
    /// the pair has its own key in its source column.)
    private func deleteRow(_ object: ManagedObject, rows: RowWriter) throws {
        guard let primaryKey = object.objectID.primaryKey else { return }
        let description = object.description_
        for mapping in description.mapping.toMany.values {
            guard case .joinTable(let table, let source, _, _) = mapping else { continue }
            try rows.deleteJoinRows(of: primaryKey, table: table, column: source)
        }
        try rows.delete(primaryKey, from: description.mapping.table)
    }

    // MARK: After the commit

    /// Gives inserted objects their permanent ids, records the new saved
    /// state of every changed object, and forgets deleted ones.
    func finishSave(_ result: SaveResult) -> ChangeSet {
        let insertedObjects = savingInserted ?? inserted.values
        savingInserted = nil
        let updatedObjects = updated.values.filter {
            $0.state.hasChanges && !result.mergedUpdates.contains(ObjectIdentifier($0))
        }
        func map(_ id: ObjectID) -> ObjectID {
            guard id.isTemporary, let object = inserted[id] else { return id }
            return ObjectID(entityName: id.entityName, key: object.savingKey)
        }
        // References first, while temporary ids still resolve.
        func mapReferences(of object: ManagedObject) {
            if object.state.toOne.contains(where: { $0?.isTemporary == true }) {
                object.state.toOne = object.state.toOne.map { $0.map(map) }
            }
            if object.state.toMany.contains(where: { $0?.contains(where: \.isTemporary) == true }) {
                object.state.toMany = object.state.toMany.map { $0?.map(map) }
            }
        }
        for object in insertedObjects where !object.description_.relationships.isEmpty {
            mapReferences(of: object)
        }
        for object in updatedObjects where !object.description_.relationships.isEmpty {
            mapReferences(of: object)
        }
        let observed = observers.values.contains { $0.event == .didSave }
        var changes = ChangeSet()
        for object in insertedObjects {
            let permanent = ObjectID(entityName: object.objectID.entityName, key: object.savingKey)
            object.objectID = permanent
            object.isInserted = false
            object.state.version = 1
            // Inserted objects track only relationship changes (for order and
            // join-table writes); their attribute sets are always empty.
            if !object.state.changedRelationships.isEmpty { object.state.changedRelationships = [] }
            if observed { changes.inserted.insert(permanent) }
        }
        for object in updatedObjects {
            object.state.version += 1
            if observed { changes.updated.insert(object.objectID) }
        }
        for object in updatedObjects {
            object.state.changedAttributes = []
            object.state.changedRelationships = []
            object.committed = nil
        }
        for object in deleted.values {
            registry[object.objectID] = nil
            object.isRegistered = false
            if observed { changes.deleted.insert(object.objectID) }
        }
        for object in result.refreshed {
            // Re-read: the store's row (storeWins) or the merged one (contextWins);
            // a vanished row leaves a deleted object. Nothing to report on failure.
            try? refresh(object)
        }
        inserted.removeAll(usedKeys: -nextTemporaryKey - 1)
        updated = [:]
        deleted = [:]
        pendingChanges = ChangeSet()
        registry.addSaved(insertedObjects) { $0.description_.rootNumber }
        return changes
    }
}
