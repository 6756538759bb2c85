/// One problem `strata check` found in a store (``Store/check(model:)``):
/// where (the object, or the file, model or table) and what is wrong.
///
/// Messages name tables, columns, keys, lengths and numbers, never the
/// text of a value.
public struct StoreProblem: Hashable, Sendable, CustomStringConvertible, Encodable {
    /// What part of the store a problem is in.
    public enum Area: String, Hashable, Sendable, Encodable {
        /// The SQLite file itself (`PRAGMA integrity_check`).
        case file
        /// The model: the store's hashes, its tables against the model.
        case model
        /// Core Data's bookkeeping: `Z_ENT` values, `Z_PRIMARYKEY.Z_MAX`.
        case bookkeeping
        /// References between rows: keys, inverse pairs, counts, positions.
        case relationship
        /// A value of an attribute against the schema's rules.
        case value
    }

    /// What part of the store the problem is in.
    public var area: Area
    /// The kind of problem: a ``RelationshipProblem/Kind``, a rule
    /// (`required`, `maxLength`, `pattern`, `type`, `externalFile`…),
    /// `integrity` or `hashes`.
    public var kind: String
    /// The entity of the object concerned (the root entity for table-wide
    /// problems); nil for the file and the model.
    public var entity: String?
    /// `Z_PK` of the object concerned.
    public var primaryKey: Int64?
    /// The attribute or relationship concerned.
    public var property: String?
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(
        area: Area, kind: String, entity: String? = nil, primaryKey: Int64? = nil,
        property: String? = nil, message: String
    ) {
        self.area = area
        self.kind = kind
        self.entity = entity
        self.primaryKey = primaryKey
        self.property = property
        self.message = message
    }

    /// The problem of a reference between rows.
    package init(_ problem: RelationshipProblem) {
        let area: Area =
            problem.kind == .maxBelowPrimaryKey || problem.kind == .unknownEntityNumber
            ? .bookkeeping : .relationship
        self.init(
            area: area, kind: problem.kind.rawValue, entity: problem.entity,
            primaryKey: problem.primaryKey, property: problem.property,
            message: problem.property.map {
                problem.message.hasPrefix($0 + " ") ? problem.message : "\($0): \(problem.message)"
            } ?? problem.message)
    }

    /// The object (`Recipe/p3`), else the entity, else the area.
    public var object: String {
        guard let entity else { return area.rawValue }
        return primaryKey.map { "\(entity)/p\($0)" } ?? entity
    }

    /// `Recipe/p3: image → Image/p7, but Image/p7.recipe is nil (…)`
    public var description: String { "\(object): \(message)" }

    private enum CodingKeys: String, CodingKey {
        case object, area, kind, entity, primaryKey, property, message
    }

    /// Encodes the object's name beside the fields.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(object, forKey: .object)
        try container.encode(area, forKey: .area)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(entity, forKey: .entity)
        try container.encodeIfPresent(primaryKey, forKey: .primaryKey)
        try container.encodeIfPresent(property, forKey: .property)
        try container.encode(message, forKey: .message)
    }
}
