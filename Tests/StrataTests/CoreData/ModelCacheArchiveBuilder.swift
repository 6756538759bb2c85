import Foundation

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Builds the keyed archive of a model cache entry by entry, as
/// `NSKeyedArchiver` lays it out, for models and features the fixture
/// stores lack.
struct ModelCacheArchiveBuilder {
    /// `$null`, then a slot for the model, which must be object 1.
    var objects: [RecordValue] = [.text("$null"), .null]
    var classes: [String: RecordValue] = [:]

    mutating func add(_ value: RecordValue) -> RecordValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    mutating func classUID(_ name: String) -> RecordValue {
        if let uid = classes[name] { return uid }
        let uid = add(
            .dictionary(entries: [
                "$classname": .text(name),
                "$classes": .array(values: [.text(name), .text("NSObject")]),
            ]))
        classes[name] = uid
        return uid
    }

    mutating func object(_ className: String, _ fields: [String: RecordValue]) -> RecordValue {
        let uid = classUID(className)
        return add(.dictionary(entries: fields.merging(["$class": uid]) { $1 }))
    }

    mutating func dictionary(_ entries: [(String, RecordValue)]) -> RecordValue {
        let keys = entries.map { add(.text($0.0)) }
        let values = entries.map(\.1)
        return object(
            "NSDictionary", ["NS.keys": .array(values: keys), "NS.objects": .array(values: values)])
    }

    /// The archive of a model with `entities`, deflated like a cache.
    mutating func cache(
        entities: [(String, RecordValue)], versionIdentifiers: [String] = []
    ) throws -> Data {
        let table = dictionary(entities)
        var root = ["$class": classUID("NSManagedObjectModel"), "NSEntities": table]
        if !versionIdentifiers.isEmpty {
            let strings = versionIdentifiers.map { add(.text($0)) }
            root["NSVersionIdentifiers"] = object("NSSet", ["NS.objects": .array(values: strings)])
        }
        objects[1] = .dictionary(entries: root)
        let plist = BinaryPropertyList.encode(
            .dictionary(entries: [
                "$archiver": .text("NSKeyedArchiver"),
                "$top": .dictionary(entries: ["root": .uid(1)]),
                "$objects": .array(values: objects),
            ]))
        return try RawDeflate.deflate(plist)
    }

    // MARK: - Whole models

    /// How a subentity's `NSProperties` lists the properties it inherits.
    enum InheritedProperties {
        /// Again, as descriptions of the subentity's own with the same
        /// definition (as Core Data's caches hold them).
        case copies
        /// Again, as the very objects its parent lists.
        case sameObjects
        /// Not at all: only the properties the entity declares.
        case omitted
    }

    /// An attribute or relationship to archive.
    enum Property {
        case attribute(Attribute)
        case relationship(Relationship)
    }

    /// The deflated model cache of `model`, every subentity listing its
    /// inherited properties as `inherited` says.
    static func cache(of model: Model, inherited: InheritedProperties = .copies) throws -> Data {
        var builder = Self()
        let order = model.entitiesInNumberingOrder
        var entityUIDs: [String: RecordValue] = [:]
        for entity in order { entityUIDs[entity.name] = builder.add(.null) }
        // The properties each entity has, inherited ones first, with the
        // objects its NSProperties lists (or, when omitted, its parent's).
        var has: [String: [(name: String, property: Property, uid: RecordValue)]] = [:]
        for entity in order {
            let uid = entityUIDs[entity.name] ?? .uid(0)
            let fromParent = entity.parent.flatMap { has[$0] } ?? []
            var own: [(name: String, property: Property, uid: RecordValue)] = []
            for attribute in entity.attributes {
                let property = Property.attribute(attribute)
                own.append(
                    (attribute.name, property, builder.property(property, of: uid, entityUIDs)))
            }
            for relationship in entity.relationships {
                let property = Property.relationship(relationship)
                own.append(
                    (relationship.name, property, builder.property(property, of: uid, entityUIDs)))
            }
            var listed = own
            switch inherited {
            case .copies:
                listed += fromParent.map {
                    ($0.name, $0.property, builder.property($0.property, of: uid, entityUIDs))
                }
                has[entity.name] = listed
            case .sameObjects:
                listed += fromParent
                has[entity.name] = listed
            case .omitted:
                has[entity.name] = fromParent + own
            }
            var fields: [String: RecordValue] = [
                "$class": builder.classUID("NSEntityDescription"),
                "NSEntityName": builder.add(.text(entity.name)),
                "NSIsAbstract": .boolean(entity.isAbstract),
                "NSRenamingIdentifier": builder.add(
                    .text(entity.renamingIdentifier ?? entity.name)),
                "NSProperties": builder.dictionary(listed.map { ($0.name, $0.uid) }),
                "NSSubentities": builder.dictionary(
                    model.subentities(of: entity.name).map {
                        ($0.name, entityUIDs[$0.name] ?? .uid(0))
                    }),
            ]
            if let parent = entity.parent { fields["NSSuperentity"] = entityUIDs[parent] }
            if let modifier = entity.versionHashModifier {
                fields["NSVersionHashModifier"] = builder.add(.text(modifier))
            }
            if !entity.uniquenessConstraints.isEmpty {
                let tuples = entity.uniquenessConstraints.map { names in
                    builder.object(
                        "NSArray",
                        ["NS.objects": .array(values: names.map { builder.add(.text($0)) })])
                }
                fields["NSUniqueTuples"] = builder.object(
                    "NSArray", ["NS.objects": .array(values: tuples)])
            }
            if case .uid(let index) = uid {
                builder.objects[Int(index)] = .dictionary(entries: fields)
            }
        }
        return try builder.cache(
            entities: model.entities.map { ($0.name, entityUIDs[$0.name] ?? .uid(0)) },
            versionIdentifiers: model.versionIdentifier.isEmpty ? [] : [model.versionIdentifier])
    }

    /// One property description of the entity at `entity`, with the keys
    /// ``ModelCache`` reads and the flags in `_P` as recent frameworks
    /// write them.
    mutating func property(
        _ property: Property, of entity: RecordValue, _ entityUIDs: [String: RecordValue]
    ) -> RecordValue {
        func flags(optional: Bool, transient: Bool, ordered: Bool, modifier: String?) -> Int64 {
            0x71 | (optional ? 0x2 : 0) | (transient ? 0x8 : 0) | (modifier == nil ? 0x80 : 0)
                | (ordered ? 0x400 : 0)
        }
        var fields: [String: RecordValue] = ["NSEntity": entity]
        switch property {
        case .attribute(let attribute):
            fields["NSPropertyName"] = add(.text(attribute.name))
            fields["_P"] = .integer(
                flags(
                    optional: attribute.isOptional, transient: attribute.isTransient,
                    ordered: false, modifier: attribute.versionHashModifier))
            fields["NSAttributeType"] = .integer(Int64(attribute.type.coreDataCode))
            fields["NSRenamingIdentifier"] = add(
                .text(attribute.renamingIdentifier ?? attribute.name))
            if let modifier = attribute.versionHashModifier {
                fields["NSVersionHashModifier"] = add(.text(modifier))
            }
            if let transformer = attribute.valueTransformer {
                fields["NSValueTransformerName"] = add(.text(transformer))
            }
            fields["NSFlagsKey"] = .integer(
                (attribute.allowsExternalStorage ? 0x4 : 0)
                    | (attribute.preservesValueOnDeletion ? 0x10 : 0))
            fields["NSIsIndexed"] = .boolean(attribute.isIndexed)
            switch attribute.defaultValue {
            case .literal(.integer(let number))?: fields["NSDefaultValue"] = .integer(number)
            case .literal(.boolean(let flag))?: fields["NSDefaultValue"] = .boolean(flag)
            case .literal(.real(let number))?: fields["NSDefaultValue"] = .real(number)
            case .literal(.string(let text))?: fields["NSDefaultValue"] = add(.text(text))
            default: break
            }
            return object("NSAttributeDescription", fields)
        case .relationship(let relationship):
            fields["NSPropertyName"] = add(.text(relationship.name))
            fields["_P"] = .integer(
                flags(
                    optional: relationship.isOptional, transient: relationship.isTransient,
                    ordered: relationship.isOrdered, modifier: relationship.versionHashModifier))
            fields["_NSDestinationEntityName"] = add(.text(relationship.destination))
            fields["NSDestinationEntity"] = entityUIDs[relationship.destination]
            if relationship.hasInverse {
                fields["_NSInverseRelationshipName"] = add(.text(relationship.inverse))
            }
            fields["NSMinCount"] = .integer(Int64(relationship.minCount))
            fields["NSMaxCount"] = .integer(Int64(relationship.maxCount))
            fields["NSDeleteRule"] = .integer(Int64(relationship.deleteRule.coreDataCode))
            fields["NSRenamingIdentifier"] = add(
                .text(relationship.renamingIdentifier ?? relationship.name))
            if let modifier = relationship.versionHashModifier {
                fields["NSVersionHashModifier"] = add(.text(modifier))
            }
            return object("NSRelationshipDescription", fields)
        }
    }
}
