/// A named configuration of a model: a subset of its entities that one
/// persistent store holds, as Xcode writes with `<configuration>`.
///
/// Mirrors the configurations of `NSManagedObjectModel`. Not part of Core
/// Data's version hashes.
public struct ModelConfiguration: Hashable, Sendable {
    /// The configuration's name, unique in the model.
    public var name: String
    /// The names of the member entities, in the order the model lists them.
    public var entities: [String]
    /// Whether stores of this configuration sync with CloudKit.
    public var isUsedWithCloudKit: Bool = false

    /// Creates a configuration.
    public init(name: String, entities: [String], isUsedWithCloudKit: Bool = false) {
        self.name = name
        self.entities = entities
        self.isUsedWithCloudKit = isUsedWithCloudKit
    }
}
