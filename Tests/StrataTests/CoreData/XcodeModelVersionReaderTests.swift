import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Conversion details and located errors, on models written in the test.
struct XcodeModelVersionReaderTests {
    /// Writes `Model.xcdatamodeld` with one `contents` per version folder
    /// and, when given, `.xccurrentversion`.
    static func bundle(
        in folder: TemporaryDirectory, _ versions: [String: String], current: String? = nil
    ) throws -> URL {
        let bundle = folder.file("Model.xcdatamodeld")
        for (name, contents) in versions {
            let version = bundle.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        }
        if let current {
            let plist = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current)</string></dict></plist>
                """
            try Data(plist.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }

    /// A `contents` file holding `body` inside `<model>`.
    static func contents(_ body: String, identifier: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" userDefinedModelVersionIdentifier="\(identifier)">
        \(body)
        </model>
        """
    }

    static let simpleEntity =
        #"<entity name="A"><attribute name="x" attributeType="String"/></entity>"#

    func read(_ body: String) throws -> Model {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(in: folder, ["Model.xcdatamodel": Self.contents(body)])
        return try #require(try XcodeModelReader().read(at: url).versions.first)
    }

    func issues(_ versions: [String: String]) throws -> [XcodeModelIssue] {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(in: folder, versions)
        do {
            _ = try XcodeModelReader().read(at: url)
            return []
        } catch {
            return error.issues
        }
    }

    // MARK: - Versions

    @Test func testVersionsAreOrderedByTrailingNumberUpToTheCurrentOne() throws {
        let folder = try TemporaryDirectory()
        let versions = ["Model", "Model 2", "Model 10", "Model 3"].map { "\($0).xcdatamodel" }
        let url = try Self.bundle(
            in: folder,
            Dictionary(
                uniqueKeysWithValues: versions.map { ($0, Self.contents(Self.simpleEntity)) }),
            current: "Model 3.xcdatamodel")
        let bundle = try XcodeModelReader().read(at: url)
        #expect(
            bundle.versionFolders == [
                "Model.xcdatamodel", "Model 2.xcdatamodel", "Model 3.xcdatamodel",
            ])
        #expect(bundle.versions.map(\.version) == [1, 2, 3])
        #expect(
            bundle.warnings.map(\.description) == [
                ".xccurrentversion: the current version is 'Model 3.xcdatamodel'; later versions "
                    + "are left out: Model 10.xcdatamodel"
            ])
    }

    @Test func testALoneVersionFolderIsOneVersion() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(
            in: folder, ["Diary.xcdatamodel": Self.contents(Self.simpleEntity, identifier: "1.0")])
        let bundle = try XcodeModelReader().read(
            at: url.appendingPathComponent("Diary.xcdatamodel"))
        #expect(bundle.name == "Diary")
        #expect(bundle.versions.map(\.name) == ["Diary"])
        #expect(bundle.versions.first?.versionIdentifier == "1.0")
    }

    // MARK: - What is carried over

    @Test func testAttributeValuesAndUserInfo() throws {
        let model = try read(
            """
            <entity name="Item" elementID="OldItem" versionHashModifier="v" isAbstract="YES">
              <attribute name="count" attributeType="Integer 16" defaultValueString="3" minValueString="0" maxValueString="10" indexed="YES"/>
              <attribute name="ratio" optional="YES" attributeType="Float" defaultValueString="0.5"/>
              <attribute name="title" attributeType="String" defaultValueString="" minValueString="1" maxValueString="80" regularExpressionString="[a-z]*" elementID="name">
                <userInfo><entry key="mappedKeyName" value="Title"/><entry key="mappedKeyName.1" value="heading"/></userInfo>
              </attribute>
              <attribute name="when" attributeType="Date" defaultDateTimeInterval="60" minDateTimeInterval="0" maxDateTimeInterval="3600">
                <userInfo><entry key="dateFormat" value="yyyy-MM-dd"/></userInfo>
              </attribute>
              <attribute name="done" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
              <attribute name="id" attributeType="UUID" defaultValueString="6F9619FF-8B86-D011-B42D-00C04FC964FF"/>
              <attribute name="blob" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/>
              <attribute name="shape" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" versionHashModifier="2"/>
              <attribute name="scratch" transient="YES"/>
              <userInfo><entry key="note" value="kept"/></userInfo>
            </entity>
            """)
        let item = try #require(model.entity(named: "Item"))
        #expect(
            item.renamingIdentifier == "OldItem" && item.versionHashModifier == "v"
                && item.isAbstract)
        #expect(item.userInfo == ["note": "kept"])
        #expect(
            item.attributes.map(\.name) == [
                "blob", "count", "done", "id", "ratio", "shape", "title", "when",
            ])
        let count = try #require(item.attribute(named: "count"))
        #expect(count.type == .integer16 && !count.isOptional && count.isIndexed)
        #expect(
            count.defaultValue == .literal(.integer(3)) && count.minValue == 0
                && count.maxValue == 10)
        #expect(item.attribute(named: "ratio")?.defaultValue == .literal(.real(0.5)))
        let title = try #require(item.attribute(named: "title"))
        #expect(
            title.defaultValue == .literal(.string("")) && title.minLength == 1
                && title.maxLength == 80)
        #expect(title.pattern == "[a-z]*" && title.renamingIdentifier == "name")
        #expect(title.importKeys == ["Title", "heading"])
        #expect(title.userInfo == ["mappedKeyName": "Title", "mappedKeyName.1": "heading"])
        let when = try #require(item.attribute(named: "when"))
        #expect(
            when.defaultValue == .literal(.date(60)) && when.minValue == 0 && when.maxValue == 3600)
        #expect(when.dateFormat == "yyyy-MM-dd")
        #expect(item.attribute(named: "done")?.defaultValue == .literal(.boolean(true)))
        #expect(
            item.attribute(named: "id")?.defaultValue
                == .literal(
                    .uuid(try #require(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")))))
        let blob = try #require(item.attribute(named: "blob"))
        #expect(blob.allowsExternalStorage && blob.preservesValueOnDeletion)
        let shape = try #require(item.attribute(named: "shape"))
        #expect(
            shape.valueTransformer == "NSSecureUnarchiveFromData"
                && shape.versionHashModifier == "2")
    }

    @Test func testRelationshipsIndexesRequestsAndConfigurations() throws {
        let model = try read(
            """
            <entity name="Owner">
              <attribute name="key" attributeType="String"/>
              <relationship name="items" toMany="YES" minCount="1" maxCount="5" deletionRule="Deny" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
              <userInfo><entry key="relatedByAttribute" value="key"/></userInfo>
            </entity>
            <entity name="Item">
              <attribute name="date" attributeType="Date"/>
              <attribute name="title" attributeType="String"/>
              <relationship name="owner" minCount="1" maxCount="1" deletionRule="No Action" destinationEntity="Owner" inverseName="items" inverseEntity="Owner"/>
              <uniquenessConstraints><uniquenessConstraint><constraint value="title"/><constraint value="owner"/></uniquenessConstraint></uniquenessConstraints>
              <compoundIndexes><compoundIndex><index value="date"/><index value="title"/></compoundIndex></compoundIndexes>
              <fetchIndex name="recent"><fetchIndexElement property="date" type="Binary" order="descending"/></fetchIndex>
            </entity>
            <fetchRequest name="recentItems" entity="Item" predicateString="date &gt; $SINCE" fetchLimit="20" returnObjectsAsFaults="NO"/>
            <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Item"/><memberEntity name="Owner"/></configuration>
            """)
        let owner = try #require(model.entity(named: "Owner")?.relationship(named: "items"))
        #expect(
            owner.isToMany && owner.minCount == 1 && owner.maxCount == 5
                && owner.deleteRule == .deny)
        let item = try #require(model.entity(named: "Item"))
        let back = try #require(item.relationship(named: "owner"))
        #expect(!back.isToMany && back.minCount == 1 && back.maxCount == 1)
        #expect(back.deleteRule == .noAction && back.relatedBy == "key")
        #expect(item.uniquenessConstraints == [["title", "owner"]])
        #expect(
            item.indexes == [
                FetchIndex(name: "recent", elements: [.init(property: "date", order: .descending)]),
                FetchIndex(
                    name: "date_title",
                    elements: [.init(property: "date"), .init(property: "title")]),
            ])
        #expect(
            model.fetchRequests == [
                FetchRequestTemplate(
                    name: "recentItems", entity: "Item", predicate: "date > $SINCE",
                    options: ["fetchLimit": "20", "returnObjectsAsFaults": "NO"])
            ])
        #expect(
            model.configurations == [
                ModelConfiguration(
                    name: "Cloud", entities: ["Item", "Owner"], isUsedWithCloudKit: true)
            ])
        #expect(SchemaValidator().validate(model).isEmpty)
    }

    // MARK: - Errors

    @Test func testMalformedXMLNamesFileLineAndColumn() throws {
        let found = try issues([
            "Model 2.xcdatamodel":
                "<?xml version=\"1.0\"?>\n<model>\n  <entity name=\"A\">\n</model>\n",
            "Model.xcdatamodel": Self.contents(Self.simpleEntity),
        ])
        #expect(found.count == 1)
        #expect(found.first?.file == "Model 2.xcdatamodel/contents")
        #expect(found.first?.line == 4 && found.first?.column != nil)
    }

    @Test func testUnknownTypesAndMissingInversesAreAllReportedWithLines() throws {
        let found = try issues([
            "Model.xcdatamodel": Self.contents(
                """
                <entity name="A">
                  <attribute name="x" attributeType="Strng"/>
                  <attribute name="y" attributeType="ObjectID"/>
                  <attribute name="z"/>
                  <relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="owner" inverseEntity="B"/>
                  <relationship name="c" maxCount="1" deletionRule="Nullify" destinationEntity="B"/>
                </entity>
                <entity name="B"/>
                """)
        ])
        #expect(
            found.map(\.description) == [
                #"Model.xcdatamodel/contents:4: <attribute name="x">: unknown attributeType "Strng"; expected one of "Binary", "Boolean", "Date", "Decimal", "Double", "Float", "Integer 16", "Integer 32", "Integer 64", "String", "Transformable", "URI", "UUID""#,
                #"Model.xcdatamodel/contents:5: <attribute name="y">: attributeType "ObjectID" is not supported by Strata schemas"#,
                #"Model.xcdatamodel/contents:6: <attribute name="z">: an attribute of undefined type must be transient; give it a type"#,
                #"Model.xcdatamodel/contents:7: <relationship name="b">: inverse "owner" is not a relationship of B"#,
            ])
        // `c`, a to-one without an inverse, is allowed (with a warning; see
        // RelationshipWithoutInverseTests).
    }

    @Test func testLegacyBinaryFormatSaysToResaveInXcode4() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(
            in: folder, ["Model 2.xcdatamodel": Self.contents(Self.simpleEntity)])
        let legacy = url.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(
            to: legacy.appendingPathComponent("elements"))
        do {
            _ = try XcodeModelReader().read(at: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.map(\.file) == ["Model.xcdatamodel/elements"])
            #expect(error.issues.first?.message.contains("Xcode 4 or later") == true)
        }
    }

    @Test func testWhatCoreDataDoesNotHashIsLeftOutWithWarnings() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(
            in: folder,
            [
                "Model.xcdatamodel": Self.contents(
                    """
                    <entity name="A">
                      <attribute name="scratch" transient="YES"/>
                      <attribute name="data" attributeType="Binary" valueTransformerName="T"/>
                      <attribute name="total" attributeType="Integer 64" derived="YES" derivationExpression="x.@count"/>
                      <fetchedProperty name="others"><fetchRequest name="f" entity="A"/></fetchedProperty>
                    </entity>
                    """)
            ])
        let bundle = try XcodeModelReader().read(at: url)
        #expect(bundle.versions.first?.entities.first?.attributes.map(\.name) == ["data", "total"])
        #expect(
            bundle.warnings.map { "\($0.line ?? 0) \($0.element ?? "")" } == [
                "4 <attribute name=\"scratch\">", "5 <attribute name=\"data\">",
                "6 <attribute name=\"total\">", "7 <fetchedProperty name=\"others\">",
            ])
    }

    // MARK: - Forgiven as Xcode forgave

    /// Issue 13: a shipped model has `defaultValueString="NO"` on an Integer
    /// 64; Core Data reads it as 0, so does Strata, with one located warning.
    @Test func testBooleanDefaultOnAnIntegerBecomesZeroWithOneWarning() throws {
        let folder = try TemporaryDirectory()
        let url = try Self.bundle(
            in: folder,
            [
                "Model.xcdatamodel": Self.contents(
                    """
                    <entity name="A">
                      <attribute name="isMuted" attributeType="Integer 64" defaultValueString="NO" usesScalarValueType="YES"/>
                      <attribute name="isPinned" attributeType="Integer 16" defaultValueString="YES"/>
                    </entity>
                    """)
            ])
        let bundle = try XcodeModelReader().read(at: url)
        let entity = try #require(bundle.versions.first?.entity(named: "A"))
        #expect(entity.attribute(named: "isMuted")?.defaultValue == .literal(.integer(0)))
        #expect(entity.attribute(named: "isPinned")?.defaultValue == .literal(.integer(1)))
        #expect(
            bundle.warnings.map(\.description) == [
                #"Model.xcdatamodel/contents:4: <attribute name="isMuted">: defaultValueString "NO" on integer64 read as 0, as Core Data does"#,
                #"Model.xcdatamodel/contents:5: <attribute name="isPinned">: defaultValueString "YES" on integer16 read as 1, as Core Data does"#,
            ])
    }

    /// Defaults, bounds and delete rules are neither hashed nor laid out: a
    /// value Xcode accepted that Strata cannot read is left out with a
    /// warning, and the model converts with the hashes it had.
    @Test func testUnreadableUnhashedValuesAreLeftOutWithLocatedWarnings() throws {
        let folder = try TemporaryDirectory()
        let odd = """
            <entity name="A">
              <attribute name="count" attributeType="Integer 32" defaultValueString="many" minValueString="none"/>
              <attribute name="ratio" attributeType="Double" defaultValueString="half"/>
              <attribute name="done" attributeType="Boolean" defaultValueString="maybe"/>
              <attribute name="when" attributeType="Date" defaultDateTimeInterval="soon" maxDateTimeInterval="later"/>
              <attribute name="id" attributeType="UUID" defaultValueString="not-a-uuid"/>
              <attribute name="title" attributeType="String" maxValueString="long"/>
              <relationship name="b" maxCount="1" deletionRule="Sometimes" destinationEntity="B" inverseName="a" inverseEntity="B"/>
            </entity>
            <entity name="B">
              <relationship name="a" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
            </entity>
            """
        let plain = """
            <entity name="A">
              <attribute name="count" attributeType="Integer 32"/>
              <attribute name="ratio" attributeType="Double"/>
              <attribute name="done" attributeType="Boolean"/>
              <attribute name="when" attributeType="Date"/>
              <attribute name="id" attributeType="UUID"/>
              <attribute name="title" attributeType="String"/>
              <relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
            </entity>
            <entity name="B">
              <relationship name="a" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
            </entity>
            """
        let url = try Self.bundle(in: folder, ["Model.xcdatamodel": Self.contents(odd)])
        let bundle = try XcodeModelReader().read(at: url)
        let model = try #require(bundle.versions.first)
        let entity = try #require(model.entity(named: "A"))
        #expect(entity.attributes.allSatisfy { $0.defaultValue == nil })
        #expect(entity.attribute(named: "count")?.minValue == nil)
        #expect(entity.relationship(named: "b")?.deleteRule == .nullify)
        #expect(
            bundle.warnings.map { "\($0.line ?? 0) \($0.element ?? "")" } == [
                "4 <attribute name=\"count\">", "4 <attribute name=\"count\">",
                "5 <attribute name=\"ratio\">", "6 <attribute name=\"done\">",
                "7 <attribute name=\"when\">", "7 <attribute name=\"when\">",
                "8 <attribute name=\"id\">", "9 <attribute name=\"title\">",
                "10 <relationship name=\"b\">",
            ])
        #expect(model.versionHashes == (try read(plain)).versionHashes)
        #expect(SchemaValidator().validate(model).isEmpty)
    }
}
