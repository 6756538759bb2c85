import Foundation
import StrataCore
import StrataSchema

/// Core Data's model cache: the `NSManagedObjectModel` a store was last
/// saved with, kept in the store itself (coredata-format.md §1.9).
///
/// The table `Z_MODELCACHE` has one row whose `Z_CONTENT` is raw DEFLATE of
/// an `NSKeyedArchiver` binary property list. Decoding it recovers the
/// entities and every property that enters the version hashes, so a store
/// can be described without its model file.
///
/// ```swift
/// if let blob = try ModelCache.read(from: connection) {
///     let model = try ModelCache.decode(blob, modelName: "Bookmarks")
///     print(model.versionHashes)
/// }
/// ```
public enum ModelCache {
    /// The most bytes a cache may inflate to (64 MB): real caches are a few
    /// kilobytes, so more is a corrupt or hostile store.
    public static let maximumInflatedSize = 64 * 1024 * 1024

    /// Reads the compressed model cache of a store.
    ///
    /// - Parameter connection: An open connection to a Core Data store.
    /// - Returns: `Z_CONTENT` of the first row, or nil when the store has no
    ///   `Z_MODELCACHE` table (stores older than framework 637), no row, or
    ///   a NULL content.
    /// - Throws: ``SQLiteError`` from the query, ``ModelCacheError`` when
    ///   the content is not a blob.
    public static func read(from connection: Connection) throws -> Data? {
        guard try connection.tableExists("Z_MODELCACHE") else { return nil }
        switch try connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE ORDER BY rowid LIMIT 1") {
        case nil, .null?: return nil
        case .blob(let data)?: return data
        default: throw ModelCacheError("Z_MODELCACHE.Z_CONTENT is not a blob")
        }
    }

    /// Decodes a compressed model cache into a model.
    ///
    /// The cache knows neither the model's name nor its version number:
    /// the name comes from the caller and the version is 1. The version
    /// identifier is the first of the model's `versionIdentifiers` in sorted
    /// order. Fetched properties and fetch requests are left out; transient
    /// attributes of types Strata lacks (undefined, object ID, composite)
    /// are skipped, since they have no column and no hash.
    ///
    /// Core Data lists a subentity's inherited properties again in its
    /// archive; each is kept only on the entity that declares it. A repeat
    /// must be the same archived object or have the same definition
    /// (`isIndexed` aside), at every level of the inheritance tree.
    ///
    /// - Parameters:
    ///   - content: `Z_MODELCACHE.Z_CONTENT`.
    ///   - modelName: The name to give the model.
    /// - Returns: The model, whose ``Model/versionHashes`` match the store's
    ///   metadata when the cache is current.
    /// - Throws: ``CompressionError``, ``PropertyListError``,
    ///   ``KeyedArchiveError`` or ``ModelCacheError`` (also for a subentity
    ///   that repeats an inherited property with another definition,
    ///   naming both), never a crash.
    public static func decode(_ content: Data, modelName: String) throws -> Model {
        let archive = try RawDeflate.inflate(content, limit: maximumInflatedSize)
        return try decodeArchive(archive, modelName: modelName)
    }

    /// Decodes an uncompressed archive of an `NSManagedObjectModel`.
    ///
    /// - Parameters:
    ///   - archive: The keyed archive's binary property list.
    ///   - modelName: The name to give the model.
    /// - Returns: The model.
    /// - Throws: As ``decode(_:modelName:)``, minus ``CompressionError``.
    public static func decodeArchive(_ archive: Data, modelName: String) throws -> Model {
        let keyed = try KeyedArchive(data: archive)
        guard let root = try keyed.topObject() else {
            throw ModelCacheError("the archive has no root object")
        }
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw ModelCacheError("the root object is a \(root.className), not a model")
        }
        var archived: [ArchivedEntity] = []
        var names: Set<String> = []
        for (_, value) in try root.dictionary("NSEntities") ?? [] {
            let entity = try decodeEntity(try value.object())
            guard names.insert(entity.entity.name).inserted else {
                throw ModelCacheError("duplicate entity", entity: entity.entity.name)
            }
            archived.append(entity)
        }
        let entities = try declaringEntities(archived)
        let identifiers = try (root.array("NSVersionIdentifiers") ?? []).compactMap { value in
            // Identifiers are strings by convention; any other kind says
            // nothing Strata can record.
            if case .plain(.text(let identifier)) = value { return identifier }
            return nil
        }
        return Model(
            name: modelName, version: 1, versionIdentifier: identifiers.sorted().first ?? "",
            entities: entities)
    }

    // MARK: - Entities

    /// One `NSEntityDescription`, with every property its `NSProperties`
    /// lists (inherited ones included; see ``declaringEntities(_:)``).
    package static func decodeEntity(_ object: ArchivedObject) throws -> ArchivedEntity {
        guard object.isKind(of: "NSEntityDescription") else {
            throw ModelCacheError("NSEntities holds a \(object.className)")
        }
        guard let name = try object.string("NSEntityName") else {
            throw ModelCacheError("entity without NSEntityName")
        }
        do {
            var entity = Entity(name: name)
            // Only the parent's name: following the parent object itself
            // could walk a cyclic archive.
            entity.parent = try object.object("NSSuperentity")?.string("NSEntityName")
            entity.isAbstract = try object.bool("NSIsAbstract") ?? false
            entity.versionHashModifier = try object.string("NSVersionHashModifier")
            let renamingIdentifier = try object.string("NSRenamingIdentifier")
            entity.renamingIdentifier = renamingIdentifier == name ? nil : renamingIdentifier
            entity.uniquenessConstraints = try uniquenessConstraints(of: object)
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            var objects: [String: Int] = [:]
            for (_, value) in try object.dictionary("NSProperties") ?? [] {
                let property = try value.object()
                if property.isKind(of: "NSRelationshipDescription") {
                    let relationship = try decodeRelationship(property, entity: name)
                    relationships.append(relationship)
                    objects[relationship.name] = property.index
                } else if property.isKind(of: "NSAttributeDescription") {
                    if let attribute = try decodeAttribute(property, entity: name) {
                        attributes.append(attribute)
                        objects[attribute.name] = property.index
                    }
                }
                // Fetched and expression properties have no column and no
                // hash; Strata has no place for them.
            }
            entity.attributes = attributes
            entity.relationships = relationships
            return ArchivedEntity(entity: entity, objects: objects)
        } catch var error as ModelCacheError {
            error.entity = error.entity ?? name
            throw error
        }
    }

    /// `NSUniqueTuples`: an array of arrays whose elements are property
    /// names or the property descriptions themselves.
    private static func uniquenessConstraints(of entity: ArchivedObject) throws -> [[String]] {
        var constraints: [[String]] = []
        for tuple in try entity.array("NSUniqueTuples") ?? [] {
            var names: [String] = []
            for element in try tuple.object().elements() {
                if case .object(let property) = element, property.contains("NSPropertyName") {
                    names.append(try property.string("NSPropertyName") ?? "")
                } else {
                    names.append(try element.stringValue())
                }
            }
            constraints.append(names)
        }
        return constraints
    }
}
