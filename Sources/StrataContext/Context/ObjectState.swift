import StrataStore

/// The mutable state of one managed object, kept as one value so that a save
/// can snapshot and restore it whole.
struct ObjectState {
    /// Attribute values by attribute index; nil is "no value".
    var values: AttributeValues
    /// To-one destinations by relationship index (nil for to-many slots).
    var toOne: [ObjectID?]
    /// To-many destinations by relationship index, in order; nil while not
    /// loaded from the store (a fault) or for to-one slots.
    var toMany: [[ObjectID]?]
    /// `Z_OPT` as last read or written; 0 for an object never saved.
    var version: Int64
    /// Indexes of attributes changed since the last save.
    var changedAttributes: Set<Int> = []
    /// Indexes of relationships changed since the last save.
    var changedRelationships: Set<Int> = []

    /// An empty state for an entity with the given numbers of properties.
    init(attributeCount: Int, relationshipCount: Int) {
        values = AttributeValues(count: attributeCount)
        toOne = Array(repeating: nil, count: relationshipCount)
        toMany = Array(repeating: nil, count: relationshipCount)
        version = 0
    }

    /// A state read from the store: no changes yet.
    init(values: AttributeValues, toOne: [ObjectID?], toMany: [[ObjectID]?], version: Int64) {
        self.values = values
        self.toOne = toOne
        self.toMany = toMany
        self.version = version
    }

    /// The state of an object whose maker sets its real state at once: no
    /// values, no relationships, nothing allocated.
    static var unset: ObjectState {
        ObjectState(values: AttributeValues(count: 0), toOne: [], toMany: [], version: 0)
    }

    /// Whether anything changed since the last save.
    var hasChanges: Bool { !changedAttributes.isEmpty || !changedRelationships.isEmpty }
}
