/// The command-line words still to be read, with typed accessors for options,
/// flags and positionals.
///
/// A command's `parse(_:)` takes what it knows and calls ``finish()``, which
/// turns any word left over into a ``UsageError``.
struct ArgumentList {
    private var words: [String]
    private let command: any Command.Type

    init(_ words: [String], command: any Command.Type) {
        self.words = words
        self.command = command
    }

    /// The words not read yet.
    var remainingWords: [String] { words }

    /// Whether any words remain.
    var isEmpty: Bool { words.isEmpty }

    /// Removes and returns the first word if it is not an option.
    mutating func popSubcommandName() -> String? {
        guard let first = words.first, !first.hasPrefix("-") else { return nil }
        words.removeFirst()
        return first
    }

    /// Whether `--help`/`-h` appears before a `--` terminator.
    var wantsHelp: Bool {
        words.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Removes `--name` and reports whether it was there.
    mutating func flag(_ name: String) -> Bool {
        guard let index = optionWords.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    mutating func option(_ name: String) throws -> String? {
        for index in optionWords.indices {
            let word = words[index]
            if word == name {
                guard index + 1 < words.count else {
                    throw UsageError("missing value for '\(name)'", command: command)
                }
                let value = words[index + 1]
                words.removeSubrange(index...index + 1)
                return value
            }
            if word.hasPrefix(name + "=") {
                words.remove(at: index)
                return String(word.dropFirst(name.count + 1))
            }
        }
        return nil
    }

    /// Like ``option(_:)``, converting the value to an integer.
    mutating func integerOption(_ name: String) throws -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text) else {
            throw UsageError("'\(name)' expects an integer, got '\(text)'", command: command)
        }
        return value
    }

    /// Removes and returns the next positional word, or throws naming it.
    mutating func positional(_ label: String) throws -> String {
        guard let value = optionalPositional() else {
            throw UsageError("missing \(label)", command: command)
        }
        return value
    }

    /// Removes and returns the next positional word, if any.
    mutating func optionalPositional() -> String? {
        if let index = words.firstIndex(where: { !$0.hasPrefix("-") || $0 == "-" }) {
            if let terminator = words.firstIndex(of: "--"), terminator < index {
                words.remove(at: terminator)
                return words.isEmpty ? nil : words.remove(at: terminator)
            }
            return words.remove(at: index)
        }
        if let terminator = words.firstIndex(of: "--") {
            words.remove(at: terminator)
            return terminator < words.count ? words.remove(at: terminator) : nil
        }
        return nil
    }

    /// Throws a ``UsageError`` if any word was not consumed.
    func finish() throws {
        if let first = words.first {
            let what = first.hasPrefix("-") ? "unknown option" : "unexpected argument"
            throw UsageError("\(what) '\(first)'", command: command)
        }
    }

    /// The indices that can hold options: everything before a `--`.
    private var optionWords: ArraySlice<String> {
        words.prefix { $0 != "--" }
    }
}
