import Foundation

@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// A mapping model to write as Xcode's `xcmapping.xml` or as a compiled
/// `.cdm`, in the shapes coredata-mapping-models.md documents: live
/// mappings listed by the model in no particular order, orphans left in the
/// file, base64 laid out as Xcode lays it out, snapshots of both models.
struct MappingModelFixture {
    /// One property mapping.
    struct PropertyMapping {
        var name: String
        var expression: ExpressionFixture?
        /// A relationship mapping's "Key Path".
        var sourceKeyPath: String?
        /// A relationship mapping's "Mapping Name".
        var sourceMappingName: String?
        /// The entity mapping its back-reference names instead of its owner
        /// (by name); nil for its owner (live) or none (orphans).
        var claimedOwner: String?

        init(
            _ name: String, expression: ExpressionFixture? = nil, sourceKeyPath: String? = nil,
            sourceMappingName: String? = nil, claimedOwner: String? = nil
        ) {
            self.name = name
            self.expression = expression
            self.sourceKeyPath = sourceKeyPath
            self.sourceMappingName = sourceMappingName
            self.claimedOwner = claimedOwner
        }
    }

    /// One entity mapping.
    struct EntityMapping {
        /// A stored name; nil for Xcode's default.
        var storedName: String?
        var source: String?
        var destination: String?
        var number: Int
        var filter: String?
        /// The policy class; "" writes the empty element Xcode leaves.
        var policy: String?
        var attributes: [PropertyMapping] = []
        var relationships: [PropertyMapping] = []

        /// The name a reader must give it.
        var name: String {
            storedName
                ?? XcodeMappingModel.EntityMapping.defaultName(
                    source: source, destination: destination) ?? ""
        }
    }

    var sourceModel: Model
    var destinationModel: Model
    var sourcePath = "Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel"
    var destinationPath = "Migrations/Moody.xcdatamodeld/Moody 3.xcdatamodel"
    /// The live mappings, in the order the model lists them.
    var mappings: [EntityMapping]
    /// Entity mappings left in the file, listed by nobody.
    var orphanMappings: [EntityMapping] = []
    /// Property mappings left in the file, listed by nobody:
    /// `(isRelationship, mapping)`.
    var orphanProperties: [(Bool, PropertyMapping)] = []
    /// How many `XDDEVMAPPINGMODEL` objects to write.
    var modelCount = 1

    // MARK: - xcmapping.xml

    /// Xcode's base64 layout: one 76-character line, the rest on a second
    /// line, a newline before the closing tag (§1.4).
    static func base64(_ data: Data) -> String {
        let text = data.base64EncodedString()
        guard text.count > 76 else { return text + "\n" }
        return String(text.prefix(76)) + "\n" + String(text.dropFirst(76)) + "\n"
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "<", with: "&lt;"
        )
        .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The `xcmapping.xml`.
    func xml() -> String {
        var next = 102
        func newID() -> String {
            defer { next += 1 }
            return "z\(next)"
        }
        let modelIDs = (0..<modelCount).map { _ in newID() }
        let all = mappings + orphanMappings
        let mappingIDs = all.map { _ in newID() }
        var idByName: [String: String] = [:]
        for (mapping, id) in zip(mappings, mappingIDs) { idByName[mapping.name] = id }
        var objects: [String] = []
        var propertyObjects: [String] = []

        func property(_ mapping: PropertyMapping, relationship: Bool, owner: String?) -> String {
            let id = newID()
            let type = relationship ? "XDDEVRELATIONSHIPMAPPING" : "XDDEVATTRIBUTEMAPPING"
            var lines = [#"<object type="\#(type)" id="\#(id)">"#]
            lines.append(
                #"<attribute name="name" type="string">\#(Self.escaped(mapping.name))</attribute>"#)
            if relationship {
                lines.append(#"<attribute name="autogenerateexpression" type="bool">1</attribute>"#)
            }
            if let keyPath = mapping.sourceKeyPath {
                lines.append(
                    #"<attribute name="sourcekeypath" type="string">\#(Self.escaped(keyPath))</attribute>"#
                )
            }
            if let name = mapping.sourceMappingName {
                lines.append(
                    #"<attribute name="sourcemappingname" type="string">\#(name)</attribute>"#)
            }
            if let expression = mapping.expression {
                lines.append(
                    #"<attribute name="valueexpressiondata" type="binary">\#(Self.base64(expression.archive))</attribute>"#
                )
            }
            let ownerID = mapping.claimedOwner.flatMap { idByName[$0] } ?? owner
            let refs = ownerID.map { #" idrefs="\#($0)""# } ?? ""
            lines.append(
                #"<relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING"\#(refs)></relationship>"#
            )
            lines.append("</object>")
            propertyObjects.append(lines.joined(separator: "\n    "))
            return id
        }

        for (index, (mapping, id)) in zip(all, mappingIDs).enumerated() {
            let live = index < mappings.count
            let attributeIDs = mapping.attributes.map {
                property($0, relationship: false, owner: live ? id : nil)
            }
            let relationshipIDs = mapping.relationships.map {
                property($0, relationship: true, owner: live ? id : nil)
            }
            var lines = [#"<object type="XDDEVENTITYMAPPING" id="\#(id)">"#]
            if let name = mapping.storedName {
                lines.append(#"<attribute name="name" type="string">\#(name)</attribute>"#)
            }
            if let source = mapping.source {
                lines.append(#"<attribute name="sourcename" type="string">\#(source)</attribute>"#)
            }
            if let destination = mapping.destination {
                lines.append(
                    #"<attribute name="destinationname" type="string">\#(destination)</attribute>"#)
            }
            lines.append(#"<attribute name="mappingtypename" type="string">Undefined</attribute>"#)
            lines.append(
                #"<attribute name="mappingnumber" type="int16">\#(mapping.number)</attribute>"#)
            lines.append(#"<attribute name="autogenerateexpression" type="bool">1</attribute>"#)
            if let filter = mapping.filter {
                lines.append(
                    #"<attribute name="sourcefilterpredicatestring" type="string">\#(Self.escaped(filter))</attribute>"#
                )
            }
            if let policy = mapping.policy {
                lines.append(
                    #"<attribute name="migrationpolicyclassname" type="string">\#(policy)</attribute>"#
                )
            }
            let modelRef = live ? modelIDs.first.map { #" idrefs="\#($0)""# } ?? "" : ""
            lines.append(
                #"<relationship name="mappingmodel" type="1/1" destination="XDDEVMAPPINGMODEL"\#(modelRef)></relationship>"#
            )
            for (name, ids, type) in [
                ("attributemappings", attributeIDs, "XDDEVATTRIBUTEMAPPING"),
                ("relationshipmappings", relationshipIDs, "XDDEVRELATIONSHIPMAPPING"),
            ] {
                // Xcode lists sets in no order: here, backwards.
                let refs =
                    ids.isEmpty ? "" : #" idrefs="\#(ids.reversed().joined(separator: " "))""#
                lines.append(
                    #"<relationship name="\#(name)" type="0/0" destination="\#(type)"\#(refs)></relationship>"#
                )
            }
            lines.append("</object>")
            objects.append(lines.joined(separator: "\n    "))
        }
        for (relationship, mapping) in orphanProperties {
            _ = property(mapping, relationship: relationship, owner: nil)
        }
        let liveIDs = Array(mappingIDs.prefix(mappings.count))
        for modelID in modelIDs {
            let source = ModelSnapshotFixture.archive(of: sourceModel)
            let destination = ModelSnapshotFixture.archive(of: destinationModel)
            let refs =
                liveIDs.isEmpty ? "" : #" idrefs="\#(liveIDs.reversed().joined(separator: " "))""#
            objects.append(
                [
                    #"<object type="XDDEVMAPPINGMODEL" id="\#(modelID)">"#,
                    #"<attribute name="sourcemodelpath" type="string">\#(sourcePath)</attribute>"#,
                    #"<attribute name="sourcemodeldata" type="binary">\#(Self.base64(source))</attribute>"#,
                    #"<attribute name="destinationmodelpath" type="string">\#(destinationPath)</attribute>"#,
                    #"<attribute name="destinationmodeldata" type="binary">\#(Self.base64(destination))</attribute>"#,
                    #"<relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING"\#(refs)></relationship>"#,
                    "</object>",
                ].joined(separator: "\n    "))
        }
        // Objects in no meaningful order: properties first, then mappings
        // backwards, then the model.
        let body = (propertyObjects + objects.reversed()).map { "  " + $0 }.joined(separator: "\n")
        return """
            <?xml version="1.0" standalone="yes"?>
            <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

            <database>
              <databaseInfo>
                <version>134481920</version>
                <UUID>8F3C2CF4-C9AB-46CD-80F6-260F690FA2E5</UUID>
                <nextObjectID>\(next - 1)</nextObjectID>
                <metadata><plist version="1.0"><dict><key>NSPersistenceFrameworkVersion</key><integer>866</integer></dict></plist></metadata>
              </databaseInfo>
            \(body)
            </database>
            """
    }

    // MARK: - .cdm

    /// The compiled `.cdm` with the same live mappings: names written
    /// (or left out when `writeNames` is false), version hashes from the
    /// models, Xcode's default source fetch, the stored expressions, and for
    /// relationships with a key path and a mapping name the expression
    /// Xcode compiles from them.
    func cdm(writeNames: Bool = true) -> Data {
        var builder = KeyedArchiveBuilder()
        let root = builder.reserve()
        var mappingUIDs: [RecordValue] = []
        for mapping in mappings.sorted(by: { $0.number < $1.number }) {
            var fields: [String: RecordValue] = [:]
            if writeNames { fields["NSMappingName"] = builder.string(mapping.name) }
            let sourceHash = mapping.source.flatMap { sourceModel.versionHash(ofEntity: $0) }
            let destinationHash = mapping.destination.flatMap {
                destinationModel.versionHash(ofEntity: $0)
            }
            let type: Int64 =
                switch (mapping.source, mapping.destination) {
                case (nil, _): 2
                case (_, nil): 3
                default: sourceHash == destinationHash ? 4 : 5
                }
            fields["NSMappingType"] = .integer(type)
            if let source = mapping.source {
                fields["NSSourceEntityName"] = builder.string(source)
                fields["NSSourceExpression"] = builder.expression(
                    .defaultFetch(entity: source, predicate: mapping.filter ?? "TRUEPREDICATE"))
            }
            if let destination = mapping.destination {
                fields["NSDestinationEntityName"] = builder.string(destination)
            }
            if let sourceHash { fields["NSSourceEntityVersionHash"] = .data(Data(sourceHash)) }
            if let destinationHash {
                fields["NSDestinationEntityVersionHash"] = .data(Data(destinationHash))
            }
            if let policy = mapping.policy, !policy.isEmpty {
                fields["NSEntityMigrationPolicyClassName"] = builder.string(policy)
            }
            func property(_ property: PropertyMapping) -> RecordValue {
                var fields = ["NSDestinationPropertyName": builder.string(property.name)]
                var expression = property.expression
                if let keyPath = property.sourceKeyPath, let name = property.sourceMappingName {
                    expression = .destinationInstances(mapping: name, keyPath: keyPath)
                }
                if let expression { fields["NSValueExpression"] = builder.expression(expression) }
                return builder.object(["NSPropertyMapping"], fields)
            }
            fields["NSAttributeMappings"] = builder.array(mapping.attributes.map(property))
            fields["NSRelationshipMappings"] = builder.array(mapping.relationships.map(property))
            mappingUIDs.append(builder.object(["NSEntityMapping"], fields))
        }
        let list = builder.array(mappingUIDs)
        let byName = builder.dictionary(
            zip(mappings.sorted(by: { $0.number < $1.number }), mappingUIDs).map { ($0.name, $1) })
        builder.object(
            ["NSMappingModel"], ["NSEntityMappings": list, "NSEntityMappingsByName": byName],
            at: root)
        return builder.archive(root: root)
    }
}

// MARK: - A model in every documented shape

extension MappingModelFixture {
    /// Moody 2 → Moody 3 in the manner of objc.io's sample (§1.6, §4.2):
    /// a new abstract parent, a new relationship filled through a key path
    /// with a collection operator, stored expressions of every kind the
    /// files hold, a custom policy, an empty policy, a filter, an add
    /// mapping, and orphans (a whole mapping with a duplicate number, a
    /// relationship mapping naming the wrong mapping, an attribute mapping
    /// naming a removed attribute).
    static var moody: MappingModelFixture {
        MappingModelFixture(
            sourceModel: moody2, destinationModel: moody3,
            mappings: [
                EntityMapping(
                    source: "Mood", destination: "Mood", number: 3, policy: "",
                    attributes: [
                        PropertyMapping("deviceUid", expression: .source("deviceName")),
                        PropertyMapping(
                            "bonusPoints",
                            expression: .function(
                                .variable("entityPolicy"), "toInt16WithValue:", [.source("bonus")])),
                        PropertyMapping("rating", expression: .constant(.integer(-1))),
                    ],
                    relationships: [
                        PropertyMapping(
                            "continent", sourceKeyPath: "$source.country.continent",
                            sourceMappingName: "ContinentToContinent"),
                        PropertyMapping("country", sourceMappingName: "CountryToCountry"),
                    ]),
                EntityMapping(
                    source: "Continent", destination: "Continent", number: 2,
                    attributes: [PropertyMapping("numericISO3166Code"), PropertyMapping("name")],
                    relationships: [
                        PropertyMapping(
                            "moods", sourceKeyPath: "$source.countries.@distinctUnionOfSets.moods",
                            sourceMappingName: "MoodToMood"),
                        PropertyMapping("countries"),
                    ]),
                EntityMapping(
                    source: "Country", destination: "Country", number: 1,
                    filter: "name != nil AND code > 0",
                    policy: "Migrations.Country5ToCountry6Policy",
                    attributes: [
                        PropertyMapping(
                            "numericISO3166Code",
                            expression: .source("continent.numericISO3166Code")),
                        PropertyMapping("name"),
                    ],
                    relationships: [PropertyMapping("continent"), PropertyMapping("moods")]),
                EntityMapping(
                    source: nil, destination: "Tag", number: 4,
                    attributes: [PropertyMapping("label", expression: .string("text"))]),
            ],
            orphanMappings: [
                EntityMapping(storedName: "Mapping", source: nil, destination: "Dummy", number: 1)
            ],
            orphanProperties: [
                (true, PropertyMapping("moods", sourceMappingName: "ContinentToContinent")),
                (false, PropertyMapping("isoContinent", expression: .source("continent"))),
            ])
    }

    /// The source model: three entities, no inheritance.
    static var moody2: Model {
        var code = Attribute(name: "code", type: .integer16)
        code.defaultValue = .literal(.integer(0))
        var continentCode = Attribute(name: "numericISO3166Code", type: .integer16)
        continentCode.versionHashModifier = "v2"
        var deviceName = Attribute(name: "deviceName", type: .string)
        deviceName.isOptional = true
        var bonus = Attribute(name: "bonus", type: .string)
        bonus.renamingIdentifier = "points"
        var countries = Relationship(
            name: "countries", destination: "Country", inverse: "continent", isToMany: true)
        countries.isOptional = true
        var continent = Relationship(
            name: "continent", destination: "Continent", inverse: "countries")
        continent.maxCount = 1
        continent.isOptional = true
        var moods = Relationship(
            name: "moods", destination: "Mood", inverse: "country", isToMany: true)
        moods.deleteRule = .cascade
        moods.isOrdered = true
        var country = Relationship(name: "country", destination: "Country", inverse: "moods")
        country.maxCount = 1
        country.minCount = 1
        return Model(
            name: "Moody", version: 0,
            entities: [
                Entity(
                    name: "Continent",
                    attributes: [continentCode, Attribute(name: "name", type: .string)],
                    relationships: [countries]),
                Entity(
                    name: "Country", attributes: [code, Attribute(name: "name", type: .string)],
                    relationships: [continent, moods]),
                Entity(name: "Mood", attributes: [deviceName, bonus], relationships: [country]),
            ])
    }

    /// The destination model: an abstract parent of Continent and Country,
    /// Mood gains a continent, a new Tag entity.
    static var moody3: Model {
        var region = Entity(
            name: "GeographicRegion",
            attributes: [
                Attribute(name: "numericISO3166Code", type: .integer16),
                Attribute(name: "name", type: .string),
            ])
        region.isAbstract = true
        region.versionHashModifier = "regions"
        region.uniquenessConstraints = [["numericISO3166Code", "name"]]
        var countries = Relationship(
            name: "countries", destination: "Country", inverse: "continent", isToMany: true)
        countries.isOptional = true
        var continentMoods = Relationship(
            name: "moods", destination: "Mood", inverse: "continent", isToMany: true)
        continentMoods.isOptional = true
        var continent = Relationship(
            name: "continent", destination: "Continent", inverse: "countries")
        continent.maxCount = 1
        continent.isOptional = true
        var moods = Relationship(
            name: "moods", destination: "Mood", inverse: "country", isToMany: true)
        moods.deleteRule = .deny
        moods.minCount = 0
        moods.maxCount = 5
        var moodCountry = Relationship(name: "country", destination: "Country", inverse: "moods")
        moodCountry.maxCount = 1
        var moodContinent = Relationship(
            name: "continent", destination: "Continent", inverse: "moods")
        moodContinent.maxCount = 1
        moodContinent.isOptional = true
        moodContinent.deleteRule = .noAction
        var deviceUid = Attribute(name: "deviceUid", type: .string)
        deviceUid.isOptional = true
        var rating = Attribute(name: "rating", type: .integer64)
        rating.defaultValue = .literal(.integer(3))
        var picture = Attribute(name: "picture", type: .binary)
        picture.allowsExternalStorage = true
        picture.isOptional = true
        var colors = Attribute(name: "colors", type: .transformable)
        colors.valueTransformer = "ColorsTransformer"
        colors.isOptional = true
        var scratch = Attribute(name: "scratch", type: .string)
        scratch.isTransient = true
        scratch.isOptional = true
        var label = Attribute(name: "label", type: .string)
        label.defaultValue = .literal(.string("none"))
        var weight = Attribute(name: "weight", type: .double)
        weight.defaultValue = .literal(.real(0.5))
        var visible = Attribute(name: "visible", type: .boolean)
        visible.defaultValue = .literal(.boolean(true))
        return Model(
            name: "Moody", version: 0,
            entities: [
                region,
                Entity(
                    name: "Continent", parent: "GeographicRegion",
                    relationships: [countries, continentMoods]),
                Entity(
                    name: "Country", parent: "GeographicRegion", relationships: [continent, moods]),
                Entity(
                    name: "Mood",
                    attributes: [
                        deviceUid, Attribute(name: "bonusPoints", type: .integer16), rating,
                        picture, colors, scratch, weight, visible,
                    ],
                    relationships: [moodCountry, moodContinent]),
                Entity(name: "Tag", attributes: [label]),
            ])
    }
}
