import Foundation

@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Writes a model as the `XDPMModel` snapshot a `.xcmappingmodel` embeds
/// (coredata-mapping-models.md §2.2): a package of entities, properties
/// owned by their entity (`_owner` links back), settings in stereotypes,
/// parents through generalizations; the cycles of real snapshots included.
enum ModelSnapshotFixture {
    /// How the snapshot is written.
    enum Style {
        /// As recent Xcode writes it: every key.
        case current
        /// As framework 251 did: no `elementID`, `versionHashModifier`,
        /// `ordered` or `isToMany`, counts as `NSDecimalNumber`s.
        case old
    }

    /// The snapshot archive of `model`.
    static func archive(
        of model: Model, versionIdentifier: String? = "", style: Style = .current
    ) -> Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.reserve()
        let package = builder.reserve()
        var entityUIDs: [String: RecordValue] = [:]
        var propertyUIDs: [String: [String: RecordValue]] = [:]
        for entity in model.entities {
            entityUIDs[entity.name] = builder.reserve()
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                propertyUIDs[entity.name, default: [:]][name] = builder.reserve()
            }
        }
        let old = style == .old
        for entity in model.entities {
            let uid = entityUIDs[entity.name] ?? .uid(0)
            var values: [(String, RecordValue)] = [
                ("XD_PSK_isAbstract", .boolean(entity.isAbstract)),
                ("XD_PSK_entityClassName", builder.string("." + entity.name)),
            ]
            if !old {
                if let modifier = entity.versionHashModifier {
                    values.append(("XD_PSK_versionHashModifier", builder.string(modifier)))
                }
                if let identifier = entity.renamingIdentifier {
                    values.append(("XD_PSK_elementID", builder.string(identifier)))
                }
            }
            if !entity.uniquenessConstraints.isEmpty {
                let lists = entity.uniquenessConstraints.map { names in
                    builder.array(names.map { builder.string($0) })
                }
                values.append(("XDPMUniquenessConstraints", builder.array(lists)))
            }
            let stereotype = builder.stereotype(values)
            var properties: [(String, RecordValue)] = []
            for attribute in entity.attributes {
                let propertyUID = propertyUIDs[entity.name]?[attribute.name] ?? .uid(0)
                builder.attribute(attribute, owner: uid, at: propertyUID, style: style)
                properties.append((attribute.name, propertyUID))
            }
            for relationship in entity.relationships {
                let propertyUID = propertyUIDs[entity.name]?[relationship.name] ?? .uid(0)
                builder.relationship(
                    relationship, owner: uid, at: propertyUID, style: style,
                    destination: entityUIDs[relationship.destination] ?? .uid(0),
                    inverse: propertyUIDs[relationship.destination]?[relationship.inverse])
                properties.append((relationship.name, propertyUID))
            }
            var generalizations: [RecordValue] = []
            if let parent = entity.parent, let parentUID = entityUIDs[parent] {
                generalizations.append(
                    builder.object(
                        ["XDUMLGeneralizationImp"], ["_general": parentUID, "_specific": uid]))
            }
            let name = builder.string(entity.name)
            let owned = builder.dictionary(properties, className: "NSMutableDictionary")
            let stereotypes = builder.dictionary(
                [("XD_PStereotype", stereotype)], className: "NSMutableDictionary")
            let parents = builder.array(generalizations, className: "NSMutableArray")
            builder.object(
                ["XDPMEntity", "XDUMLClassImp"],
                [
                    "_name": name, "_isAbstract": .boolean(entity.isAbstract), "_owner": package,
                    "XDBucketForOwnedAttributesstorage": owned,
                    "XDBucketForStereotypesstorage": stereotypes,
                    "XDBucketForGeneralizationsstorage": parents,
                    "XDBucketForOwnedAttributesordered": builder.string("ordered"),
                ], at: uid)
        }
        let classes = builder.dictionary(
            model.entities.map { ($0.name, entityUIDs[$0.name] ?? .uid(0)) },
            className: "NSMutableDictionary")
        let empty = builder.dictionary([], className: "NSMutableDictionary")
        builder.object(
            ["XDModelPackage", "XDUMLPackageImp"],
            [
                "XDBucketForClassesstorage": classes, "XDBucketForInterfacesstorage": empty,
                "XDBucketForPackagesstorage": empty, "XDBucketForDataTypesstorage": empty,
                "_owner": root,
            ], at: package)
        var rootFields: [String: RecordValue] = [
            "_xd_rootPackage": package, "_configurationsByName": empty,
            "_xd_modelName": builder.string(model.name + ".xcdatamodel"),
            "_xd_modelManager": .uid(0),
        ]
        rootFields["_modelVersionIdentifier"] = versionIdentifier.map { builder.string($0) }
        builder.object(["XDPMModel"], rootFields, at: root)
        return builder.archive(root: root)
    }
}

extension KeyedArchiveBuilder {
    /// An `XDUMLStereotypeImp` holding `values`, each an
    /// `XDUMLPropertyImp` whose `_default` is the value.
    mutating func stereotype(_ values: [(String, RecordValue)]) -> RecordValue {
        let properties = values.map { key, value in
            (key, object(["XDUMLPropertyImp"], ["_name": string(key), "_default": value]))
        }
        let owned = dictionary(properties, className: "NSMutableDictionary")
        return object(["XDUMLStereotypeImp"], ["XDBucketForOwnedAttributesstorage": owned])
    }

    /// A number as `style` writes counts.
    mutating func count(_ value: Int, style: ModelSnapshotFixture.Style) -> RecordValue {
        guard style == .old else { return .integer(Int64(value)) }
        var mantissa = [UInt8](repeating: 0, count: 16)
        var rest = UInt64(value)
        for index in 0..<8 {
            mantissa[index] = UInt8(rest & 0xFF)
            rest >>= 8
        }
        return object(
            ["NSDecimalNumber", "NSNumber", "NSValue"],
            [
                "NS.mantissa": .data(Data(mantissa)), "NS.exponent": .integer(0),
                "NS.negative": .boolean(false), "NS.length": .integer(1),
                "NS.compact": .boolean(true), "NS.mantissa.bo": .integer(1),
            ])
    }

    /// The `XD_PPropStereotype` values of a property.
    mutating func commonValues(
        optional: Bool, transient: Bool, indexed: Bool, modifier: String?, identifier: String?,
        style: ModelSnapshotFixture.Style
    ) -> RecordValue {
        var values: [(String, RecordValue)] = [
            ("XD_PPSK_isOptional", .boolean(optional)),
            ("XD_PPSK_isTransient", .boolean(transient)),
            ("XD_PPSK_isIndexed", .boolean(indexed)),
        ]
        if style == .current {
            if let modifier { values.append(("XD_PPSK_versionHashModifier", string(modifier))) }
            if let identifier { values.append(("XD_PPSK_elementID", string(identifier))) }
        }
        return stereotype(values)
    }

    mutating func attribute(
        _ attribute: Attribute, owner: RecordValue, at slot: RecordValue,
        style: ModelSnapshotFixture.Style
    ) {
        let common = commonValues(
            optional: attribute.isOptional, transient: attribute.isTransient,
            indexed: attribute.isIndexed, modifier: attribute.versionHashModifier,
            identifier: attribute.renamingIdentifier, style: style)
        var values: [(String, RecordValue)] = [
            ("XD_PAttK_attributeType", .integer(Int64(attribute.type.coreDataCode)))
        ]
        switch attribute.defaultValue {
        case .literal(.integer(let number))?:
            values.append(("XD_PAttK_defaultValueAsString", string(String(number))))
        case .literal(.real(let number))?:
            values.append(("XD_PAttK_defaultValueAsString", string(String(number))))
        case .literal(.boolean(let flag))?:
            values.append(("XD_PAttK_defaultValueAsString", string(flag ? "YES" : "NO")))
        case .literal(.string(let text))?:
            values.append(("XD_PAttK_defaultValueAsString", string(text)))
        default: break
        }
        if let transformer = attribute.valueTransformer {
            values.append(("XD_PAttK_valueTransformerName", string(transformer)))
        }
        values.append(
            ("XD_PAttK_allowsExternalBinaryDataStorage", .boolean(attribute.allowsExternalStorage)))
        let specific = stereotype(values)
        let stereotypes = dictionary(
            [("XD_PPropStereotype", common), ("XD_PAtt_Stereotype", specific)],
            className: "NSMutableDictionary")
        object(
            ["XDPMAttribute", "XDUMLPropertyImp"],
            [
                "_name": string(attribute.name), "_owner": owner,
                "XDBucketForStereotypesstorage": stereotypes,
            ],
            at: slot)
    }

    mutating func relationship(
        _ relationship: Relationship, owner: RecordValue, at slot: RecordValue,
        style: ModelSnapshotFixture.Style, destination: RecordValue, inverse: RecordValue?
    ) {
        let common = commonValues(
            optional: relationship.isOptional, transient: relationship.isTransient,
            indexed: false, modifier: relationship.versionHashModifier,
            identifier: relationship.renamingIdentifier, style: style)
        var values: [(String, RecordValue)] = [
            ("XD_PRK_destination", destination),
            ("XD_PRK_minCount", count(relationship.minCount, style: style)),
            ("XD_PRK_maxCount", count(relationship.maxCount, style: style)),
            ("XD_PRK_deleteRule", .integer(Int64(relationship.deleteRule.coreDataCode))),
        ]
        if let inverse { values.append(("XD_PRK_inverseRelationship", inverse)) }
        if style == .current {
            values.append(("XD_PRK_isToMany", .boolean(relationship.isToMany)))
            values.append(("XD_PRK_ordered", .boolean(relationship.isOrdered)))
        }
        let specific = stereotype(values)
        let stereotypes = dictionary(
            [("XD_PPropStereotype", common), ("XD_PR_Stereotype", specific)],
            className: "NSMutableDictionary")
        object(
            ["XDPMRelationship", "XDUMLPropertyImp"],
            [
                "_name": string(relationship.name), "_owner": owner,
                "XDBucketForStereotypesstorage": stereotypes,
            ], at: slot)
    }
}
