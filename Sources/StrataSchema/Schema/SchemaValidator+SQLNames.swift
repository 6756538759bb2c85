// MARK: - SQL names

extension SchemaValidator.Run {
    /// A table or index a store of the model would have, with what gives it
    /// its name.
    struct SQLObject {
        var name: String
        /// Such as "the table of entity Item".
        var origin: String
        var path: String
    }

    /// No two tables or indexes of the store get names SQLite takes to be
    /// the same. SQLite compares names ignoring ASCII case, and tables and
    /// indexes share one namespace, so `Item` and `ITEM` (both `ZITEM`) or
    /// to-many relationships `tags` and `tAgs` of one entity (both
    /// `Z_1TAGS`) would make `create` fail half-way.
    ///
    /// The names follow `StoreLayout` (coredata-format.md §1.3–1.6): one
    /// table per root entity, one join table per many-to-many pair, an index
    /// per uniqueness constraint and per fetch index. Columns need no check:
    /// a column name already taken in its table gets a digit appended.
    mutating func checkSQLNames() {
        var first: [String: SQLObject] = [:]
        for object in sqlObjects() {
            let key = Self.folded(object.name)
            guard let earlier = first[key] else {
                first[key] = object
                continue
            }
            let same = earlier.name == object.name ? "" : " (\(earlier.name))"
            report(
                "\(object.origin) would be named \(object.name), the name of "
                    + "\(earlier.origin)\(same); SQLite table and index names ignore case and "
                    + "share one namespace, so rename one of them", at: object.path)
        }
    }

    /// Every table and index name the store layout derives from the model,
    /// in entity order.
    func sqlObjects() -> [SQLObject] {
        var objects: [SQLObject] = []
        for (index, entity) in forest.order.enumerated().sorted(by: {
            $0.element.name < $1.element.name
        })
        where forest.parent[index] == nil {
            objects.append(
                SQLObject(
                    name: "Z" + entity.name.uppercased(),
                    origin: "the table of entity \(entity.name)",
                    path: Self.path(entity.name)))
        }
        objects += joinTableObjects()
        for entity in model.entities {
            let base = Self.path(entity.name)
            for (position, constraint) in entity.uniquenessConstraints.enumerated()
            where !constraint.isEmpty {
                objects.append(
                    SQLObject(
                        name: "Z_\(entity.name)_UNIQUE_\(constraint.joined(separator: "_"))",
                        origin: "the index of uniqueness constraint "
                            + "[\(constraint.joined(separator: ", "))] of \(entity.name)",
                        path: JSONPath.appending(
                            JSONPath.appending(base, key: "uniquenessConstraints"),
                            index: position)))
            }
            var names: Set<String> = []  // An exact repeat is reported by checkIndexes.
            for (position, fetchIndex) in entity.indexes.enumerated()
            where !fetchIndex.isRTree && names.insert(fetchIndex.name).inserted
                && !fetchIndex.name.isEmpty
            {
                objects.append(
                    SQLObject(
                        name: "Z_\(entity.name)_\(fetchIndex.name)",
                        origin: "the index of fetch index '\(fetchIndex.name)' of \(entity.name)",
                        path: JSONPath.appending(
                            JSONPath.appending(
                                JSONPath.appending(base, key: "indexes"), index: position),
                            key: "name")))
            }
        }
        return objects
    }

    /// The join tables, named as `StoreLayout.joinTables(of:numbers:)` names
    /// them: `Z_<n><NAME>` after the side with the lower entity number.
    func joinTableObjects() -> [SQLObject] {
        var objects: [SQLObject] = []
        var seen: Set<String> = []
        for entity in model.entities {
            guard let position = forest.position[entity.name] else { continue }
            for relationship in entity.relationships
            where relationship.isToMany && !relationship.isTransient {
                guard let destination = model.entity(named: relationship.destination),
                    let inverse = model.allRelationships(of: destination.name)
                        .first(where: { $0.name == relationship.inverse }),
                    inverse.isToMany, !inverse.isTransient
                else { continue }
                let inverseOwner =
                    ([destination] + model.ancestors(of: destination.name))
                    .first { $0.relationships.contains { $0.name == inverse.name } } ?? destination
                let number = position + 1
                let inverseNumber = (forest.position[inverseOwner.name] ?? -1) + 1
                let key = [
                    entity.name + "." + relationship.name, inverseOwner.name + "." + inverse.name,
                ]
                .sorted().joined(separator: "|")
                guard seen.insert(key).inserted else { continue }
                let thisNames =
                    number < inverseNumber
                    || (number == inverseNumber && relationship.name > inverse.name)
                let (owner, named, namingNumber) =
                    thisNames
                    ? (entity.name, relationship, number)
                    : (inverseOwner.name, inverse, inverseNumber)
                objects.append(
                    SQLObject(
                        name: "Z_\(namingNumber)\(named.name.uppercased())",
                        origin: "the join table of \(owner).\(named.name)",
                        path: Self.path(owner, "relationships", named.name)))
            }
        }
        return objects
    }

    /// `name` with ASCII letters upper-cased, as SQLite compares names.
    static func folded(_ name: String) -> String {
        String(
            decoding: name.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
