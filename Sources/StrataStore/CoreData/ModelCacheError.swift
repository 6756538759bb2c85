/// An error from turning a Core Data model cache into a ``Model``: the
/// archive decodes but does not describe a model Strata can represent.
///
/// Errors of the layers below pass through unchanged: ``CompressionError``
/// for the DEFLATE stream, ``PropertyListError`` for the property list and
/// ``KeyedArchiveError`` for the archive's object graph.
public struct ModelCacheError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, in words.
    public var message: String
    /// The entity being decoded, if any.
    public var entity: String?
    /// The property being decoded, if any.
    public var property: String?

    /// Creates an error.
    public init(_ message: String, entity: String? = nil, property: String? = nil) {
        self.message = message
        self.entity = entity
        self.property = property
    }

    /// `Model cache error: <message> (entity <e>, property <p>)`.
    public var description: String {
        var places: [String] = []
        if let entity { places.append("entity \(entity)") }
        if let property { places.append("property \(property)") }
        let place = places.isEmpty ? "" : " (" + places.joined(separator: ", ") + ")"
        return "Model cache error: \(message)\(place)"
    }
}
