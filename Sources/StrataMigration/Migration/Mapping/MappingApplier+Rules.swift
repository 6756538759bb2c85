import Foundation
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Running one entity rule

extension MappingApplier {
    /// How one relationship rule gets its targets for a row.
    enum LinkSource {
        case remap(SourceLinkReader)
        case findOrCreate(FindOrCreate)
    }

    /// A find-or-create rule made ready: the key attribute, the statement
    /// that creates objects, and the expressions of their attributes.
    struct FindOrCreate {
        var key: Attribute
        var value: MappingExpression
        /// The rows of created objects.
        var layout: EntityRowLayout
        /// Every attribute column of a created object, with its expression.
        var columns: [(attribute: Attribute, expression: MappingExpression?)]
        var lookupName: String
    }

    package func apply(_ rule: MappedEntity) throws {
        guard sourceTables.entity(named: rule.source) != nil,
            destinationTables.entity(named: rule.name) != nil
        else {
            throw MappingError(
                file: mapping.file, path: rule.path,
                message: "the stores have no tables for \(rule.source) → \(rule.name)")
        }
        let model = mapping.destination
        let layout = try layout(of: rule.name)
        let attributes = layout.attributes
        // What each destination attribute gets: an expression, a copy of the
        // same-named source attribute (new objects only), or nothing.
        var paths: [String: Attribute] = [:]
        var assigned: [(attribute: Attribute, value: Assignment)] = []
        for attribute in attributes {
            if let expression = rule.attributes[attribute.name] {
                paths.merge(expression.keyPaths) { first, _ in first }
                assigned.append((attribute, .expression(expression)))
            } else if rule.createsObjects {
                if let old = mapping.source.allAttributes(of: rule.source).first(where: {
                    $0.name == attribute.name && !$0.isTransient
                }), ExpressionType(old.type).fits(attribute.type) {
                    paths[old.name] = old
                    assigned.append((attribute, .copy(old.name)))
                } else {
                    assigned.append((attribute, .fallback))
                }
            }
        }
        var links: [(name: String, linker: RelationshipLinker, source: LinkSource)] = []
        for (name, spec) in rule.relationships.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath.appending(
                JSONPath.appending(rule.path, key: "relationships"), key: name)
            let linker: RelationshipLinker
            do {
                linker = try RelationshipLinker(
                    name, of: rule.name, model: model, tables: destinationTables,
                    connection: destination)
            } catch is StoreError {
                throw MappingError(
                    file: mapping.file, path: path,
                    message: "the destination store has no columns for \(rule.name).\(name)")
            }
            switch spec {
            case .remap(let keyPath, let keep):
                let link = try LinkPath.resolve(keyPath, from: rule.source, in: mapping.source)
                let reader = try SourceLinkReader(
                    link, keep: keep, tables: sourceTables, connection: source,
                    storeURL: sourceURL, file: mapping.file, errorPath: path)
                let creators = linkCreators(rule, relationship: name, pathEnd: link.end)
                if creators.isEmpty {
                    links.append((name, linker, .remap(reader)))
                } else {
                    deferredLinks[rule.name, default: []].append(
                        DeferredLink(linker: linker, reader: reader, creators: creators))
                }
            case .findOrCreate(let key, let value, let extra):
                let lookup = try prepareLookup(
                    rule, relationship: name, key: key, value: value, attributes: extra)
                paths.merge(value.keyPaths) { first, _ in first }
                for expression in extra.values {
                    paths.merge(expression.keyPaths) { first, _ in first }
                }
                links.append((name, linker, .findOrCreate(lookup)))
            }
        }
        let query = try sourceQuery(rule, paths: paths)
        // Rules that keep objects update the expressions' columns (Z_OPT
        // kept: the app changed nothing); rules that create objects insert
        // every attribute column, in the layout's order.
        let update =
            rule.createsObjects
            ? nil
            : try rows.updateStatement(
                for: layout,
                columns: assigned.compactMap { assignment in
                    attributes.firstIndex { $0.name == assignment.attribute.name }
                }, version: .keep)

        var rows: Int64 = 0
        let statement = query.statement
        while try statement.step() {
            let key = statement.int64(at: 0)
            rows += 1
            if rows % Self.progressInterval == 0 { progress?(rule.name, rows) }
            if query.hasCondition, statement.int64(at: 1) == 0 {
                if !rule.createsObjects { try deleteObject(key, of: rule.name) }
                continue
            }
            var values: [String: MappingValue] = [:]
            for (offset, (path, attribute)) in query.paths.enumerated() {
                values[path] = MappingValue(
                    try ColumnValueCodec.decode(
                        statement.value(at: Int32(query.firstValue + offset)), attribute,
                        storeURL: sourceURL, primaryKey: key))
            }
            var arguments: [SQLiteValue] = []
            for (attribute, assignment) in assigned {
                arguments.append(
                    try value(of: assignment, for: attribute, values, rule: rule, key: key))
            }
            let owner: Int64
            if let update {
                owner = key
                if !arguments.isEmpty { try self.rows.write(update, arguments + [.integer(key)]) }
            } else {
                owner = try newKey(for: rule.name)
                try insert(owner, arguments, into: layout)
                if recordedCreators.contains(rule.name) {
                    createdKeys[rule.name, default: [:]][key] = owner
                }
            }
            for link in links {
                if !rule.createsObjects { try link.linker.removeAll(owner: owner) }
                var targets: [Int64] = []
                var storedOrder: Int64?
                switch link.source {
                case .remap(let reader):
                    targets = try reader.targets(of: key)
                    storedOrder = reader.lastStoredOrder
                case .findOrCreate(let lookup):
                    targets = try findOrCreate(lookup, values, rule: rule, key: key)
                }
                for (position, target) in targets.enumerated()
                where link.linker.isToMany || position == 0 {
                    try link.linker.add(
                        owner: owner, target: target, position: position, storedOrder: storedOrder)
                }
            }
        }
        statement.reset()
        progress?(rule.name, rows)
    }

    /// Where one attribute's value comes from.
    enum Assignment {
        case expression(MappingExpression)
        case copy(String)
        case fallback
    }

    private func value(
        of assignment: Assignment, for attribute: Attribute, _ values: [String: MappingValue],
        rule: MappedEntity, key: Int64
    ) throws -> SQLiteValue {
        switch assignment {
        case .expression(let expression):
            do {
                let result = try evaluator.evaluate(expression.node, values)
                return ColumnValueCodec.encode(try storable(result, for: attribute), attribute)
            } catch {
                throw failure(error, expression, rule: rule, key: key)
            }
        case .copy(let name):
            do {
                return ColumnValueCodec.encode(
                    try storable(values[name] ?? .null, for: attribute), attribute)
            } catch {
                throw MappingError(issues: [
                    MappingIssue(
                        file: mapping.file, path: rule.path,
                        message: "copying \(rule.source).\(name) into \(attribute.name): "
                            + "\(error.message) (for \(rule.source) p\(key) of version "
                            + "\(mapping.source.version))")
                ])
            }
        case .fallback:
            return ColumnValueCodec.encode(Self.defaultValue(of: attribute), attribute)
        }
    }
}
