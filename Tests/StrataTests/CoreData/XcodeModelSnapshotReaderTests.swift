import Foundation
import Testing

@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// The model snapshots a `.xcmappingmodel` embeds, read into models that
/// hash like the `.xcdatamodel` they were taken of.
struct XcodeModelSnapshotReaderTests {
    /// `MappingModelFixture.moody3` as Xcode writes it in `contents`.
    static let moody3Contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="">
            <entity name="Continent" parentEntity="GeographicRegion">
                <relationship name="countries" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Country" inverseName="continent"/>
                <relationship name="moods" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Mood" inverseName="continent"/>
            </entity>
            <entity name="Country" parentEntity="GeographicRegion">
                <relationship name="continent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Continent" inverseName="countries"/>
                <relationship name="moods" toMany="YES" maxCount="5" deletionRule="Deny" destinationEntity="Mood" inverseName="country"/>
            </entity>
            <entity name="GeographicRegion" isAbstract="YES" versionHashModifier="regions">
                <attribute name="name" attributeType="String"/>
                <attribute name="numericISO3166Code" attributeType="Integer 16"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="numericISO3166Code"/>
                        <constraint value="name"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Mood">
                <attribute name="bonusPoints" attributeType="Integer 16"/>
                <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="ColorsTransformer"/>
                <attribute name="deviceUid" optional="YES" attributeType="String"/>
                <attribute name="picture" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="rating" attributeType="Integer 64" defaultValueString="3"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="visible" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="weight" attributeType="Double" defaultValueString="0.5"/>
                <relationship name="continent" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Continent" inverseName="moods"/>
                <relationship name="country" maxCount="1" deletionRule="Nullify" destinationEntity="Country" inverseName="moods"/>
            </entity>
            <entity name="Tag">
                <attribute name="label" attributeType="String" defaultValueString="none"/>
            </entity>
        </model>
        """

    func read(_ data: Data) throws -> Model {
        try XcodeModelSnapshotReader().read(data: data, modelName: "Moody")
    }

    @Test func testSnapshotHashesEqualThoseOfTheSameModelReadFromContents() throws {
        let document = try XMLDocument(string: Self.moody3Contents, source: "contents")
        var contentsReader = XcodeModelVersionReader(
            file: "Moody 3.xcdatamodel/contents", modelName: "Moody", version: 0)
        let fromContents = contentsReader.convert(document.root)
        #expect(contentsReader.issues.isEmpty)
        let fromSnapshot = try read(
            ModelSnapshotFixture.archive(of: MappingModelFixture.moody3))
        #expect(fromSnapshot.versionHashes == fromContents.versionHashes)
        #expect(fromSnapshot.versionHashes.count == 5)
        #expect(SchemaValidator().validate(fromSnapshot).isEmpty)
        // Every field the two readers share, not only the hashed ones.
        #expect(fromSnapshot.entities == fromContents.entities)
    }

    @Test func testSnapshotKeepsInheritanceOwnedPropertiesAndSettings() throws {
        let model = try read(ModelSnapshotFixture.archive(of: MappingModelFixture.moody3))
        #expect(model == MappingModelFixture.moody3)
        let country = try #require(model.entity(named: "Country"))
        #expect(country.parent == "GeographicRegion")
        // Owned properties only: the inherited ones stay on the parent.
        #expect(country.attributes.isEmpty)
        #expect(model.allAttributes(of: "Country").map(\.name) == ["name", "numericISO3166Code"])
        let region = try #require(model.entity(named: "GeographicRegion"))
        #expect(region.isAbstract && region.versionHashModifier == "regions")
        #expect(region.uniquenessConstraints == [["numericISO3166Code", "name"]])
        let moods = try #require(country.relationship(named: "moods"))
        #expect(moods.isToMany && moods.maxCount == 5 && moods.deleteRule == .deny)
        #expect(!moods.isOptional)
    }

    @Test func testSnapshotCarriesIdentifiersModifiersAndTheVersionIdentifier() throws {
        let model = try read(
            ModelSnapshotFixture.archive(of: MappingModelFixture.moody2, versionIdentifier: "2"))
        #expect(model.versionIdentifier == "2")
        #expect(model.version == 0 && model.name == "Moody")
        let mood = try #require(model.entity(named: "Mood"))
        #expect(mood.attribute(named: "bonus")?.renamingIdentifier == "points")
        let continent = try #require(model.entity(named: "Continent"))
        #expect(continent.attribute(named: "numericISO3166Code")?.versionHashModifier == "v2")
        #expect(model.entity(named: "Country")?.relationship(named: "moods")?.isOrdered == true)
        #expect(model.entities == MappingModelFixture.moody2.entities)
    }

    @Test func testOldSnapshotsWithoutKeysAndWithDecimalCountsAreRead() throws {
        var source = MappingModelFixture.moody2
        // What the old format cannot say.
        source.entities = source.entities.map { entity in
            var entity = entity
            entity.attributes = entity.attributes.map {
                var attribute = $0
                attribute.renamingIdentifier = nil
                attribute.versionHashModifier = nil
                return attribute
            }
            entity.relationships = entity.relationships.map {
                var relationship = $0
                relationship.isOrdered = false
                return relationship
            }
            return entity
        }
        let model = try read(ModelSnapshotFixture.archive(of: source, style: .old))
        #expect(model == source)
        // minCount 1 came as an NSDecimalNumber; to-many is read off maxCount.
        let country = try #require(model.entity(named: "Mood")?.relationship(named: "country"))
        #expect(country.minCount == 1 && !country.isToMany)
        #expect(model.entity(named: "Country")?.relationship(named: "moods")?.isToMany == true)
    }

    @Test func testAnArchiveOfAnotherClassIsRefusedWithItsIndex() throws {
        let data = ExpressionFixture.variable("source").archive
        let error = try #require(throws: KeyedArchiveError.self) { try read(data) }
        #expect(error.message == "the root is a NSVariableExpression; expected an XDPMModel")
        #expect(error.objectIndex != nil)
    }

    @Test func testAnUnknownAttributeTypeNamesTheEntityAndProperty() throws {
        var builder = KeyedArchiveBuilder()
        let root = builder.reserve()
        let entity = builder.reserve()
        let attribute = builder.reserve()
        let typeValues = builder.stereotype([("XD_PAttK_attributeType", .integer(2000))])
        let stereotypes = builder.dictionary([("XD_PAtt_Stereotype", typeValues)])
        builder.object(
            ["XDPMAttribute"], ["_owner": entity, "XDBucketForStereotypesstorage": stereotypes],
            at: attribute)
        let owned = builder.dictionary([("link", attribute)])
        builder.object(["XDPMEntity"], ["XDBucketForOwnedAttributesstorage": owned], at: entity)
        let classes = builder.dictionary([("Item", entity)])
        let package = builder.object(["XDModelPackage"], ["XDBucketForClassesstorage": classes])
        builder.object(["XDPMModel"], ["_xd_rootPackage": package], at: root)
        let error = try #require(throws: KeyedArchiveError.self) {
            try read(builder.archive(root: root))
        }
        #expect(error.message.hasPrefix("entity Item: property link: attribute type code 2000"))
        #expect(error.objectIndex == 3)
    }
}
