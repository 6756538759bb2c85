import Foundation
import StrataSchema

// MARK: - Properties

// Property flags live in `_P` in archives of recent frameworks (bits below,
// checked against the fixtures: 0xF3 optional, 0xF1 required, 0x73 with a
// version hash modifier, 0x4F3 ordered). Older archives have separate
// `NSIsOptional`/`NSIsTransient`/`NSIsOrdered` keys, which recent ones still
// write for the flags that are set.

extension ModelCache {
    /// `_P` bit: the property may be nil.
    static let optionalFlag: Int64 = 0x2
    /// `_P` bit: the property is transient.
    static let transientFlag: Int64 = 0x8
    /// `_P` bit: the to-many relationship is ordered.
    static let orderedFlag: Int64 = 0x400
    /// `NSFlagsKey` bit: `allowsExternalBinaryDataStorage`.
    static let externalStorageFlag: Int64 = 0x4
    /// `NSFlagsKey` bit: `preservesValueInHistoryOnDeletion`.
    static let preserveOnDeletionFlag: Int64 = 0x10

    /// The flags shared by attributes and relationships.
    struct PropertyFlags {
        var isOptional: Bool
        var isTransient: Bool
        var isOrdered: Bool

        /// Reads `_P`, or the separate keys when it is absent.
        init(_ property: ArchivedObject) throws {
            if let bits = try property.integer("_P") {
                isOptional = bits & ModelCache.optionalFlag != 0
                isTransient = bits & ModelCache.transientFlag != 0
                isOrdered = bits & ModelCache.orderedFlag != 0
            } else {
                isOptional = try property.bool("NSIsOptional") ?? false
                isTransient = try property.bool("NSIsTransient") ?? false
                isOrdered = try property.bool("NSIsOrdered") ?? false
            }
        }
    }

    /// One `NSAttributeDescription`, or nil for a transient attribute of a
    /// type Strata lacks.
    static func decodeAttribute(_ object: ArchivedObject, entity: String) throws -> Attribute? {
        guard let name = try object.string("NSPropertyName") else {
            throw ModelCacheError("attribute without NSPropertyName", entity: entity)
        }
        let flags = try PropertyFlags(object)
        let code = try object.integer("NSAttributeType") ?? 0
        guard let type = AttributeType(coreDataCode: code) else {
            // Undefined (0), object ID (2000) and composite (2100) attributes
            // have no column when transient, and transient ones never enter
            // a hash, so leaving them out changes nothing a store needs.
            if flags.isTransient { return nil }
            throw ModelCacheError(
                "unsupported attribute type code \(code)", entity: entity, property: name)
        }
        var attribute = Attribute(name: name, type: type)
        attribute.isOptional = flags.isOptional
        attribute.isTransient = flags.isTransient
        attribute.isIndexed = try object.bool("NSIsIndexed") ?? false
        attribute.versionHashModifier = try object.string("NSVersionHashModifier")
        let renamingIdentifier = try object.string("NSRenamingIdentifier")
        attribute.renamingIdentifier = renamingIdentifier == name ? nil : renamingIdentifier
        attribute.valueTransformer = try object.string("NSValueTransformerName")
        let storageFlags = try object.integer("NSFlagsKey") ?? 0
        attribute.allowsExternalStorage = storageFlags & externalStorageFlag != 0
        attribute.preservesValueOnDeletion = storageFlags & preserveOnDeletionFlag != 0
        if let value = try object.value("NSDefaultValue") {
            attribute.defaultValue = defaultValue(value, type: type)
        }
        return attribute
    }

    /// One `NSRelationshipDescription`.
    package static func decodeRelationship(
        _ object: ArchivedObject, entity: String
    ) throws -> Relationship {
        guard let name = try object.string("NSPropertyName") else {
            throw ModelCacheError("relationship without NSPropertyName", entity: entity)
        }
        // Recent archives name the destination and inverse directly; older
        // ones only point at the objects. Read names, never walk further.
        let destination =
            try object.string("_NSDestinationEntityName")
            ?? object.object("NSDestinationEntity")?.string("NSEntityName")
        guard let destination else {
            throw ModelCacheError(
                "relationship without a destination", entity: entity, property: name)
        }
        let inverse =
            try object.string("_NSInverseRelationshipName")
            ?? object.object("NSInverseRelationship")?.string("NSPropertyName")
        let flags = try PropertyFlags(object)
        let minCount = try object.integer("NSMinCount") ?? 0
        let maxCount = try object.integer("NSMaxCount") ?? 0
        guard let min = Int(exactly: minCount), let max = Int(exactly: maxCount),
            min >= 0, max >= 0
        else {
            throw ModelCacheError(
                "counts \(minCount)…\(maxCount) out of range", entity: entity, property: name)
        }
        let ruleCode = try object.integer("NSDeleteRule") ?? Int64(DeleteRule.nullify.coreDataCode)
        guard let rule = DeleteRule(coreDataCode: ruleCode) else {
            throw ModelCacheError(
                "unknown delete rule \(ruleCode)", entity: entity, property: name)
        }
        // A relationship without an inverse hashes like one with an empty
        // inverse name (nothing is appended either way).
        var relationship = Relationship(
            name: name, destination: destination, inverse: inverse ?? "", isToMany: max != 1)
        relationship.isOptional = flags.isOptional
        relationship.isTransient = flags.isTransient
        relationship.isOrdered = flags.isOrdered
        relationship.minCount = min
        relationship.maxCount = max
        relationship.deleteRule = rule
        relationship.versionHashModifier = try object.string("NSVersionHashModifier")
        let renamingIdentifier = try object.string("NSRenamingIdentifier")
        relationship.renamingIdentifier = renamingIdentifier == name ? nil : renamingIdentifier
        return relationship
    }

    // MARK: - Default values

    /// The default value as an ``AttributeDefault``, or nil when it has a
    /// form Strata does not read (`NSDecimalNumber`, `NSURL`, transformed
    /// objects). Defaults enter neither hashes nor columns, so such a value
    /// is dropped rather than failing the whole model.
    package static func defaultValue(_ value: ArchivedValue, type: AttributeType)
        -> AttributeDefault?
    {
        do {
            let literal: AttributeValue?
            switch type {
            case .integer16, .integer32, .integer64:
                literal = .integer(try value.integerValue())
            case .boolean:
                literal = .boolean(try value.boolValue())
            case .double, .float, .decimal:
                literal = .real(try value.realValue())
            case .string, .uri:
                literal = .string(try value.stringValue())
            case .date:
                // NSDate archives its seconds since 2001 as NS.time.
                literal = try value.object().value("NS.time").map { .date(try $0.realValue()) }
            case .binary, .transformable:
                literal = .data(try value.dataValue())
            case .uuid:
                let bytes = try value.object().data("NS.uuidbytes")
                literal = bytes.flatMap(Self.uuid).map { .uuid($0) }
            }
            return literal.map { .literal($0) }
        } catch {
            return nil
        }
    }

    /// A UUID from exactly 16 bytes.
    private static func uuid(_ bytes: Data) -> UUID? {
        guard bytes.count == 16 else { return nil }
        let b = [UInt8](bytes)
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
