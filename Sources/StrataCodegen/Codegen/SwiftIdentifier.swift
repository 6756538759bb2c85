/// Turning schema names into Swift identifiers for generated code.
///
/// A name that is already an identifier is kept; a keyword is kept between
/// backticks. Any other name is renamed, and the generator warns: the
/// characters that cannot appear in an identifier are dropped and the word
/// after each gap is capitalised (`"first name"` → `firstName`), a leading
/// digit gets an underscore (`"3d"` → `_3d`), and names Swift reserves even
/// between backticks (`self`, `Type`, …) or that the generated code needs
/// get a suffix (`Type` → `TypeEntity`, `context` → `contextProperty`).
enum SwiftIdentifier {
    /// Words that must be backticked to be declared.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "as", "await", "false", "is", "nil", "super", "throws",
        "true", "try", "consume", "borrowing", "consuming", "any", "some",
    ]

    /// Names no declaration may take even between backticks.
    static let reserved: Set<String> = ["self", "Self", "Type", "Protocol", "Any", "_"]

    /// An identifier for `name`, or nil when it must be renamed.
    static func declared(_ name: String) -> String? {
        guard isIdentifier(name), !reserved.contains(name) else { return nil }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` made an identifier by dropping what cannot appear in one
    /// (capitalising the next word), starting with a letter or underscore.
    package static func renamed(_ name: String, upperFirst: Bool) -> String {
        var result = ""
        var capitalizeNext = false
        for character in name {
            if isIdentifierCharacter(character) {
                result +=
                    capitalizeNext && !result.isEmpty ? character.uppercased() : String(character)
                capitalizeNext = false
            } else {
                capitalizeNext = true
            }
        }
        if let first = result.first {
            let head = upperFirst ? first.uppercased() : first.lowercased()
            result = head + result.dropFirst()
        }
        if let first = result.first, first.isNumber { result = "_" + result }
        if result.isEmpty || result == "_" { result = "_unnamed" }
        return result
    }

    /// Whether `name` is a Swift identifier (letters, digits and `_`, not
    /// starting with a digit).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, !first.isNumber else { return false }
        return name.allSatisfy(isIdentifierCharacter)
    }

    /// Letters and digits of any script (as Swift identifiers allow them),
    /// and `_`; no marks, symbols, spaces or punctuation.
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first
        else { return false }
        if scalar.isASCII {
            return character == "_" || character.isLetter || character.isNumber
        }
        return scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
    }

    /// `name` without its backticks.
    static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// `name` with its first letter upper-cased, for method names.
    static func capitalized(_ name: String) -> String {
        let bare = bare(name).drop { $0 == "_" }
        guard let first = bare.first else { return "Unnamed" }
        return first.uppercased() + bare.dropFirst()
    }
}
