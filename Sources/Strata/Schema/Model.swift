/// One version of a model: the entities of an app's data at one point in its
/// history, as read from a `strata-schema/1` file.
///
/// Entities are kept sorted by name, the order Core Data uses for metadata.
public struct Model: Hashable, Sendable {
    /// The schema format identifier that files of this kind carry.
    public static let format = "strata-schema/1"

    /// The model's name, such as `Diary`; the same in every version.
    public var name: String
    /// The version number, 1 for the first; the file is `<version>.json`.
    public var version: Int
    /// Core Data's `userDefinedModelVersionIdentifier` (may be empty).
    public var versionIdentifier: String
    /// The entities, sorted by name.
    public var entities: [Entity] {
        didSet { entities.sort { $0.name < $1.name } }
    }
    /// Fetch requests stored in the model by name, sorted by name.
    public var fetchRequests: [FetchRequestTemplate] = [] {
        didSet { fetchRequests.sort { $0.name < $1.name } }
    }
    /// The model's named configurations, sorted by name.
    public var configurations: [ModelConfiguration] = [] {
        didSet { configurations.sort { $0.name < $1.name } }
    }

    /// Creates a model version from its entities.
    public init(
        name: String, version: Int, versionIdentifier: String = "", entities: [Entity],
        fetchRequests: [FetchRequestTemplate] = [], configurations: [ModelConfiguration] = []
    ) {
        self.name = name
        self.version = version
        self.versionIdentifier = versionIdentifier
        self.entities = entities.sorted { $0.name < $1.name }
        self.fetchRequests = fetchRequests.sorted { $0.name < $1.name }
        self.configurations = configurations.sorted { $0.name < $1.name }
    }

    /// The entity named `name`, if any.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }
}
