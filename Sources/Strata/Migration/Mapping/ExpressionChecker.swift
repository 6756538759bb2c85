/// Type-checks a mapping expression against the source entity it reads:
/// every key path must lead through to-one relationships to an attribute,
/// and every operator and function must get operands of the types it takes.
struct ExpressionChecker {
    /// The model the source objects belong to.
    let model: Model
    /// The source entity the expression is evaluated on.
    let entity: String
    /// The attribute each key path read so far ends at, by its dotted text.
    private(set) var keyPaths: [String: Attribute] = [:]

    init(model: Model, entity: String) {
        self.model = model
        self.entity = entity
    }

    /// The type of `node`'s value.
    ///
    /// - Throws: ``ExpressionError`` at the first part that does not fit.
    mutating func type(of node: ExpressionNode) throws(ExpressionError) -> ExpressionType {
        switch node {
        case .literal(let value, _):
            switch value {
            case .null: return .null
            case .string: return .string
            case .integer: return .integer
            case .real: return .real
            case .boolean: return .boolean
            case .date: return .date
            case .data: return .binary
            case .uuid: return .uuid
            case .list: return .list
            case .structured: return .structured
            }
        case .keyPath(let path, let column):
            let attribute = try resolve(path, column: column)
            keyPaths[path.joined(separator: ".")] = attribute
            return ExpressionType(attribute.type)
        case .unary(let symbol, let operand, let column):
            let type = try type(of: operand)
            if symbol == "!" {
                try require(type, [.boolean], "'!'", column: column)
                return .boolean
            }
            try require(type, [.integer, .real], "'-'", column: column)
            return type
        case .binary(let symbol, let left, let right, let column):
            return try binary(symbol, type(of: left), type(of: right), column: column)
        case .call(let name, let arguments, let column):
            return try call(name, arguments, column: column)
        }
    }

    /// The attribute a key path ends at.
    func resolve(_ path: [String], column: Int) throws(ExpressionError) -> Attribute {
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
        _ symbol: String, _ left: ExpressionType, _ right: ExpressionType, column: Int
    ) throws(ExpressionError) -> ExpressionType {
        func mismatch(_ hint: String = "") -> ExpressionError {
            ExpressionError(
                column: column,
                message: "'\(symbol)' cannot combine \(left.withArticle) and "
                    + "\(right.withArticle)\(hint)")
        }
        switch symbol {
        case "??":
            guard let type = left.unified(with: right) else {
                throw mismatch("; both sides must be of one type")
            }
            return type
        case "&&", "||":
            try require(left, [.boolean], "'\(symbol)'", column: column)
            try require(right, [.boolean], "'\(symbol)'", column: column)
            return .boolean
        case "==", "!=":
            guard left.unified(with: right) != nil, left != .list, right != .list else {
                throw mismatch()
            }
            return .boolean
        case "<", "<=", ">", ">=":
            guard let type = left.unified(with: right),
                [.integer, .real, .string, .date, .null].contains(type)
            else { throw mismatch("; compare numbers, strings or dates") }
            return .boolean
        case "+":
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
        case "-":
            if left == .date && right == .date { return .real }
            if left == .date && right.isNumeric { return .date }
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return left.unified(with: right) ?? .real
        case "*":
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return left.unified(with: right) ?? .real
        default:  // "/"
            guard left.isNumeric, right.isNumeric else { throw mismatch() }
            return .real
        }
    }
}
