import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

private typealias S = MappingTestSupport
typealias XcodeEntityMapping = XcodeMappingModel.EntityMapping
typealias XcodePropertyMapping = XcodeMappingModel.PropertyMapping

/// Issue 26: Core Data mapping models converted into mapping files, matched
/// to their versions by entity version hashes, with the expressions Xcode
/// generates made explicit. The shape is objc.io Moody's 2 → 3: moods get a
/// direct `continent`, filled through their country.
struct MappingModelConverterTests {
    static let moody2 = #"""
        {
          "Continent": {
            "attributes": { "numericISO3166Code": { "type": "integer16" } },
            "relationships": {
              "countries": { "destination": "Country", "inverse": "continent", "toMany": true,
                             "optional": true } } },
          "Country": {
            "attributes": { "numericISO3166Code": { "type": "integer16" } },
            "relationships": {
              "continent": { "destination": "Continent", "inverse": "countries", "optional": true },
              "moods": { "destination": "Mood", "inverse": "country", "toMany": true,
                         "optional": true } } },
          "Mood": {
            "attributes": { "name": { "type": "string", "optional": true } },
            "relationships": {
              "country": { "destination": "Country", "inverse": "moods", "optional": true } } }
        }
        """#
    static let moody3 = #"""
        {
          "Continent": {
            "attributes": { "numericISO3166Code": { "type": "integer16" } },
            "relationships": {
              "countries": { "destination": "Country", "inverse": "continent", "toMany": true,
                             "optional": true },
              "moods": { "destination": "Mood", "inverse": "continent", "toMany": true,
                         "optional": true } } },
          "Country": {
            "attributes": { "numericISO3166Code": { "type": "integer16" } },
            "relationships": {
              "continent": { "destination": "Continent", "inverse": "countries", "optional": true },
              "moods": { "destination": "Mood", "inverse": "country", "toMany": true,
                         "optional": true } } },
          "Mood": {
            "attributes": { "name": { "type": "string", "optional": true } },
            "relationships": {
              "country": { "destination": "Country", "inverse": "moods", "optional": true },
              "continent": { "destination": "Continent", "inverse": "moods", "optional": true } } }
        }
        """#

    /// What Xcode writes for an entity mapping: one property mapping per
    /// destination property, expressions only where typed.
    static func entityMapping(
        _ from: String?, _ to: String?, in model: Model, number: Int,
        links: [String: (keyPath: String, mapping: String)] = [:], policy: String? = nil,
        filter: String? = nil
    ) -> XcodeEntityMapping {
        let name = from.map { from in to.map { "\(from)To\($0)" } ?? from } ?? to ?? "?"
        let entity = to ?? ""
        var id = number * 100
        func nextID() -> String {
            id += 1
            return "object z\(id)"
        }
        return XcodeEntityMapping(
            name: name, sourceEntity: from, destinationEntity: to, filterPredicate: filter,
            policyClassName: policy,
            attributeMappings: model.allAttributes(of: entity).map {
                XcodePropertyMapping(name: $0.name, location: nextID())
            },
            relationshipMappings: model.allRelationships(of: entity).map {
                XcodePropertyMapping(
                    name: $0.name, sourceKeyPath: links[$0.name]?.keyPath,
                    sourceMappingName: links[$0.name]?.mapping, location: nextID())
            },
            location: "object z\(number)")
    }

    static func moodyMappingModel(_ v2: Model, _ v3: Model) -> XcodeMappingModel {
        XcodeMappingModel(
            file: "Moody 2-Moody 3.xcmappingmodel", kind: .xcmappingmodel, sourceModel: v2,
            destinationModel: v3,
            sourceModelPath: "Migrations/Moody.xcdatamodeld/Moody 2.xcdatamodel",
            destinationModelPath: "Migrations/Moody.xcdatamodeld/Moody 3.xcdatamodel",
            entityMappings: [
                entityMapping(
                    "Continent", "Continent", in: v3, number: 1,
                    links: [
                        "moods": ("$source.countries.@distinctUnionOfSets.moods", "MoodToMood")
                    ]),
                entityMapping("Country", "Country", in: v3, number: 2),
                entityMapping(
                    "Mood", "Mood", in: v3, number: 3,
                    links: [
                        "continent": ("$source.country.continent", "ContinentToContinent"),
                        "country": ("$source.country", "CountryToCountry"),
                    ]),
            ])
    }

    @Test func testAPolicyFreeModelMigratesAsCoreDatasDefaultPolicyWould() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        let converted = try MappingModelConverter(versions: [v2, v3])
            .convert(Self.moodyMappingModel(v2, v3))
        #expect(converted.fileName == "2-3.mapping.json")
        let text = String(decoding: converted.data, as: UTF8.self)
        // The to-one side is written; its inverse follows from it.
        #expect(
            text.contains(#""continent": {"#) && text.contains(#""from": "country.continent""#),
            "\(text)")
        #expect(!text.contains(#""moods""#), "\(text)")
        #expect(
            converted.report.description.contains(
                "  ContinentToContinent: Continent, updated in place\n"
                    + "    copied    numericISO3166Code\n"
                    + "    copied    links of countries (from countries)\n"
                    + "    linked    moods: set from its inverse Mood.continent"),
            "\(converted.report)")

        let fixture = try MappingFixture(v2) { context in
            let europe = try context.insert("Continent")
            try europe.set("numericISO3166Code", 150)
            let france = try context.insert("Country")
            try france.set("numericISO3166Code", 250)
            try france.setObject(europe, forKey: "continent")
            let nowhere = try context.insert("Country")
            try nowhere.set("numericISO3166Code", 0)
            for (name, country) in [("calm", france), ("lost", nowhere), ("happy", france)] {
                let mood = try context.insert("Mood")
                try mood.set("name", name)
                try mood.setObject(country, forKey: "country")
            }
        }
        let context = try fixture.migrate(to: v3, with: converted.mapping)
        let moods = try context.all("Mood")
        #expect(
            try moods.map {
                try $0.object(forKey: "continent")?.value(forKey: "numericISO3166Code")
            }
                == [.integer(150), nil, .integer(150)])
        #expect(
            try moods.map { try $0.object(forKey: "country")?.value(forKey: "numericISO3166Code") }
                == [.integer(250), .integer(0), .integer(250)])
        #expect(
            try context.all("Continent").first?.objects(forKey: "moods")
                .map { try $0.string("name") ?? "" }.sorted() == ["calm", "happy"])
    }

    @Test func testVersionsAreFoundByEntityHashesNotByNames() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        let v1 = try S.model(
            "Moody", 1, #"{ "Mood": { "attributes": { "name": { "type": "string" } } } }"#)
        var model = Self.moodyMappingModel(v2, v3)
        model.sourceModelPath = "Framework/Data/Moody.xcdatamodeld/Moody 1.xcdatamodel"  // stale
        let converted = try MappingModelConverter(versions: [v1, v2, v3]).convert(model)
        #expect((converted.from, converted.to) == (2, 3))
    }

    @Test func testASnapshotWithAnExtraEntityStillMatches() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var stale = v3
        stale.entities.append(Entity(name: "DummyClassForWarningSuppression"))
        var model = Self.moodyMappingModel(v2, v3)
        model.destinationModel = stale
        model.entityMappings.append(
            Self.entityMapping(nil, "DummyClassForWarningSuppression", in: stale, number: 4))
        let converted = try MappingModelConverter(versions: [v2, v3]).convert(model)
        #expect((converted.from, converted.to) == (2, 3))
        #expect(
            converted.report.description.contains(
                "nothing: an add mapping has no source objects, so Core Data creates no "
                    + "DummyClassForWarningSuppression objects"))
    }

    @Test func testAModelMatchingNoVersionPairNamesTheNearestVersions() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var edited = v2
        edited.entities[2].attributes[0].isOptional = false  // Mood.name
        var model = Self.moodyMappingModel(v2, v3)
        model.sourceModel = edited
        let error = try #require(throws: MappingModelError.self) {
            try MappingModelConverter(versions: [v2, v3]).convert(model)
        }
        #expect(
            error.description.hasPrefix(
                "Moody 2-Moody 3.xcmappingmodel: its entity version hashes match no version pair "
                    + "of the chain; source: nearest version 2, differing in Mood"),
            "\(error)")
    }

    @Test func testVersionsThatHashAlikeAreToldApartByTheRecordedPaths() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        var v3 = try S.model("Moody", 3, Self.moody3)
        var v4 = v3
        v4.version = 4
        v3.version = 3
        let folders = ["Moody 2.xcdatamodel", "Moody 3.xcdatamodel", "Moody 4.xcdatamodel"]
        let converted = try MappingModelConverter(versions: [v2, v3, v4], versionFolders: folders)
            .convert(Self.moodyMappingModel(v2, v3))
        #expect((converted.from, converted.to) == (2, 3))
        var unhinted = Self.moodyMappingModel(v2, v3)
        unhinted.destinationModelPath = nil
        let error = try #require(throws: MappingModelError.self) {
            try MappingModelConverter(versions: [v2, v3, v4], versionFolders: folders)
                .convert(unhinted)
        }
        #expect(error.description.contains("match several version pairs: 2-3, 2-4"), "\(error)")
    }

    @Test func testAKeyPathThatDoesNotResolveIsLocated() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var model = Self.moodyMappingModel(v2, v3)
        let continent = try #require(
            model.entityMappings[2].relationshipMappings.firstIndex { $0.name == "continent" })
        model.entityMappings[2].relationshipMappings[continent].sourceKeyPath =
            "$source.land.continent"
        let error = try #require(throws: MappingModelError.self) {
            try MappingModelConverter(versions: [v2, v3]).convert(model)
        }
        #expect(
            error.description.hasPrefix(
                "Moody 2-Moody 3.xcmappingmodel: entity mapping MoodToMood (object z3), "
                    + "relationship mapping continent (object z302): $source.land.continent: "
                    + "Mood.land is not a property"), "\(error)")
    }

    @Test func testAnEntityNoMappingReadsKeepsNoneOfItsObjectsAsInCoreData() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var model = Self.moodyMappingModel(v2, v3)
        model.entityMappings.remove(at: 1)  // CountryToCountry
        for index in model.entityMappings[1].relationshipMappings.indices
        where model.entityMappings[1].relationshipMappings[index].name == "country" {
            model.entityMappings[1].relationshipMappings[index].sourceKeyPath = nil
            model.entityMappings[1].relationshipMappings[index].sourceMappingName = nil
        }
        let converted = try MappingModelConverter(versions: [v2, v3]).convert(model)
        #expect(converted.mapping.entity(named: "Country")?.condition == "FALSEPREDICATE")
        #expect(
            converted.report.description.contains(
                "every Country object: no entity mapping reads them, so Core Data migrates none"))
    }

    @Test func testAPolicyIsConvertedWithTheRestAndNamed() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var model = Self.moodyMappingModel(v2, v3)
        model.entityMappings[1].policyClassName = "Migrations.Country5ToCountry6Policy"
        let converted = try MappingModelConverter(versions: [v2, v3]).convert(model)
        let rule = try #require(converted.mapping.entity(named: "Country"))
        #expect(rule.policy == "Migrations.Country5ToCountry6Policy")
        #expect(rule.entityMapping == "CountryToCountry")
        #expect(
            converted.mapping.policies.map(\.className) == ["Migrations.Country5ToCountry6Policy"])
    }

    @Test func testTwoEntityMappingsIntoOneEntityAreRefused() throws {
        let v2 = try S.model("Moody", 2, Self.moody2)
        let v3 = try S.model("Moody", 3, Self.moody3)
        var model = Self.moodyMappingModel(v2, v3)
        var second = model.entityMappings[1]
        second.name = "ContinentToCountry"
        second.sourceEntity = "Continent"
        second.location = "object z9"
        model.entityMappings.append(second)
        let error = try #require(throws: MappingModelError.self) {
            try MappingModelConverter(versions: [v2, v3]).convert(model)
        }
        #expect(
            error.description.hasPrefix(
                "Moody 2-Moody 3.xcmappingmodel: entity mapping ContinentToCountry (object z9): "
                    + "CountryToCountry makes Country objects too"), "\(error)")
    }
}
