import Foundation
import StrataSchema

/// A Core Data mapping model, as Xcode's `.xcmappingmodel` package or the
/// compiled `.cdm` stores it (coredata-mapping-models.md): the entity
/// mappings in their run order, each with its property mappings and value
/// expressions.
///
/// The two files say different things. A `.xcmappingmodel` carries
/// snapshots of its source and destination models but stores only the
/// expressions a developer typed (the default copies and every relationship
/// expression are made when Xcode compiles it); a `.cdm` carries every
/// expression and each entity's version hash, but no models. Whoever
/// converts one fills in what its kind lacks.
public struct XcodeMappingModel {
    /// Which file a mapping model was read from.
    public enum Kind: String, Hashable, Sendable {
        /// Xcode's editable package, `Name.xcmappingmodel/xcmapping.xml`.
        case xcmappingmodel
        /// The compiled keyed archive of an `NSMappingModel`, `Name.cdm`.
        case cdm
    }

    /// The file, as the caller named it.
    public var file: String
    /// Which kind of file it was.
    public var kind: Kind
    /// The snapshot of the source model the editor last saw
    /// (`sourcemodeldata`), converted; nil for a `.cdm`. Often stale in
    /// details: a hint for matching versions, not the truth.
    public var sourceModel: Model?
    /// The snapshot of the destination model; nil for a `.cdm`.
    public var destinationModel: Model?
    /// The source model's path as Xcode recorded it (often out of date).
    public var sourceModelPath: String?
    /// The destination model's path as Xcode recorded it.
    public var destinationModelPath: String?
    /// The live entity mappings (orphans left out), in the order Core Data
    /// runs them (`mappingnumber`, or the archive's array order).
    public var entityMappings: [EntityMapping]

    /// Creates a mapping model.
    public init(
        file: String, kind: Kind, sourceModel: Model? = nil, destinationModel: Model? = nil,
        sourceModelPath: String? = nil, destinationModelPath: String? = nil,
        entityMappings: [EntityMapping]
    ) {
        self.file = file
        self.kind = kind
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.sourceModelPath = sourceModelPath
        self.destinationModelPath = destinationModelPath
        self.entityMappings = entityMappings
    }

    /// One entity mapping (`NSEntityMapping`): how the objects of a source
    /// entity become objects of a destination entity.
    public struct EntityMapping {
        /// The mapping's name: the stored one, else `<Source>To<Destination>`,
        /// `<Destination>` (no source: an add mapping) or `<Source>` (no
        /// destination).
        public var name: String
        /// The source entity; nil for an add mapping.
        public var sourceEntity: String?
        /// The destination entity; nil for a remove mapping.
        public var destinationEntity: String?
        /// `NSSourceEntityVersionHash` (a `.cdm` only).
        public var sourceEntityVersionHash: Data?
        /// `NSDestinationEntityVersionHash` (a `.cdm` only).
        public var destinationEntityVersionHash: Data?
        /// The source fetch's filter in `NSPredicate` syntax
        /// (`sourcefilterpredicatestring`, or the `predicateString` of a
        /// `.cdm`'s `FETCH` source expression); nil for every object.
        public var filterPredicate: String?
        /// The `.cdm`'s `NSSourceExpression` when it is not the default
        /// `FETCH` over the source entity the reader recognises; nil otherwise.
        public var sourceExpression: ArchivedObject?
        /// The `NSEntityMigrationPolicy` subclass (`Module.ClassName`); nil
        /// when none is named (an empty name is none).
        public var policyClassName: String?
        /// The attribute mappings, one per destination attribute.
        public var attributeMappings: [PropertyMapping]
        /// The relationship mappings, one per destination relationship.
        public var relationshipMappings: [PropertyMapping]
        /// Where the mapping is in its file: `object z107` (XML) or
        /// `$objects[12]` (archive).
        public var location: String

        /// Creates an entity mapping.
        public init(
            name: String, sourceEntity: String?, destinationEntity: String?,
            sourceEntityVersionHash: Data? = nil, destinationEntityVersionHash: Data? = nil,
            filterPredicate: String? = nil, sourceExpression: ArchivedObject? = nil,
            policyClassName: String? = nil, attributeMappings: [PropertyMapping] = [],
            relationshipMappings: [PropertyMapping] = [], location: String
        ) {
            self.name = name
            self.sourceEntity = sourceEntity
            self.destinationEntity = destinationEntity
            self.sourceEntityVersionHash = sourceEntityVersionHash
            self.destinationEntityVersionHash = destinationEntityVersionHash
            self.filterPredicate = filterPredicate
            self.sourceExpression = sourceExpression
            self.policyClassName = policyClassName
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
            self.location = location
        }
    }

    /// One property mapping (`NSPropertyMapping`): the value of one
    /// destination attribute or relationship.
    public struct PropertyMapping {
        /// The destination property.
        public var name: String
        /// The archived `NSExpression` of the value; nil when the file stores
        /// none (in a `.xcmappingmodel`: the default, made at compile time).
        public var valueExpression: ArchivedObject?
        /// A relationship mapping's "Key Path" field (`$source.country`), as
        /// typed in the editor (a `.xcmappingmodel` only).
        public var sourceKeyPath: String?
        /// A relationship mapping's "Mapping Name" field (`CountryToCountry`)
        /// (a `.xcmappingmodel` only).
        public var sourceMappingName: String?
        /// Where the mapping is in its file: `object z112` or `$objects[30]`.
        public var location: String

        /// Creates a property mapping.
        public init(
            name: String, valueExpression: ArchivedObject? = nil, sourceKeyPath: String? = nil,
            sourceMappingName: String? = nil, location: String
        ) {
            self.name = name
            self.valueExpression = valueExpression
            self.sourceKeyPath = sourceKeyPath
            self.sourceMappingName = sourceMappingName
            self.location = location
        }
    }
}
