import Foundation
import StrataValues

// MARK: - Version hashes (coredata-format.md §1.11)

// Core Data decides whether a store fits a model by comparing per-entity
// version hashes, which it records in the store's metadata
// (`NSStoreModelVersionHashes`). The recipe below reproduces them byte for
// byte. Integers are little-endian, strings are UTF-8 without a terminator or
// a length prefix.
//
// Ordering: wherever the recipe sorts names (properties, uniqueness
// constraints, entities), this file sorts by UTF-8 bytes, which is the same as
// Unicode code-point order. For ASCII names, the only kind the reference
// stores contain, this equals Swift's `String <`; for other names Swift's `<`
// compares canonically-equivalent forms and could differ, and Core Data's own
// order for them is unverified.

extension Model {
    /// The Core Data version hash of one entity.
    ///
    /// It covers the entity's name, whether it is abstract, its parent's
    /// hash, every non-transient attribute and relationship (inherited ones
    /// included), its `versionHashModifier` and its uniqueness constraints.
    /// Delete rules, defaults, validation, indexes and renaming identifiers do
    /// not enter it, so changing them keeps a store compatible.
    ///
    /// An entity whose parent is missing or lies on a parent cycle is hashed
    /// as if its chain of ancestors stopped there.
    ///
    /// - Parameter name: The name of an entity of this model.
    /// - Returns: The 32-byte SHA-256 hash, or `nil` when the model has no
    ///   entity named `name`.
    public func versionHash(ofEntity name: String) -> [UInt8]? {
        guard let entity = entity(named: name) else { return nil }
        // The hash of each entity includes its parent's, so start at the root.
        var hash: [UInt8]?
        for ancestor in ([entity] + ancestors(of: name)).reversed() {
            hash = entityHash(of: ancestor, parentHash: hash)
        }
        return hash
    }

    /// The version hash of every entity, keyed by entity name.
    ///
    /// This is the dictionary Core Data stores as `NSStoreModelVersionHashes`
    /// in the metadata of a store and compares on opening it.
    ///
    /// - Returns: One 32-byte hash per entity, abstract entities included.
    public var versionHashes: [String: [UInt8]] {
        // Entities in numbering order, so each parent's hash and sorted
        // property list are ready before its children need them: the work is
        // the size of the lists hashed, not one walk up the chain per entity.
        let forest = InheritanceForest(self)
        var hashes: [String: [UInt8]] = [:]
        var entityHashes: [[UInt8]] = []
        entityHashes.reserveCapacity(forest.order.count)
        var children = [Int](repeating: 0, count: forest.order.count)
        for parent in forest.parent { if let parent { children[parent] += 1 } }
        // The sorted property lists of entities with children still to come.
        var lists: [Int: [PropertyHash]] = [:]
        for (index, entity) in forest.order.enumerated() {
            let parent = forest.parent[index]
            let list: [PropertyHash]
            let hash: [UInt8]
            if forest.onCycle.contains(entity.name) {
                // A bad model: hashed as `versionHash(ofEntity:)` walks it.
                list = sortedPropertyHashes(of: entity.name)
                hash = versionHash(ofEntity: entity.name) ?? []
            } else {
                list = Self.merging(
                    ownPropertyHashes(of: entity), into: parent.flatMap { lists[$0] } ?? [])
                hash = entityHash(
                    of: entity, parentHash: parent.map { entityHashes[$0] }, properties: list)
            }
            entityHashes.append(hash)
            if hashes[entity.name] == nil { hashes[entity.name] = hash }
            if children[index] > 0 { lists[index] = list }
            if let parent {
                children[parent] -= 1
                if children[parent] == 0 { lists[parent] = nil }
            }
        }
        return hashes
    }

    /// The model's version checksum, as recorded under
    /// `NSStoreModelVersionChecksumKey` (framework 1333 and later).
    ///
    /// This is the base64 SHA-256 of the entity hashes concatenated in
    /// entity-name order, the value of `NSManagedObjectModel.versionChecksum`.
    ///
    /// - Returns: A 44-character base64 string.
    public var versionChecksum: String {
        Self.versionChecksum(of: versionHashes)
    }

    /// ``versionChecksum`` of already computed `hashes`.
    package static func versionChecksum(of hashes: [String: [UInt8]]) -> String {
        var hasher = SHA256()
        for name in Self.sortedByUTF8(Array(hashes.keys)) {
            hasher.update(hashes[name] ?? [])
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// The digest of the model's version hashes, as recorded under
    /// `NSStoreModelVersionHashesDigest` (framework 977 and later).
    ///
    /// This is the base64 SHA-512 over the entity names in sorted order, each
    /// name's UTF-8 bytes followed by that entity's 32-byte hash.
    ///
    /// - Returns: An 88-character base64 string.
    public var versionHashesDigest: String {
        Self.versionHashesDigest(of: versionHashes)
    }

    /// ``versionHashesDigest`` of already computed `hashes`.
    package static func versionHashesDigest(of hashes: [String: [UInt8]]) -> String {
        var hasher = SHA512()
        for name in Self.sortedByUTF8(Array(hashes.keys)) {
            hasher.update(name.utf8)
            hasher.update(hashes[name] ?? [])
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// The version hash of every stored property of `entityName`, inherited
    /// ones included, by property name: what two versions of an entity are
    /// compared on when their entity hashes differ.
    public func propertyVersionHashes(ofEntity entityName: String) -> [String: [UInt8]] {
        Dictionary(propertyHashList(of: entityName).map { ($0.name, $0.hash) }) { first, _ in first
        }
    }

    // MARK: - Recipe

    /// `hash(p)` of every non-transient attribute and relationship of the
    /// entity, inherited ones included, unsorted.
    private func propertyHashList(of entityName: String) -> [(name: String, hash: [UInt8])] {
        var properties: [(name: String, hash: [UInt8])] = []
        for attribute in allAttributes(of: entityName) where !attribute.isTransient {
            properties.append((attribute.name, Self.attributeHash(attribute)))
        }
        for relationship in allRelationships(of: entityName) where !relationship.isTransient {
            properties.append(
                (relationship.name, relationshipHash(relationship, declaredBy: entityName)))
        }
        return properties
    }

    /// `relHash(r)` of `relationship` as seen from `entityName` (which
    /// declares or inherits it).
    private func relationshipHash(
        _ relationship: Relationship, declaredBy entityName: String
    ) -> [UInt8] {
        let name = relationship.name
        // Its own inverse: the inverse found on the destination is this
        // very relationship (same name, declared by the same entity).
        let isOwnInverse =
            relationship.inverse == name
            && declaringEntity(ofRelationship: name, from: relationship.destination)
                == declaringEntity(ofRelationship: name, from: entityName)
        return Self.relationshipHash(relationship, isOwnInverse: isOwnInverse)
    }

    /// `entityHash(e)`: name, abstract flag, parent's hash, property hashes in
    /// name order, modifier, then the joined uniqueness constraints.
    private func entityHash(of entity: Entity, parentHash: [UInt8]?) -> [UInt8] {
        entityHash(
            of: entity, parentHash: parentHash, properties: sortedPropertyHashes(of: entity.name))
    }

    /// `entityHash(e)` with the property hashes already in hashing order.
    private func entityHash(
        of entity: Entity, parentHash: [UInt8]?, properties: [PropertyHash]
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(entity.name.utf8)
        hasher.update([entity.isAbstract ? 1 : 0])
        if let parentHash { hasher.update(parentHash) }
        for property in properties { hasher.update(property.hash) }
        if let modifier = entity.versionHashModifier { hasher.update(modifier.utf8) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
        for constraint in Self.sortedByUTF8(constraints) where !constraint.isEmpty {
            hasher.update(constraint.utf8)
        }
        return hasher.finalize()
    }

    /// `attrHash(a)`: the property hash, the `NSAttributeType` code, then one
    /// byte for each of external storage and preserve-on-deletion when set.
    private static func attributeHash(_ attribute: Attribute) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(
            propertyHash(
                name: attribute.name, isOptional: attribute.isOptional,
                isTransient: attribute.isTransient, modifier: attribute.versionHashModifier))
        hasher.update(ByteFields.littleEndianBytes(attribute.type.coreDataCode))
        if attribute.allowsExternalStorage { hasher.update([1]) }
        if attribute.preservesValueOnDeletion { hasher.update([1]) }
        return hasher.finalize()
    }

    /// `relHash(r)`: the property hash, destination name, inverse name (left
    /// out for a relationship that is its own inverse), max and min count,
    /// then `01 00` when ordered.
    private static func relationshipHash(
        _ relationship: Relationship, isOwnInverse: Bool
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(
            propertyHash(
                name: relationship.name, isOptional: relationship.isOptional,
                isTransient: relationship.isTransient, modifier: relationship.versionHashModifier))
        hasher.update(relationship.destination.utf8)
        if !isOwnInverse { hasher.update(relationship.inverse.utf8) }
        // Counts are unsigned 32-bit in the hash; a negative count is invalid
        // input and is truncated like a C cast rather than trapping.
        hasher.update(
            ByteFields.littleEndianBytes(UInt32(truncatingIfNeeded: relationship.effectiveMaxCount))
        )
        hasher.update(
            ByteFields.littleEndianBytes(UInt32(truncatingIfNeeded: relationship.minCount)))
        if relationship.isOrdered { hasher.update([1, 0]) }
        return hasher.finalize()
    }

    /// `propHash(p)`: the name, a 16-bit flag word (optional = 1,
    /// transient = 2, read-only = 4; Strata has no read-only properties), then
    /// the property's modifier.
    private static func propertyHash(
        name: String, isOptional: Bool, isTransient: Bool, modifier: String?
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(name.utf8)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        hasher.update([UInt8(truncatingIfNeeded: flags), UInt8(truncatingIfNeeded: flags >> 8)])
        if let modifier { hasher.update(modifier.utf8) }
        return hasher.finalize()
    }

    // MARK: - Property lists

    /// One property's hash, with what orders it in an entity's hash.
    private struct PropertyHash {
        var name: String
        /// 0 for an attribute, 1 for a relationship: an attribute comes first
        /// if a bad model reuses a name.
        var kind: Int
        var hash: [UInt8]

        /// Hashing order: by name (UTF-8 bytes), attributes first.
        static func precedes(_ lhs: PropertyHash, _ rhs: PropertyHash) -> Bool {
            if lhs.name == rhs.name { return lhs.kind < rhs.kind }
            return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
        }
    }

    /// Every stored property of `entityName`, inherited ones included, in
    /// hashing order. Attributes and relationships are one list sorted by
    /// name: they interleave (`children`, `favorites`, `isFolder`, …).
    private func sortedPropertyHashes(of entityName: String) -> [PropertyHash] {
        var list: [PropertyHash] = []
        for attribute in allAttributes(of: entityName) where !attribute.isTransient {
            list.append(
                PropertyHash(name: attribute.name, kind: 0, hash: Self.attributeHash(attribute)))
        }
        for relationship in allRelationships(of: entityName) where !relationship.isTransient {
            list.append(
                PropertyHash(
                    name: relationship.name, kind: 1,
                    hash: relationshipHash(relationship, declaredBy: entityName)))
        }
        return Self.stableSorted(list)
    }

    /// The entity's own stored properties in hashing order.
    private func ownPropertyHashes(of entity: Entity) -> [PropertyHash] {
        var list: [PropertyHash] = []
        for attribute in entity.attributes where !attribute.isTransient {
            list.append(
                PropertyHash(name: attribute.name, kind: 0, hash: Self.attributeHash(attribute)))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            list.append(
                PropertyHash(
                    name: relationship.name, kind: 1,
                    hash: relationshipHash(relationship, declaredBy: entity.name)))
        }
        return Self.stableSorted(list)
    }

    private static func stableSorted(_ list: [PropertyHash]) -> [PropertyHash] {
        list.enumerated().sorted { lhs, rhs in
            PropertyHash.precedes(lhs.element, rhs.element)
                || (!PropertyHash.precedes(rhs.element, lhs.element) && lhs.offset < rhs.offset)
        }.map(\.element)
    }

    /// An entity's own sorted properties merged with its parent's sorted
    /// list; an own property hides an inherited one of the same name and kind.
    private static func merging(
        _ own: [PropertyHash], into inherited: [PropertyHash]
    ) -> [PropertyHash] {
        guard !inherited.isEmpty else { return own }
        guard !own.isEmpty else { return inherited }
        var merged: [PropertyHash] = []
        merged.reserveCapacity(own.count + inherited.count)
        var i = 0
        var j = 0
        while i < own.count || j < inherited.count {
            if j == inherited.count
                || (i < own.count && !PropertyHash.precedes(inherited[j], own[i]))
            {
                // Equal name and kind: the subentity's own declaration wins.
                if j < inherited.count, own[i].name == inherited[j].name,
                    own[i].kind == inherited[j].kind
                {
                    j += 1
                }
                merged.append(own[i])
                i += 1
            } else {
                merged.append(inherited[j])
                j += 1
            }
        }
        return merged
    }

    // MARK: - Helpers

    /// The name of the entity that declares the relationship `name` as seen
    /// from `entityName`: the entity itself or the nearest ancestor that has
    /// it. Two equal results mean the same relationship object.
    private func declaringEntity(ofRelationship name: String, from entityName: String) -> String? {
        guard let entity = entity(named: entityName) else { return nil }
        return ([entity] + ancestors(of: entityName)).first { candidate in
            candidate.relationship(named: name) != nil
        }?.name
    }

    /// `names` sorted by their UTF-8 bytes (see the note on ordering above).
    private static func sortedByUTF8(_ names: [String]) -> [String] {
        names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
