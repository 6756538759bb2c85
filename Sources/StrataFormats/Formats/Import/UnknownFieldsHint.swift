/// What an "unknown field" error adds when the names show why they matched
/// nothing: a header quoted with single quotes (`'popul'`) was read with
/// the wrong quote character.
enum UnknownFieldsHint {
    /// The hint for the field names that matched no property; nil when the
    /// names show nothing.
    static func hint(for unknown: [String]) -> String? {
        let singleQuoted = unknown.filter { name in
            name.count >= 2 && name.first == "'" && name.last == "'"
        }
        guard !singleQuoted.isEmpty, singleQuoted.count * 2 >= unknown.count else { return nil }
        return "the header's names are in single quotes: give --quote \"'\""
    }

    /// `message`, with the hint for `unknown` after it when there is one.
    static func adding(to message: String, unknown: [String]) -> String {
        hint(for: unknown).map { "\(message); \($0)" } ?? message
    }
}
