import StrataSchema

/// Type-checks a mapping expression against what it reads: for a
/// migration, the source entity (every key path must lead through to-one
/// relationships to an attribute); for an import, the input's fields.
/// Every function must be known and called with as many arguments as it
/// takes, and every operator and function must get operands of the types
/// it takes.
package struct ExpressionChecker {
    /// What an expression's key paths name.
    enum Source {
        /// Properties of objects of an entity of a model.
        case entity(model: Model, name: String)
        /// An input's fields, by their whole name (a key path's parts joined
        /// by "."), with the type of their values. Nil when the fields are
        /// not known yet (a mapping file checked before its input is
        /// opened): any name is taken, its type known only when a record is
        /// read.
        case fields([String: ExpressionType]?)
    }

    /// What key paths name.
    let source: Source
    /// The attribute each key path read so far ends at, by its dotted text
    /// (for an entity source).
    package private(set) var keyPaths: [String: Attribute] = [:]

    /// A checker of expressions over objects of `entity` in `model`.
    package init(model: Model, entity: String) {
        source = .entity(model: model, name: entity)
    }

    /// A checker of expressions over an input's `fields` (nil: not known
    /// yet).
    package init(fields: [String: ExpressionType]?) {
        source = .fields(fields)
    }

    /// The type of `node`'s value.
    ///
    /// - Throws: ``ExpressionError`` at the first part that does not fit.
    package mutating func type(of node: ExpressionNode) throws(ExpressionError)
        -> ExpressionType
    {
        switch node {
        case .value(let value, let column):
            return try Self.type(of: value, column: column)
        case .keyPath(let path, let column):
            switch source {
            case .entity(let model, let entity):
                let attribute = try resolve(path, in: model, from: entity, column: column)
                keyPaths[path.joined(separator: ".")] = attribute
                return ExpressionType(attribute.type)
            case .fields(let fields):
                guard let fields else { return .null }
                let name = path.joined(separator: ".")
                guard let type = fields[name] else {
                    throw ExpressionError(column: column, message: Self.noField(name, in: fields))
                }
                return type
            }
        case .unary(let op, let operand, let column):
            let type = try type(of: operand)
            if op == .not {
                try require(type, [.boolean], "'!'", column: column)
                return .boolean
            }
            try require(type, [.integer, .real], "'-'", column: column)
            return type
        case .binary(let op, let left, let right, let column):
            return try binary(op, type(of: left), type(of: right), column: column)
        case .function(let name, let arguments, let column):
            return try call(name, arguments, column: column)
        case .count(_, let column):
            throw ExpressionError(
                column: column,
                message: "@count counts a to-many relationship, which a mapping expression "
                    + "does not read")
        case .variable(let name, let column):
            throw ExpressionError(
                column: column, message: "a mapping expression has no variable $\(name)")
        case .list(let items):
            throw ExpressionError(
                column: items.first?.column ?? 1,
                message: "a list {…} is not a value of a mapping expression")
        }
    }

    /// The type of a literal; a mapping's literals are the parser's (strings,
    /// numbers, Booleans, nil), values of other kinds come from trees built
    /// elsewhere.
    private static func type(of value: PredicateValue, column: Int) throws(ExpressionError)
        -> ExpressionType
    {
        switch value {
        case .null: return .null
        case .string: return .string
        case .integer: return .integer
        case .real: return .real
        case .boolean: return .boolean
        case .date: return .date
        case .data: return .binary
        case .uuid: return .uuid
        case .array(let items):
            guard items.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                throw ExpressionError(
                    column: column, message: "a list in a mapping expression holds strings only")
            }
            return .list
        case .object:
            throw ExpressionError(
                column: column, message: "an object is not a value of a mapping expression")
        }
    }

    /// The message for a field `name` that the input lacks.
    static func noField(_ name: String, in fields: [String: ExpressionType]) -> String {
        let known = fields.keys.sorted()
        let shown = known.prefix(30).joined(separator: ", ") + (known.count > 30 ? ", …" : "")
        let plain = known.allSatisfy { field in
            field.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
                ExpressionParser.isPlainName($0)
            }
        }
        return "the input has no field '\(name)'"
            + (known.isEmpty ? "" : "; its fields: \(shown)")
            + (plain
                ? ""
                : " (write a name that is not a plain word between backquotes, "
                    + "as `Culmen Length (mm)`)")
    }

    /// The attribute a key path from `entity` ends at.
    package func resolve(
        _ path: [String], in model: Model, from entity: String, column: Int
    ) throws(ExpressionError) -> Attribute {
        var current = entity
        for (offset, name) in path.enumerated() {
            let isLast = offset == path.count - 1
            if let attribute = model.allAttributes(of: current).first(where: { $0.name == name }),
                !attribute.isTransient
            {
                guard isLast else {
                    throw ExpressionError(
                        column: column,
                        message: "\(current).\(name) is an attribute; only to-one relationships "
                            + "can be followed with '.'")
                }
                return attribute
            }
            if let relationship = model.allRelationships(of: current).first(where: {
                $0.name == name
            }), !relationship.isTransient {
                if relationship.isToMany {
                    throw ExpressionError(
                        column: column,
                        message: "\(current).\(name) is a to-many relationship; an expression "
                            + "reads one value, so its key paths may only cross to-one "
                            + "relationships")
                }
                if isLast {
                    let example =
                        model.allAttributes(of: relationship.destination).first?.name ?? "name"
                    throw ExpressionError(
                        column: column,
                        message: "\(path.joined(separator: ".")) is a relationship; name an "
                            + "attribute of \(relationship.destination), such as "
                            + "\(path.joined(separator: ".")).\(example)")
                }
                current = relationship.destination
                continue
            }
            let known =
                (model.allAttributes(of: current).map(\.name)
                + model.allRelationships(of: current).map(\.name)).sorted()
            throw ExpressionError(
                column: column,
                message: "\(current) has no property '\(name)' in version \(model.version)"
                    + (known.isEmpty ? "" : "; it has: " + known.joined(separator: ", ")))
        }
        throw ExpressionError(column: column, message: "empty key path")
    }

    func require(
        _ type: ExpressionType, _ allowed: [ExpressionType], _ what: String, column: Int
    ) throws(ExpressionError) {
        guard type != .null, !allowed.contains(type) else { return }
        let names = allowed.map(\.withArticle)
        let list =
            names.count <= 1
            ? names.joined()
            : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        throw ExpressionError(
            column: column, message: "\(what) takes \(list), not \(type.withArticle)")
    }

    private func binary(
        _ op: BinaryOperator, _ left: ExpressionType, _ right: ExpressionType, column: Int
    ) throws(ExpressionError) -> ExpressionType {
        let symbol = op.symbol
        func mismatch(_ hint: String = "") -> ExpressionError {
            ExpressionError(
                column: column,
                message: "'\(symbol)' cannot combine \(left.withArticle) and "
                    + "\(right.withArticle)\(hint)")
        }
        switch op {
        case .coalesce:
            guard let type = left.unified(with: right) else {
                throw mismatch("; both sides must be of one type")
            }
            return type
        case .and, .or:
            try require(left, [.boolean], "'\(symbol)'", column: column)
            try require(right, [.boolean], "'\(symbol)'", column: column)
            return .boolean
        case .compare(.equal), .compare(.notEqual):
            guard left.unified(with: right) != nil, left != .list, right != .list else {
                throw mismatch()
            }
            return .boolean
        case .compare(.less), .compare(.lessOrEqual), .compare(.greater),
            .compare(.greaterOrEqual):
            guard let type = left.unified(with: right),
                [.integer, .real, .string, .date, .null].contains(type)
            else { throw mismatch("; compare numbers, strings or dates") }
            return .boolean
        case .add:
            if left == .string || right == .string {
                guard left.unified(with: right) == .string else {
                    throw mismatch("; convert with string(…) or use concatenate(…)")
                }
                return .string
            }
            if left == .date && right.isNumeric || left.isNumeric && right == .date {
                return .date
            }
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return left.unified(with: right) ?? .real
        case .subtract:
            if left == .date && right == .date { return .real }
            if left == .date && right.isNumeric { return .date }
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return left.unified(with: right) ?? .real
        case .multiply:
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return left.unified(with: right) ?? .real
        case .compare:
            throw ExpressionError(
                column: column,
                message: "'\(symbol)' compares in predicates only; a mapping expression "
                    + "compares with == != < <= > >=")
        case .divide:
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return .real
        }
    }
}
