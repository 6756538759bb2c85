/// An error from resolving an `NSKeyedArchiver` archive: a missing or
/// mistyped key, a UID outside `$objects`, an unexpected class.
///
/// Property list errors underneath are thrown as ``PropertyListError``.
public struct KeyedArchiveError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, in words.
    public var message: String
    /// The index in `$objects` of the object being read, if known.
    public var objectIndex: Int?

    /// Creates an error.
    public init(_ message: String, objectIndex: Int? = nil) {
        self.message = message
        self.objectIndex = objectIndex
    }

    /// `Keyed archive error: <message> (object <n>)`.
    public var description: String {
        let place = objectIndex.map { " (object \($0))" } ?? ""
        return "Keyed archive error: \(message)\(place)"
    }
}
