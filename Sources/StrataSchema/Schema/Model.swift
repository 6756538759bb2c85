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
        didSet {
            entities.sort { $0.name < $1.name }
            positions = Self.positions(of: entities)
            parentPositions = Self.parentPositions(of: entities, positions)
        }
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
        let sorted = entities.sorted { $0.name < $1.name }
        self.entities = sorted
        self.positions = Self.positions(of: sorted)
        self.parentPositions = Self.parentPositions(of: sorted, positions)
        self.fetchRequests = fetchRequests.sorted { $0.name < $1.name }
        self.configurations = configurations.sorted { $0.name < $1.name }
    }

    /// The index in `entities` of each entity name (the first, should a bad
    /// model repeat a name), so that looking an entity up does not scan the
    /// list: models of thousands of entities look names up for every
    /// property. Derived from `entities`, so equal models have equal maps.
    private(set) var positions: [String: Int]

    /// The entity named `name`, if any.
    public func entity(named name: String) -> Entity? {
        positions[name].map { entities[$0] }
    }

    /// The index in `entities` of each entity's parent, nil for a root or a
    /// missing parent: walking up a chain thousands deep hashes no names.
    private(set) var parentPositions: [Int?]

    private static func parentPositions(
        of entities: [Entity], _ positions: [String: Int]
    ) -> [Int?] {
        entities.map { entity in entity.parent.flatMap { positions[$0] } }
    }

    private static func positions(of entities: [Entity]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(entities.count)
        for (index, entity) in entities.enumerated() where positions[entity.name] == nil {
            positions[entity.name] = index
        }
        return positions
    }
}
