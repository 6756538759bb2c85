/// An error from reading a binary property list: the file is truncated,
/// malformed or hostile (out-of-range offsets, reference cycles, excessive
/// nesting).
///
/// The error names the place it was found: a byte offset into the file, an
/// object index in the offset table, or both.
public struct PropertyListError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, in words.
    public var message: String
    /// The byte offset in the file where the problem is, if known.
    public var byteOffset: Int?
    /// The index of the object being read (in the offset table), if known.
    public var objectIndex: Int?

    /// Creates an error.
    public init(_ message: String, byteOffset: Int? = nil, objectIndex: Int? = nil) {
        self.message = message
        self.byteOffset = byteOffset
        self.objectIndex = objectIndex
    }

    /// `Property list error: <message> (object <n>, byte <offset>)`.
    public var description: String {
        var places: [String] = []
        if let objectIndex { places.append("object \(objectIndex)") }
        if let byteOffset { places.append("byte \(byteOffset)") }
        let place = places.isEmpty ? "" : " (" + places.joined(separator: ", ") + ")"
        return "Property list error: \(message)\(place)"
    }
}
