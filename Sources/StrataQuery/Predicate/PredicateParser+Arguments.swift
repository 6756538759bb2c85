// MARK: - Substituting arguments

extension PredicateParser {
    /// The next argument, for the specifier `token`; too few arguments is an
    /// error at the specifier.
    mutating func takeArgument(_ token: Token) throws -> PredicateArgument {
        guard nextArgument < arguments.count else {
            throw error(
                token.column,
                "too few arguments: \(token.spelling) at column \(token.column) has no argument "
                    + "(\(arguments.count) given)")
        }
        defer { nextArgument += 1 }
        return arguments[nextArgument]
    }

    /// The key path an argument gives `%K`, split at dots; a final `@count`
    /// component stays in the path and is read by ``parseKeyPath(start:column:)``.
    mutating func keyPathArgument(_ token: Token) throws -> [String] {
        let argument = try takeArgument(token)
        guard case .keyPath(let keyPath) = argument else {
            throw error(
                token.column,
                "%K expects a key path argument (.keyPath), got \(argument.kindName)")
        }
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        for (offset, component) in components.enumerated() {
            let isCount = component == "@count" && offset == components.count - 1
            guard isCount || PredicateParser.isKeyName(component) else {
                throw error(
                    token.column,
                    "%K expects a key path such as 'owner.name'; component \(offset + 1) of "
                        + "the argument is not a key name")
            }
        }
        return components
    }

    /// The value an argument gives `%@`, `%d`, `%i`, `%ld`, `%f` or `%s`,
    /// checked against the specifier.
    mutating func valueArgument(_ specifier: String, _ token: Token) throws
        -> PredicateValue
    {
        let argument = try takeArgument(token)
        guard case .value(let value) = argument else {
            throw error(
                token.column, "\(token.spelling) expects a value argument; %K takes key paths")
        }
        switch specifier {
        case "@":
            return value
        case "d", "i", "ld", "li", "lld", "lli":
            if case .integer = value { return value }
            throw error(
                token.column, "\(token.spelling) expects an integer argument, got \(value.kindName)"
            )
        case "f", "lf":
            if case .real(let real) = value {
                guard real.isFinite else {
                    throw error(
                        token.column,
                        "\(token.spelling) expects a finite number; nan and infinity compare "
                            + "with nothing a store holds")
                }
                return value
            }
            if case .integer(let integer) = value { return .real(Double(integer)) }
            throw error(
                token.column,
                "\(token.spelling) expects a real number argument, got \(value.kindName)")
        default:  // "s"
            if case .string = value { return value }
            throw error(token.column, "%s expects a string argument, got \(value.kindName)")
        }
    }

    /// Whether `name` can be one component of a key path.
    static func isKeyName(_ name: String) -> Bool { Lexer.isName(name, in: .predicate) }
}

extension PredicateArgument {
    /// The argument's kind, for messages (never its value).
    var kindName: String {
        switch self {
        case .value(let value): value.kindName
        case .keyPath: "a key path"
        }
    }
}
