import StrataCore

/// Writes table, column and index names into SQL text.
///
/// Names made only of ASCII letters, digits and underscores that start with
/// `Z` — every name Core Data derives — are written bare, so the DDL Strata
/// emits is byte-identical to Core Data's; no SQLite keyword starts with `Z`,
/// so such a name can never be read as anything else. Every other name is
/// double-quoted with embedded quotes doubled: no identifier is ever spliced
/// into SQL unquoted.
package enum SQLName {
    /// The SQL spelling of `name`.
    package static func sql(_ name: String) -> String {
        name.utf8.first == UInt8(ascii: "Z") && SQLiteIdentifier.isPlain(name)
            ? name : SQLiteIdentifier.quoted(name)
    }
}
