/// The checks run inside a stage's transaction, before its commit: every
/// reference between rows (``Store/checkRelationships(model:)``: foreign
/// keys to existing rows of the right entity, one-to-one back-pointers, join
/// rows, `Z_MAX`), and required values present in the tables the stage
/// touched.
struct MigrationVerifier {
    let store: Store
    let model: Model

    /// Throws ``MigrationError`` (`verificationFailed`) listing up to ten
    /// problems when the stage left any.
    func verify(tables: Set<String>, stage: String) throws {
        try store.reloadBookkeeping()
        var problems = try store.checkRelationships(model: model).map(\.description)
        problems += try missingRequiredValues(in: tables)
        guard problems.isEmpty else {
            let shown = problems.prefix(10).joined(separator: "\n  ")
            let more = problems.count > 10 ? "\n  … and \(problems.count - 10) more" : ""
            throw MigrationError(
                .verificationFailed,
                message: "stage \(stage) was rolled back; its result failed the checks:\n  "
                    + shown + more)
        }
    }

    /// `Entity.property: N objects have no value, but it is required`, for
    /// required attributes and to-one relationships of entities whose table
    /// the stage touched.
    private func missingRequiredValues(in tables: Set<String>) throws -> [String] {
        let mapping = try StoreMapping(model: model, store: store)
        var problems: [String] = []
        for entity in model.entities where !entity.isAbstract {
            guard let place = mapping.entities[entity.name], tables.contains(place.table) else {
                continue
            }
            var required: [(String, String)] = []
            for attribute in model.allAttributes(of: entity.name)
            where !attribute.isOptional && !attribute.isTransient {
                if let column = place.attributeColumns[attribute.name] {
                    required.append((attribute.name, column))
                }
            }
            for relationship in model.allRelationships(of: entity.name)
            where !relationship.isOptional && !relationship.isToMany && !relationship.isTransient {
                if let column = place.toOne[relationship.name]?.foreignKey {
                    required.append((relationship.name, column))
                }
            }
            guard !required.isEmpty else { continue }
            // One scan counts the NULLs of every required column at once.
            let sums = required.map {
                "ifnull(SUM(\(SQLiteIdentifier.quoted($0.1)) IS NULL), 0)"
            }
            let statement = try store.connection.prepare(
                "SELECT \(sums.joined(separator: ", ")) FROM "
                    + "\(SQLiteIdentifier.quoted(place.table)) WHERE Z_ENT = ?")
            try statement.bind([.integer(Int64(place.number))])
            var counts: [Int64] = []
            try statement.forEachRow { row in
                counts = (0..<Int32(required.count)).map { row.int64(at: $0) }
            }
            for ((name, _), missing) in zip(required, counts) where missing > 0 {
                problems.append(
                    "\(entity.name).\(name): \(missing) objects have no value, "
                        + "but version \(model.version) requires one")
            }
        }
        return problems
    }
}
