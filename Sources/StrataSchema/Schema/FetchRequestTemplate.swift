/// A fetch request stored in a model by name, as Xcode's model editor writes
/// with `<fetchRequest>`.
///
/// Mirrors `NSManagedObjectModel.fetchRequestTemplate(forName:)`. The
/// predicate is kept as Core Data's predicate format text. Other settings
/// (`fetchLimit`, `fetchBatchSize`, `resultType`, `includeSubentities`, …)
/// are kept as the text Xcode wrote, by their XML attribute names, so they
/// survive a conversion without Strata having to interpret them. Not part of
/// Core Data's version hashes.
public struct FetchRequestTemplate: Hashable, Sendable {
    /// The request's name, unique in the model.
    public var name: String
    /// The name of the entity the request fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format, such as `url == $URL`; nil
    /// fetches every object.
    public var predicate: String?
    /// The request's other settings by name, such as `"fetchLimit": "10"`.
    public var options: [String: String]

    /// Creates a stored fetch request.
    public init(
        name: String, entity: String, predicate: String? = nil, options: [String: String] = [:]
    ) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
        self.options = options
    }
}
