import Foundation
import StrataCore
import StrataSchema

/// Converts the model snapshot a `.xcmappingmodel` embeds
/// (`sourcemodeldata`, `destinationmodeldata`) into a ``Model``.
///
/// The snapshot is a keyed archive of Xcode's own model classes, not a
/// compiled model (coredata-mapping-models.md §2.2): `XDPMModel` →
/// `_xd_rootPackage` → `XDBucketForClassesstorage` (entity name →
/// `XDPMEntity`) → `XDBucketForOwnedAttributesstorage` (property name →
/// `XDPMAttribute` or `XDPMRelationship`). Settings live in stereotypes:
/// `XDBucketForStereotypesstorage[stereotype]` →
/// `XDBucketForOwnedAttributesstorage[key]` → `_default`.
///
/// Every field that enters a version hash is carried, so the model's
/// ``Model/versionHashes`` equal those of the `.xcdatamodel` the snapshot
/// was taken of. Missing keys take Core Data's defaults (old archives lack
/// several). The archive is cyclic (`_owner`, inverses, generalizations);
/// only names are read across those links, one lookup at a time.
///
/// ```swift
/// let model = try XcodeModelSnapshotReader().read(data: snapshot, modelName: "Moody")
/// print(model.versionHashes)
/// ```
public struct XcodeModelSnapshotReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Converts a snapshot archive.
    ///
    /// - Parameters:
    ///   - data: The keyed archive (the decoded base64 of
    ///     `sourcemodeldata` or `destinationmodeldata`).
    ///   - modelName: The name to give the model.
    ///   - version: The version number to give it.
    /// - Returns: The model; its version identifier is the snapshot's
    ///   `_modelVersionIdentifier`, which is often stale.
    /// - Throws: ``PropertyListError`` for bytes that are no property list,
    ///   ``KeyedArchiveError`` (naming the object's index, the entity and
    ///   the property) for anything that is no model snapshot.
    public func read(data: Data, modelName: String, version: Int = 0) throws -> Model {
        guard let root = try KeyedArchive(data: data).topObject() else {
            throw KeyedArchiveError("the archive has no root object; expected an XDPMModel")
        }
        return try read(root: root, modelName: modelName, version: version)
    }

    /// Converts a snapshot whose archive is read already.
    ///
    /// - Parameters:
    ///   - root: The archive's root object, an `XDPMModel`.
    ///   - modelName: The name to give the model.
    ///   - version: The version number to give it.
    /// - Throws: ``KeyedArchiveError``, as ``read(data:modelName:version:)``.
    public func read(root: ArchivedObject, modelName: String, version: Int = 0) throws -> Model {
        guard root.isKind(of: "XDPMModel") else {
            throw KeyedArchiveError(
                "the root is a \(root.className); expected an XDPMModel", objectIndex: root.index)
        }
        let identifier = try root.string("_modelVersionIdentifier") ?? ""
        let package = try root.object("_xd_rootPackage")
        var entities: [Entity] = []
        var names: Set<String> = []
        for (key, value) in try package?.dictionary("XDBucketForClassesstorage") ?? [] {
            let name = try key.stringValue()
            let object = try value.object()
            guard object.isKind(of: "XDPMEntity") else {
                throw KeyedArchiveError(
                    "entity \(name) is a \(object.className); expected an XDPMEntity",
                    objectIndex: object.index)
            }
            guard names.insert(name).inserted else {
                throw KeyedArchiveError("entity \(name) is listed twice", objectIndex: object.index)
            }
            entities.append(try Self.about("entity \(name)") { try entity(object, named: name) })
        }
        return Model(
            name: modelName, version: version, versionIdentifier: identifier, entities: entities)
    }

    // MARK: - Entities

    private func entity(_ object: ArchivedObject, named name: String) throws -> Entity {
        let values = try Self.stereotypes(of: object)["XD_PStereotype"] ?? [:]
        var entity = Entity(name: name, parent: try parent(of: object))
        entity.isAbstract =
            try Self.flag(values["XD_PSK_isAbstract"]) ?? object.bool("_isAbstract") ?? false
        entity.versionHashModifier = try Self.text(values["XD_PSK_versionHashModifier"])
        entity.renamingIdentifier = try Self.renaming(values["XD_PSK_elementID"], of: name)
        entity.uniquenessConstraints = try Self.nameLists(values["XDPMUniquenessConstraints"])
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        for (key, value) in try object.dictionary("XDBucketForOwnedAttributesstorage") ?? [] {
            let propertyName = try key.stringValue()
            let property = try value.object()
            try Self.about("property \(propertyName)") {
                if property.isKind(of: "XDPMRelationship") {
                    relationships.append(try relationship(property, named: propertyName))
                } else if property.isKind(of: "XDPMAttribute"),
                    let attribute = try attribute(property, named: propertyName)
                {
                    attributes.append(attribute)
                }
                // Fetched properties have no column and no hash.
            }
        }
        entity.attributes = attributes
        entity.relationships = relationships
        return entity
    }

    /// The parent's name: `XDBucketForGeneralizationsstorage[0]._general._name`.
    private func parent(of entity: ArchivedObject) throws -> String? {
        let generalizations = try entity.array("XDBucketForGeneralizationsstorage") ?? []
        guard let first = generalizations.first else { return nil }
        guard generalizations.count == 1 else {
            throw KeyedArchiveError(
                "\(generalizations.count) generalizations; an entity has one parent at most",
                objectIndex: entity.index)
        }
        return try first.object().object("_general")?.string("_name")
    }

    // MARK: - Properties

    /// An attribute, or nil for a transient one of a type Strata lacks
    /// (undefined, object ID), which has no column and no hash.
    private func attribute(_ object: ArchivedObject, named name: String) throws -> Attribute? {
        let stereotypes = try Self.stereotypes(of: object)
        let common = stereotypes["XD_PPropStereotype"] ?? [:]
        let values = stereotypes["XD_PAtt_Stereotype"] ?? [:]
        let isTransient = try Self.flag(common["XD_PPSK_isTransient"]) ?? false
        let code = try values["XD_PAttK_attributeType"]?.wholeNumberValue() ?? 0
        guard let type = AttributeType(coreDataCode: code) else {
            if isTransient { return nil }
            throw KeyedArchiveError(
                "attribute type code \(code); expected an NSAttributeType Strata stores "
                    + "(100…1200, 1800)", objectIndex: object.index)
        }
        var attribute = Attribute(name: name, type: type)
        attribute.isTransient = isTransient
        try Self.readCommon(common, name: name, into: &attribute)
        if let text = try values["XD_PAttK_defaultValueAsString"]?.stringValue() {
            // Defaults are neither hashed nor laid out: an unreadable one is
            // no default, as the `contents` reader decides.
            switch XcodeModelVersionReader.defaultValue(text: text, type: type) {
            case .value(let value), .readAsNumber(let value, _): attribute.defaultValue = value
            case .leftOut: break
            }
        }
        if try Self.flag(values["XD_PAttK_allowsExternalBinaryDataStorage"]) == true {
            guard type == .binary || type == .transformable else {
                throw KeyedArchiveError(
                    "allowsExternalBinaryDataStorage on a \(type.rawValue) attribute; it applies "
                        + "only to Binary and Transformable", objectIndex: object.index)
            }
            attribute.allowsExternalStorage = true
        }
        if type == .transformable {
            attribute.valueTransformer = try Self.text(values["XD_PAttK_valueTransformerName"])
        }
        if type == .string {
            attribute.pattern = try Self.text(values["XD_PAttK_regularExpressionString"])
        }
        return attribute
    }

    private func relationship(_ object: ArchivedObject, named name: String) throws -> Relationship {
        let stereotypes = try Self.stereotypes(of: object)
        let values = stereotypes["XD_PR_Stereotype"] ?? [:]
        // Names only: the destination and the inverse point back into the
        // cyclic graph.
        guard let destination = try values["XD_PRK_destination"]?.object().string("_name") else {
            throw KeyedArchiveError(
                "no XD_PRK_destination; expected the destination XDPMEntity",
                objectIndex: object.index)
        }
        let inverse = try values["XD_PRK_inverseRelationship"]?.object().string("_name")
        let minCount = try values["XD_PRK_minCount"]?.wholeNumberValue() ?? 0
        let maxCount = try values["XD_PRK_maxCount"]?.wholeNumberValue() ?? 0
        guard let min = Int32(exactly: minCount), let max = Int32(exactly: maxCount),
            min >= 0, max >= 0
        else {
            throw KeyedArchiveError(
                "counts \(minCount)…\(maxCount); expected counts from 0",
                objectIndex: object.index)
        }
        let ruleCode =
            try values["XD_PRK_deleteRule"]?.wholeNumberValue()
            ?? Int64(DeleteRule.nullify.coreDataCode)
        guard let rule = DeleteRule(coreDataCode: ruleCode) else {
            throw KeyedArchiveError(
                "delete rule \(ruleCode); expected 0 (no action), 1 (nullify), 2 (cascade) or "
                    + "3 (deny)", objectIndex: object.index)
        }
        // Old archives may lack isToMany; the counts then say it.
        let isToMany = try Self.flag(values["XD_PRK_isToMany"]) ?? (max != 1)
        var relationship = Relationship(
            name: name, destination: destination, inverse: inverse ?? "", isToMany: isToMany)
        relationship.isTransient =
            try Self.flag(stereotypes["XD_PPropStereotype"]?["XD_PPSK_isTransient"]) ?? false
        try Self.readCommon(
            stereotypes["XD_PPropStereotype"] ?? [:], name: name, into: &relationship)
        relationship.minCount = Int(min)
        relationship.maxCount = Int(max)
        relationship.deleteRule = rule
        relationship.isOrdered = try Self.flag(values["XD_PRK_ordered"]) ?? false
        return relationship
    }

    /// The settings every property has (`XD_PPropStereotype`).
    private static func readCommon(
        _ values: [String: ArchivedValue], name: String, into attribute: inout Attribute
    ) throws {
        attribute.isOptional = try flag(values["XD_PPSK_isOptional"]) ?? false
        attribute.isIndexed = try flag(values["XD_PPSK_isIndexed"]) ?? false
        attribute.versionHashModifier = try text(values["XD_PPSK_versionHashModifier"])
        attribute.renamingIdentifier = try renaming(values["XD_PPSK_elementID"], of: name)
    }

    /// The settings every property has (`XD_PPropStereotype`).
    private static func readCommon(
        _ values: [String: ArchivedValue], name: String, into relationship: inout Relationship
    ) throws {
        relationship.isOptional = try flag(values["XD_PPSK_isOptional"]) ?? false
        relationship.versionHashModifier = try text(values["XD_PPSK_versionHashModifier"])
        relationship.renamingIdentifier = try renaming(values["XD_PPSK_elementID"], of: name)
    }

    // MARK: - Stereotype values

    /// An element's stereotype values: stereotype name → key → `_default`
    /// (keys holding `$null` left out).
    static func stereotypes(of object: ArchivedObject) throws -> [String: [String: ArchivedValue]] {
        var result: [String: [String: ArchivedValue]] = [:]
        for (key, value) in try object.dictionary("XDBucketForStereotypesstorage") ?? [] {
            var values: [String: ArchivedValue] = [:]
            for (name, property) in try value.object().dictionary(
                "XDBucketForOwnedAttributesstorage") ?? []
            {
                if let value = try property.object().value("_default") {
                    values[try name.stringValue()] = value
                }
            }
            result[try key.stringValue()] = values
        }
        return result
    }

    /// A boolean setting: a number, or YES/NO text.
    static func flag(_ value: ArchivedValue?) throws -> Bool? {
        guard let value else { return nil }
        if case .plain(.text(let text)) = value {
            guard let flag = XcodeModelVersionReader.boolean(text) ?? Int(text).map({ $0 != 0 })
            else { throw KeyedArchiveError("expected YES or NO, found text") }
            return flag
        }
        return try value.boolValue()
    }

    /// A text setting; empty text is none.
    static func text(_ value: ArchivedValue?) throws -> String? {
        guard let text = try value?.stringValue(), !text.isEmpty else { return nil }
        return text
    }

    /// A renaming identifier (`elementID`); nil when it is the name, which
    /// it defaults to.
    static func renaming(_ value: ArchivedValue?, of name: String) throws -> String? {
        guard let identifier = try text(value), identifier != name else { return nil }
        return identifier
    }

    /// An array of arrays of names (`XDPMUniquenessConstraints`).
    static func nameLists(_ value: ArchivedValue?) throws -> [[String]] {
        guard let value else { return [] }
        return try value.object().elements().map { list in
            try list.object().elements().map { try $0.stringValue() }
        }
    }

    /// Runs `body`, naming `subject` in a ``KeyedArchiveError`` it throws.
    static func about<T>(_ subject: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KeyedArchiveError {
            error.message = "\(subject): \(error.message)"
            throw error
        }
    }
}
