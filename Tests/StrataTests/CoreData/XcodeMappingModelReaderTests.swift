import Foundation
import Testing

@testable import StrataCore
@testable import StrataQuery
@testable import StrataSchema
@testable import StrataStore

/// Mapping models read from `xcmapping.xml` and `.cdm` files written in the
/// documented shapes (`MappingModelFixture`).
struct XcodeMappingModelReaderTests {
    static let file = "Moody.xcmappingmodel/xcmapping.xml"

    func readXML(_ fixture: MappingModelFixture) throws -> XcodeMappingModel {
        try XcodeMappingModelReader().readXML(data: Data(fixture.xml().utf8), file: Self.file)
    }

    /// The issue the XML of `fixture` (or `xml`) is refused with.
    func issue(xml: String) throws -> XcodeModelIssue {
        let error = try #require(throws: XcodeMappingModelError.self) {
            try XcodeMappingModelReader().readXML(data: Data(xml.utf8), file: Self.file)
        }
        #expect(error.issues.count == 1)
        return try #require(error.issues.first)
    }

    /// The line of the first line of `xml` containing `text`.
    func line(of text: String, in xml: String) -> Int? {
        xml.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains(text) }.map { $0 + 1 }
    }

    /// A value expression as `NSExpression` prints it.
    func text(_ expression: ArchivedObject?) throws -> String? {
        try expression.map { try ExpressionNode(archived: $0).expressionText }
    }

    // MARK: - Live mappings

    @Test func testLiveMappingsAreReadInMappingNumberOrderWithoutOrphans() throws {
        let model = try readXML(.moody)
        #expect(model.kind == .xcmappingmodel && model.file == Self.file)
        // Listed as 4 3 2 1 (backwards) and written in another order; the
        // orphan "Mapping" (number 1 again) is left out.
        #expect(
            model.entityMappings.map(\.name) == [
                "CountryToCountry", "ContinentToContinent", "MoodToMood", "Tag",
            ])
        let mood = model.entityMappings[2]
        #expect(Set(mood.attributeMappings.map(\.name)) == ["deviceUid", "bonusPoints", "rating"])
        #expect(Set(mood.relationshipMappings.map(\.name)) == ["continent", "country"])
        // The orphan `moods` relationship mapping names ContinentToContinent;
        // the live one MoodToMood.
        let continent = model.entityMappings[1]
        let moods = try #require(continent.relationshipMappings.first { $0.name == "moods" })
        #expect(moods.sourceMappingName == "MoodToMood")
        #expect(moods.sourceKeyPath == "$source.countries.@distinctUnionOfSets.moods")
        #expect(
            !model.entityMappings.contains {
                $0.attributeMappings.contains { $0.name == "isoContinent" }
            })
    }

    @Test func testNamesEntitiesPoliciesAndFiltersAreRead() throws {
        let model = try readXML(.moody)
        let country = model.entityMappings[0]
        #expect(country.sourceEntity == "Country" && country.destinationEntity == "Country")
        #expect(country.policyClassName == "Migrations.Country5ToCountry6Policy")
        #expect(country.filterPredicate == "name != nil AND code > 0")
        #expect(country.location.hasPrefix("object z"))
        // An empty policy element is no policy; no filter is nil.
        let mood = model.entityMappings[2]
        #expect(mood.policyClassName == nil && mood.filterPredicate == nil)
        // An add mapping is named after its destination.
        let tag = model.entityMappings[3]
        #expect(tag.name == "Tag" && tag.sourceEntity == nil && tag.destinationEntity == "Tag")
        #expect(model.sourceModelPath == "Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel")
        #expect(model.destinationModelPath == "Migrations/Moody.xcdatamodeld/Moody 3.xcdatamodel")
    }

    @Test func testStoredNamesAndRemoveMappingsAreNamed() throws {
        var fixture = MappingModelFixture.moody
        fixture.mappings[0].storedName = "MoodsAgain"
        fixture.mappings.append(
            .init(source: "Continent", destination: nil, number: 5))
        let model = try readXML(fixture)
        #expect(
            model.entityMappings.map(\.name) == [
                "CountryToCountry", "ContinentToContinent", "MoodsAgain", "Tag", "Continent",
            ])
    }

    @Test func testRelationshipFieldsAreKeptAsTypedEvenWhenOnlyOneIsSet() throws {
        let mood = try readXML(.moody).entityMappings[2]
        let continent = try #require(mood.relationshipMappings.first { $0.name == "continent" })
        #expect(continent.sourceKeyPath == "$source.country.continent")
        #expect(continent.sourceMappingName == "ContinentToContinent")
        let country = try #require(mood.relationshipMappings.first { $0.name == "country" })
        #expect(country.sourceKeyPath == nil && country.sourceMappingName == "CountryToCountry")
        #expect(country.valueExpression == nil)
    }

    @Test func testStoredValueExpressionsAreTheirArchivesRoots() throws {
        let model = try readXML(.moody)
        let mood = model.entityMappings[2]
        var texts: [String: String] = [:]
        for mapping in mood.attributeMappings {
            texts[mapping.name] = try text(mapping.valueExpression)
        }
        #expect(
            texts == [
                "deviceUid": "$source.deviceName",
                "bonusPoints": #"FUNCTION($entityPolicy, "toInt16WithValue:", $source.bonus)"#,
                "rating": "-1",
            ])
        #expect(
            mood.attributeMappings.first { $0.name == "deviceUid" }?.valueExpression?.className
                == "NSKeyPathExpression")
        let country = model.entityMappings[0]
        #expect(
            try text(
                country.attributeMappings.first { $0.name == "numericISO3166Code" }?.valueExpression
            ) == "$source.continent.numericISO3166Code")
        // Absent means "the default", made at compile time.
        #expect(country.attributeMappings.first { $0.name == "name" }?.valueExpression == nil)
        #expect(
            try text(model.entityMappings[3].attributeMappings.first?.valueExpression) == #""text""#
        )
    }

    @Test func testSnapshotsBecomeModelsThatHashLikeTheModels() throws {
        let model = try readXML(.moody)
        let source = try #require(model.sourceModel)
        let destination = try #require(model.destinationModel)
        #expect(source.name == "Moody" && destination.name == "Moody")
        #expect(source.versionHashes == MappingModelFixture.moody2.versionHashes)
        #expect(destination.versionHashes == MappingModelFixture.moody3.versionHashes)
        #expect(destination.entity(named: "Country")?.parent == "GeographicRegion")
    }

    @Test func testAPackageFolderIsReadByItsXMLFile() throws {
        let folder = try TemporaryDirectory()
        let package = folder.file("Moody 2-3.xcmappingmodel")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data(MappingModelFixture.moody.xml().utf8).write(
            to: package.appendingPathComponent("xcmapping.xml"))
        let model = try XcodeMappingModelReader().read(at: package)
        // Named as the caller named the package.
        #expect(model.file == package.relativePath + "/xcmapping.xml")
        #expect(model.entityMappings.count == 4)
        let empty = folder.file("Empty.xcmappingmodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let error = try #require(throws: XcodeMappingModelError.self) {
            try XcodeMappingModelReader().read(at: empty)
        }
        #expect(error.description.hasPrefix("\(empty.relativePath)/xcmapping.xml: missing"))
    }

    // MARK: - .cdm

    @Test func testACompiledModelWithTheSameContentGivesTheSameMappings() throws {
        let fixture = MappingModelFixture.moody
        let xml = try readXML(fixture)
        let folder = try TemporaryDirectory()
        let url = folder.file("Moody2to3.cdm")
        try fixture.cdm().write(to: url)
        let cdm = try XcodeMappingModelReader().read(at: url)
        #expect(cdm.kind == .cdm && cdm.file == url.relativePath)
        #expect(cdm.sourceModel == nil && cdm.destinationModel == nil)
        #expect(cdm.entityMappings.map(\.name) == xml.entityMappings.map(\.name))
        for (compiled, editable) in zip(cdm.entityMappings, xml.entityMappings) {
            #expect(compiled.sourceEntity == editable.sourceEntity)
            #expect(compiled.destinationEntity == editable.destinationEntity)
            #expect(compiled.policyClassName == editable.policyClassName)
            #expect(compiled.filterPredicate == editable.filterPredicate)
            #expect(compiled.sourceExpression == nil)
            #expect(compiled.location.hasPrefix("$objects["))
            #expect(
                compiled.attributeMappings.map(\.name)
                    == editable.attributeMappings.map(\.name).reversed())
            for attribute in compiled.attributeMappings {
                let other = editable.attributeMappings.first { $0.name == attribute.name }
                #expect(try text(attribute.valueExpression) == text(other?.valueExpression))
            }
            // Version hashes are those of the snapshots' entities.
            let sourceHash = try compiled.sourceEntity.flatMap {
                try #require(xml.sourceModel).versionHash(ofEntity: $0)
            }
            #expect(compiled.sourceEntityVersionHash.map { [UInt8]($0) } == sourceHash)
            let destinationHash = try compiled.destinationEntity.flatMap {
                try #require(xml.destinationModel).versionHash(ofEntity: $0)
            }
            #expect(compiled.destinationEntityVersionHash.map { [UInt8]($0) } == destinationHash)
        }
        // The compiled relationship expression from a key path and a name.
        let moods = cdm.entityMappings[1].relationshipMappings.first { $0.name == "moods" }
        #expect(
            try text(moods?.valueExpression)
                == #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "MoodToMood", $source.countries.@distinctUnionOfSets.moods)"#
        )
    }

    @Test func testACompiledModelWithoutNamesGetsXcodesDefaultNames() throws {
        let data = MappingModelFixture.moody.cdm(writeNames: false)
        let model = try XcodeMappingModelReader().read(data: data, file: "Moody.cdm")
        #expect(
            model.entityMappings.map(\.name) == [
                "CountryToCountry", "ContinentToContinent", "MoodToMood", "Tag",
            ])
    }

    @Test func testACustomSourceExpressionIsKept() throws {
        var builder = KeyedArchiveBuilder()
        let fetch = builder.expression(
            .fetch(
                .function(
                    .variable("manager"), "fetchRequestForSourceEntityNamed:predicateString:",
                    [.string("Other"), .string("TRUEPREDICATE")]),
                .function(.variable("manager"), "sourceContext", []), countOnly: false))
        let defaultFetch = builder.expression(
            .fetch(
                .function(
                    .variable("manager"), "fetchRequestForSourceEntityNamed:predicateString:",
                    [.string("Mood"), .string("TRUEPREDICATE")]),
                .function(.variable("manager"), "sourceContext", []), countOnly: false))
        let custom = builder.object(
            ["NSEntityMapping"],
            [
                "NSSourceEntityName": builder.string("Mood"),
                "NSDestinationEntityName": builder.string("Mood"), "NSSourceExpression": fetch,
            ])
        let plain = builder.object(
            ["NSEntityMapping"],
            [
                "NSSourceEntityName": builder.string("Mood"),
                "NSDestinationEntityName": builder.string("Note"),
                "NSSourceExpression": defaultFetch,
            ])
        let list = builder.array([custom, plain])
        let root = builder.object(["NSMappingModel"], ["NSEntityMappings": list])
        let model = try XcodeMappingModelReader().readCompiled(
            data: builder.archive(root: root), file: "Moody.cdm")
        // The fetch names another entity than the mapping's source.
        #expect(try text(model.entityMappings[0].sourceExpression)?.hasPrefix("FETCH(") == true)
        #expect(model.entityMappings[0].filterPredicate == nil)
        // FUNCTION($manager, "sourceContext") is a default context too.
        #expect(model.entityMappings[1].sourceExpression == nil)
        #expect(model.entityMappings[1].filterPredicate == nil)
    }

    @Test func testACompiledModelWhoseRootIsNoMappingModelIsRefused() throws {
        let data = ModelSnapshotFixture.archive(of: MappingModelFixture.moody2)
        let error = try #require(throws: XcodeMappingModelError.self) {
            try XcodeMappingModelReader().read(data: data, file: "Moody.cdm")
        }
        #expect(
            error.description
                == "Moody.cdm: $objects[1]: the root is a XDPMModel; expected an NSMappingModel")
    }

    // MARK: - Bad XML

    @Test func testAFileWithoutAMappingModelObjectIsRefused() throws {
        var fixture = MappingModelFixture.moody
        fixture.modelCount = 0
        let xml = fixture.xml()
        let issue = try issue(xml: xml)
        #expect(issue.file == Self.file && issue.element == "<database>")
        #expect(issue.line == line(of: "<database>", in: xml))
        #expect(issue.message.hasPrefix("no XDDEVMAPPINGMODEL object"))
    }

    @Test func testTwoMappingModelObjectsAreRefusedAtTheSecond() throws {
        var fixture = MappingModelFixture.moody
        fixture.modelCount = 2
        let xml = fixture.xml()
        let issue = try issue(xml: xml)
        // The file lists z103 first: the second in document order is z102.
        #expect(issue.element == "object z102")
        #expect(issue.line == line(of: #"<object type="XDDEVMAPPINGMODEL" id="z102">"#, in: xml))
        let first = try #require(line(of: #"<object type="XDDEVMAPPINGMODEL" id="z103">"#, in: xml))
        #expect(
            issue.message
                == "a second XDDEVMAPPINGMODEL (the first is object z103 on line \(first)); "
                + "expected exactly one")
    }

    @Test func testADanglingIdrefIsRefusedWithItsPlace() throws {
        let xml = MappingModelFixture.moody.xml().replacingOccurrences(
            of: #"type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z106"#,
            with: #"type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z999"#)
        let issue = try issue(xml: xml)
        #expect(issue.element == #"object z102 <relationship name="entitymappings">"#)
        #expect(issue.line == line(of: #"<relationship name="entitymappings""#, in: xml))
        #expect(
            issue.message
                == "names z999, which is no object of the file; expected a XDDEVENTITYMAPPING")
    }

    @Test func testAnIdrefToAnObjectOfTheWrongTypeIsRefused() throws {
        // z102 is the mapping model itself.
        let xml = MappingModelFixture.moody.xml().replacingOccurrences(
            of: #"type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z106"#,
            with: #"type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z102"#)
        let issue = try issue(xml: xml)
        #expect(issue.message.hasPrefix("names z102, which is a XDDEVMAPPINGMODEL on line "))
    }

    @Test func testALivePropertyWhoseBackReferenceNamesAnotherMappingIsRefused() throws {
        var fixture = MappingModelFixture.moody
        fixture.mappings[2].attributes[0].claimedOwner = "MoodToMood"
        let xml = fixture.xml()
        let issue = try issue(xml: xml)
        // Mappings are z103 (Mood) to z106, the orphan z107; then the
        // properties, Mood's five and Continent's four before Country's.
        #expect(issue.element == #"object z117 <relationship name="entitymapping">"#)
        #expect(
            issue.message
                == "names z103 as its owner, but object z105 lists it as live; expected z105")
        let objectLine = try #require(line(of: #"id="z117""#, in: xml))
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        let backReference = try #require(
            lines[objectLine...].firstIndex { $0.contains(#"name="entitymapping""#) })
        #expect(issue.line == backReference + 1)
    }

    @Test func testDuplicateLiveMappingNumbersAreRefused() throws {
        var fixture = MappingModelFixture.moody
        fixture.mappings[3].number = 2
        let issue = try issue(xml: fixture.xml())
        #expect(issue.element?.hasSuffix(#"<attribute name="mappingnumber">"#) == true)
        #expect(issue.message.hasPrefix("mappingnumber 2 is also that of object z"))
    }

    @Test func testBinaryThatIsNotBase64IsRefused() throws {
        let xml = MappingModelFixture.moody.xml().replacingOccurrences(
            of: #"<attribute name="valueexpressiondata" type="binary">"#,
            with: #"<attribute name="valueexpressiondata" type="binary">%%"#)
        let issue = try issue(xml: xml)
        #expect(issue.element?.hasSuffix(#"<attribute name="valueexpressiondata">"#) == true)
        #expect(issue.message == "expected base64, found characters that are not")
        #expect(
            issue.line.map {
                xml.split(separator: "\n", omittingEmptySubsequences: false)[$0 - 1].contains("%%")
            } == true)
    }

    @Test func testMalformedXMLAndOtherDocumentsAreRefusedWithTheirLine() throws {
        let malformed = try issue(xml: "<database>\n<object>\n</database>")
        #expect(malformed.line == 3 && malformed.column != nil)
        let plist = try issue(xml: "<?xml version=\"1.0\"?>\n<plist/>")
        #expect(
            plist.description
                == "\(Self.file):2: <plist>: expected a Core Data XML store, whose document element is <database>"
        )
    }

    @Test func testAnExpressionArchiveWithAnUnknownClassReadsButDoesNotConvert() throws {
        var fixture = MappingModelFixture.moody
        fixture.mappings[0].attributes[2].expression = .unknown("NSSubqueryExpression")
        let model = try readXML(fixture)
        let expression = try #require(
            model.entityMappings[2].attributeMappings.first { $0.name == "rating" }?.valueExpression
        )
        let error = try #require(throws: ArchivedExpressionError.self) {
            try ExpressionNode(archived: expression)
        }
        #expect(
            error.description.hasPrefix(
                "$objects[2] (NSSubqueryExpression): unsupported expression class"))
    }
}
