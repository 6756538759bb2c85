/// What one input field writes to.
enum FieldTarget: Hashable {
    /// An attribute, by its index in ``EntityImportPlan/attributes``.
    case attribute(Int)
    /// A relationship, by its index in ``EntityImportPlan/relationships``.
    case relationship(Int)
    /// Nothing: the field is ignored (`strata_error` of a rejects file, or
    /// mapped to nothing).
    case ignored
}

/// Folds a field or property name for matching: case, spaces, `_` and `-`
/// do not count, so `First Name`, `first_name` and `firstName` are one name.
enum FieldNameFolding {
    /// The folded form of `name`.
    static func fold(_ name: String) -> String {
        var folded = ""
        folded.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars
        where scalar != " " && scalar != "_" && scalar != "-" && scalar != "\t" {
            folded.unicodeScalars.append(scalar)
        }
        return folded.lowercased()
    }

    /// The field name a rejects file adds to each record for its reason;
    /// importing the rejects file again ignores it.
    static let rejectReasonField = "strata_error"
}
