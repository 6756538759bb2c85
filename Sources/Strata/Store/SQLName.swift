/// Writes table, column and index names into SQL text.
///
/// Names made only of ASCII letters, digits and underscores that start with
/// `Z` — every name Core Data derives — are written bare, so the DDL Strata
/// emits is byte-identical to Core Data's; no SQLite keyword starts with `Z`,
/// so such a name can never be read as anything else. Every other name is
/// double-quoted with embedded quotes doubled: no identifier is ever spliced
/// into SQL unquoted.
enum SQLName {
    /// The SQL spelling of `name`.
    static func sql(_ name: String) -> String {
        if isBareSafe(name) { return name }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func isBareSafe(_ name: String) -> Bool {
        guard name.utf8.first == UInt8(ascii: "Z") else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_")
        }
    }
}
