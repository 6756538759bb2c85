import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Find-or-create links

extension MappingApplier {
    /// Prepares a find-or-create rule: loads the keys of the objects the
    /// destination has already (once per entity and key), and the statement
    /// that creates new ones.
    func prepareLookup(
        _ rule: MappedEntity, relationship: String, key: String, value: MappingExpression,
        attributes: [String: MappingExpression]
    ) throws -> FindOrCreate {
        let model = mapping.destination
        guard
            let target = model.allRelationships(of: rule.name).first(where: {
                $0.name == relationship
            })?.destination,
            let table = destinationTables.entity(named: target),
            let keyAttribute = model.allAttributes(of: target).first(where: { $0.name == key }),
            table.attributeColumns[key] != nil
        else {
            throw MappingError(
                file: mapping.file, path: rule.path,
                message: "the destination store has no column for the key of \(relationship)")
        }
        let lookupName = "\(model.rootEntity(of: target)?.name ?? target).\(key)"
        if lookups[lookupName] == nil {
            var known: [AttributeValue: Int64] = [:]
            let reader = RowReader(
                destination, tables: destinationTables, path: destination.path)
            try reader.forEachRow(RowQuery(target, [.key, .attribute(key)])) { row in
                let primaryKey = row.int64(at: 0)
                if let value = try ColumnValueCodec.decode(
                    row.value(at: 1), keyAttribute, storeURL: destinationURL,
                    primaryKey: primaryKey), known[value] == nil
                {
                    known[value] = primaryKey
                }
            }
            lookups[lookupName] = known
        }
        let layout = try layout(of: target)
        let columns = layout.attributes.map { ($0, $0.name == key ? nil : attributes[$0.name]) }
        return FindOrCreate(
            key: keyAttribute, value: value, layout: layout, columns: columns,
            lookupName: lookupName)
    }

    /// The objects a row links to: one per distinct key value (a list gives
    /// several), found among existing objects or created.
    package func findOrCreate(
        _ lookup: FindOrCreate, _ values: [String: MappingValue], rule: MappedEntity, key: Int64
    ) throws -> [Int64] {
        let result: MappingValue
        do {
            result = try evaluator.evaluate(lookup.value.node, values)
        } catch {
            throw failure(error, lookup.value, rule: rule, key: key)
        }
        let candidates: [MappingValue] =
            switch result {
            case .null: []
            case .list(let items): items.map { .string($0) }
            default: [result]
            }
        var targets: [Int64] = []
        for candidate in candidates {
            let keyValue: AttributeValue
            do {
                guard let converted = try storable(candidate, for: lookup.key) else {
                    continue
                }
                keyValue = converted
            } catch {
                throw failure(error, lookup.value, rule: rule, key: key)
            }
            if let known = lookups[lookup.lookupName]?[keyValue] {
                if !targets.contains(known) { targets.append(known) }
                continue
            }
            let created = try newKey(for: lookup.layout.entity)
            var arguments: [SQLiteValue] = []
            for (attribute, expression) in lookup.columns {
                if attribute.name == lookup.key.name {
                    arguments.append(ColumnValueCodec.encode(keyValue, attribute))
                } else if let expression {
                    do {
                        let value = try evaluator.evaluate(expression.node, values)
                        arguments.append(
                            ColumnValueCodec.encode(try storable(value, for: attribute), attribute))
                    } catch {
                        throw failure(error, expression, rule: rule, key: key)
                    }
                } else {
                    arguments.append(
                        ColumnValueCodec.encode(Self.defaultValue(of: attribute), attribute))
                }
            }
            try insert(created, arguments, into: lookup.layout)
            lookups[lookup.lookupName, default: [:]][keyValue] = created
            targets.append(created)
        }
        return targets
    }
}
