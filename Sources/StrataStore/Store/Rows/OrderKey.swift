/// Core Data's position keys in ordered to-many relationships, the values
/// of `Z_FOK_…` columns: 2048, 3072, 4096, … (coredata-format.md §1.4),
/// read in ascending order. Every writer takes them from here: the
/// context's save, the importer, the bundle loader and the migrator.
package enum OrderKey {
    /// The distance between two neighbours.
    static let step: Int64 = 1024
    /// The key of the first member.
    static let first: Int64 = 2048

    /// The key of the member at `position` (from 0).
    package static func at(_ position: Int) -> Int64 {
        first + step * Int64(position)
    }

    /// SQL for the key after the largest of `largest`, an SQL expression
    /// that is NULL when the list is empty (then the first key).
    package static func sql(after largest: String) -> String {
        "COALESCE(\(largest), \(first - step)) + \(step)"
    }

    /// SQL for the key of a row numbered `rowNumber` (an SQL expression
    /// counting from 1, as `ROW_NUMBER()` does).
    package static func sql(ofRowNumber rowNumber: String) -> String {
        "((\(rowNumber) - 1) * \(step) + \(first))"
    }
}
