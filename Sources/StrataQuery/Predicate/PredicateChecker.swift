import StrataSchema

/// Resolves a predicate's key paths against a model and checks the types of
/// each comparison; see ``FetchPredicate/check(entity:model:format:)``.
struct PredicateChecker {
    let model: Model
    /// The text errors quote, rendered only when one is thrown: rendering it
    /// up front would cost every fetch a string build that only a failure
    /// needs.
    let text: () -> String
    let root: FetchPredicate

    /// What an operand holds, as far as the model tells.
    enum Kind: Equatable {
        case number, boolean, string, date, data, uuid, null
        /// An object of the entity, or of any entity when nil.
        case object(String?)
        /// A list or array of values.
        case collection([Kind])
        /// A variable not yet bound: anything.
        case unknown

        var name: String {
            switch self {
            case .number: "a number"
            case .boolean: "a boolean"
            case .string: "a string"
            case .date: "a date"
            case .data: "bytes"
            case .uuid: "a UUID"
            case .null: "nil"
            case .object(let entity): entity.map { "a \($0)" } ?? "an object"
            case .collection: "a collection"
            case .unknown: "a variable"
            }
        }
    }

    /// An operand resolved: its kind, and for key paths their spelling,
    /// column, description of type, and whether they cross a to-many.
    struct Operand {
        var kind: Kind
        var keyPath: String?
        var column: Int
        var typeName: String
        var crossesToMany = false
        var isCount = false
    }

    package func error(_ code: FetchPredicateError.Code, _ column: Int, _ message: String)
        -> FetchPredicateError
    {
        FetchPredicateError(code, predicate: text(), column: column, message: message)
    }

    package func check(_ predicate: FetchPredicate, entity: String) throws {
        switch predicate {
        case .constant: return
        case .not(let inner): try check(inner, entity: entity)
        case .and(let terms), .or(let terms):
            for term in terms { try check(term, entity: entity) }
        case .comparison(let comparison): try check(comparison, entity: entity)
        }
    }

    // MARK: - Operands

    func operand(_ expression: ExpressionNode, entity: String, column: Int) throws
        -> Operand
    {
        switch expression {
        case .value(let value, _):
            return Operand(kind: kind(of: value), column: column, typeName: kind(of: value).name)
        case .list(let items):
            let kinds = try items.map { try operand($0, entity: entity, column: column).kind }
            return Operand(kind: .collection(kinds), column: column, typeName: "a list")
        case .variable:
            return Operand(kind: .unknown, column: column, typeName: "a variable")
        case .keyPath(let path, let pathColumn):
            return try resolve(path, entity: entity, column: pathColumn)
        case .count(let path, let pathColumn):
            let target = try resolve(path, entity: entity, column: pathColumn)
            guard target.crossesToMany, case .object = target.kind else {
                throw error(
                    .quantifier, pathColumn,
                    "@count needs a to-many relationship, but '\(path.joined(separator: "."))' "
                        + "is \(target.typeName)")
            }
            return Operand(
                kind: .number, keyPath: path.joined(separator: ".") + ".@count",
                column: pathColumn, typeName: "a count", isCount: true)
        case .unary, .binary, .function:
            throw error(
                .invalidOperand, expression.column,
                expression.refusalInPredicates ?? "not an operand")
        }
    }

    package func kind(of value: PredicateValue) -> Kind {
        switch value {
        case .null: .null
        case .boolean: .boolean
        case .integer, .real: .number
        case .string: .string
        case .date: .date
        case .data: .data
        case .uuid: .uuid
        case .object(let id): .object(id.entityName)
        case .array(let items): .collection(items.map(kind(of:)))
        }
    }

    /// Follows `path` from `entity` through the model.
    package func resolve(_ path: [String], entity: String, column: Int) throws -> Operand {
        var current = entity
        var crossesToMany = false
        var toManySteps = 0
        let spelled = path.joined(separator: ".")
        for (offset, key) in path.enumerated() {
            let isLast = offset == path.count - 1
            if let attribute = model.allAttributes(of: current).first(where: { $0.name == key }) {
                guard isLast else {
                    throw error(
                        .unknownKey, column,
                        "'\(key)' is an attribute of \(current) (\(attribute.type.rawValue)); "
                            + "a key path continues only through relationships")
                }
                return Operand(
                    kind: kind(of: attribute.type), keyPath: spelled, column: column,
                    typeName: attribute.type.rawValue, crossesToMany: crossesToMany)
            }
            guard
                let relationship = model.allRelationships(of: current).first(where: {
                    $0.name == key
                })
            else {
                throw error(
                    .unknownKey, column, "\(current) has no attribute or relationship '\(key)'")
            }
            crossesToMany = crossesToMany || relationship.isToMany
            if relationship.isToMany {
                // Each to-many step is one nested subquery in SQL.
                toManySteps += 1
                let most = PredicateLimits.maximumSQLNesting / PredicateLimits.subqueryNesting
                guard toManySteps <= most else {
                    throw error(
                        .tooComplex, column,
                        "'\(spelled)' crosses more than \(most) to-many relationships; "
                            + "SQLite cannot nest that many subqueries")
                }
            }
            current = relationship.destination
            if isLast {
                let shape = relationship.isToMany ? "to-many" : "to-one"
                return Operand(
                    kind: .object(current), keyPath: spelled, column: column,
                    typeName: "a \(shape) relationship to \(current)",
                    crossesToMany: crossesToMany)
            }
        }
        // An empty path names the object itself.
        return Operand(kind: .object(entity), keyPath: spelled, column: column, typeName: entity)
    }

    package func kind(of type: AttributeType) -> Kind {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: .number
        case .boolean: .boolean
        case .string, .uri: .string
        case .date: .date
        case .binary, .transformable: .data
        case .uuid: .uuid
        }
    }
}
