import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration

/// Removing an abstract parent, as objc.io's Moody does from version 3 to
/// 4 (`GeographicRegion` goes, `Country` and `Continent` become standalone
/// and each declares the properties pushed down to it): every value stays,
/// so no step is lossy and nothing blocks; a real loss still blocks and
/// names the mapping file and the `discard` entry to write.
struct MigrationAbstractParentTests {
    typealias M = MigrationStepModels

    /// The region attributes, as the parent declares them in version 1 and
    /// each former subentity in version 2.
    static let regionAttributes = """
        "markedForDeletionDate": {"type": "date", "optional": true},
        "numberOfMoods": {"type": "integer64", "default": 0},
        "numericISO3166Code": {"type": "integer16"},
        "updatedAt": {"type": "date"}
        """

    /// Moody's version 3: `GeographicRegion` (abstract) over `Continent`
    /// and `Country`; `Mood` with `markedForDeletionDate` when `moodDate`.
    static func moody3(moodDate: Bool = false) -> String {
        """
        "GeographicRegion": {"abstract": true, "attributes": {\(regionAttributes)}},
        "Continent": {"parent": "GeographicRegion",
                      "attributes": {"numberOfCountries": {"type": "integer64", "default": 0}},
                      "relationships": {"countries": {"destination": "Country",
                                                      "inverse": "continent", "toMany": true,
                                                      "optional": true}}},
        "Country": {"parent": "GeographicRegion",
                    "relationships": {
                      "continent": {"destination": "Continent", "inverse": "countries",
                                    "optional": true},
                      "moods": {"destination": "Mood", "inverse": "country", "toMany": true,
                                "optional": true}}},
        "Mood": {"attributes": {"rating": {"type": "integer16", "optional": true}\(
            moodDate ? #", "markedForDeletionDate": {"type": "date", "optional": true}"# : "")},
                 "relationships": {"country": {"destination": "Country", "inverse": "moods",
                                               "optional": true}}}
        """
    }

    /// Moody's version 4: `Continent` and `Country` standalone, each with
    /// the region attributes (`Continent` without `markedForDeletionDate`
    /// when `continentDate` is false).
    static func moody4(continentDate: Bool = true) -> String {
        let continent =
            continentDate
            ? regionAttributes
            : regionAttributes.replacingOccurrences(
                of: #""markedForDeletionDate": {"type": "date", "optional": true},"#, with: "")
        return """
            "Continent": {"attributes": {\(continent),
                            "numberOfCountries": {"type": "integer64", "default": 0}},
                          "relationships": {"countries": {"destination": "Country",
                                                          "inverse": "continent", "toMany": true,
                                                          "optional": true}}},
            "Country": {"attributes": {\(regionAttributes)},
                        "relationships": {
                          "continent": {"destination": "Continent", "inverse": "countries",
                                        "optional": true},
                          "moods": {"destination": "Mood", "inverse": "country", "toMany": true,
                                    "optional": true}}},
            "Mood": {"attributes": {"rating": {"type": "integer16", "optional": true}},
                     "relationships": {"country": {"destination": "Country", "inverse": "moods",
                                                   "optional": true}}}
            """
    }

    /// Two continents, three countries (one without a continent), two moods.
    static func fill(_ context: Context) throws {
        func region(_ entity: String, _ code: Int64, _ moods: Int64, _ deleted: Double?)
            throws -> ManagedObject
        {
            try context.make(
                entity,
                [
                    "numericISO3166Code": .integer(code), "numberOfMoods": .integer(moods),
                    "updatedAt": .date(Double(code) * 1000.5),
                    "markedForDeletionDate": deleted.map { .date($0) },
                ])
        }
        let europe = try region("Continent", 150, 2, 7.25)
        try europe.setValue(.integer(2), forKey: "numberOfCountries")
        let africa = try region("Continent", 2, 0, 9.5)
        let france = try region("Country", 250, 1, nil)
        let germany = try region("Country", 276, 1, 11.75)
        _ = try region("Country", 894, 0, nil)
        try france.setObject(europe, forKey: "continent")
        try germany.setObject(europe, forKey: "continent")
        _ = africa
        for (rating, country) in [(3, france), (5, germany)] {
            let mood = try context.make("Mood", ["rating": .integer(Int64(rating))])
            try mood.setObject(country, forKey: "country")
        }
    }

    static let continents = [
        #"Continent/p1 markedForDeletionDate=@7.25 numberOfCountries=2 numberOfMoods=2 "#
            + #"numericISO3166Code=150 updatedAt=@150075.0 countries=[Country/p3, Country/p4]"#,
        #"Continent/p2 markedForDeletionDate=@9.5 numberOfCountries=0 numberOfMoods=0 "#
            + #"numericISO3166Code=2 updatedAt=@2001.0 countries=[]"#,
    ]

    static func strict(_ store: StepTestStore, mappings: [Int: MigrationMapping] = [:])
        -> Migrator
    {
        var options = MigrationOptions()
        options.keepsBackup = false
        return Migrator(
            storeAt: store.url, chain: store.chain, mappings: mappings, options: options)
    }

    @Test func testRemovingAnAbstractParentLosesNothingAndDoesNotBlock() throws {
        let store = try StepTestStore(
            chain: try M.chain(Self.moody3(), Self.moody4()), version: 1, fill: Self.fill)
        let before = try store.rows("GeographicRegion", as: 1)
        #expect(before.count == 5)
        let plan = try MigrationPlan(chain: store.chain, from: 1, to: 2)
        #expect(plan.steps.filter { $0.label != .inferred }.map(\.names) == [])
        #expect(plan.label == .inferred)
        let removal = try #require(plan.steps.first { $0.kind == .removeEntity })
        #expect(removal.entity == "GeographicRegion")
        #expect(removal.reason.contains("stay with Continent, Country"))
        #expect(
            plan.steps.filter { $0.kind == .moveProperty }.map(\.names).sorted() == [
                "Continent.markedForDeletionDate", "Continent.numberOfMoods",
                "Continent.numericISO3166Code", "Continent.updatedAt",
                "Country.markedForDeletionDate", "Country.numberOfMoods",
                "Country.numericISO3166Code", "Country.updatedAt",
            ])

        let migrator = Self.strict(store)
        let preview = try migrator.preview()
        #expect(preview.findings.filter { $0.severity == .blocking }.map(\.message) == [])
        #expect(!preview.findings.contains { $0.message.contains("dropped") })
        let report = try migrator.run()
        #expect(report.movedObjects == ["GeographicRegion": ["Continent", "Country"]])

        #expect(try store.problems(as: 2) == [])
        // Every value in place, under the same keys.
        #expect(try store.rows("Continent", as: 2) == Self.continents)
        #expect(
            try store.rows("Country", as: 2) == [
                #"Country/p3 markedForDeletionDate=nil numberOfMoods=1 numericISO3166Code=250 "#
                    + #"updatedAt=@250125.0 continent=Continent/p1 moods=[Mood/p1]"#,
                #"Country/p4 markedForDeletionDate=@11.75 numberOfMoods=1 "#
                    + #"numericISO3166Code=276 updatedAt=@276138.0 continent=Continent/p1 "#
                    + #"moods=[Mood/p2]"#,
                #"Country/p5 markedForDeletionDate=nil numberOfMoods=0 numericISO3166Code=894 "#
                    + #"updatedAt=@894447.0 continent=nil moods=[]"#,
            ])
        #expect(
            try store.rows("Mood", as: 2) == [
                "Mood/p1 rating=3 country=Country/p3", "Mood/p2 rating=5 country=Country/p4",
            ])
    }

    /// Version 3 drops `Continent.markedForDeletionDate`, which holds two
    /// values; version 2 also drops a `Mood` attribute of the same name
    /// (all nil). The fused stage 1-3 blocks, naming the pair where the
    /// continents' loss happens and the entry; a discard of the countries'
    /// attribute does not cover it, the right entry does.
    @Test func testARealLossBlocksNamingTheFileAndEntry() throws {
        let chain = try M.chain(
            Self.moody3(moodDate: true), Self.moody4(), Self.moody4(continentDate: false))
        let store = try StepTestStore(chain: chain, version: 1, fill: Self.fill)
        let preview = try Self.strict(store).preview()
        #expect(preview.stages.map(\.stage.name) == ["1-3"])
        #expect(
            preview.blockingFindings.map(\.message) == [
                "2 values of Continent.markedForDeletionDate would be dropped; acknowledge it with "
                    + "\"discard\": [\"Continent.markedForDeletionDate\"] in 2-3.mapping.json or "
                    + "pass --accept-lossy"
            ])
        #expect(throws: MigrationError.self) { try Self.strict(store).run() }
        #expect(try store.problems(as: 1) == [])

        func mapping(discarding name: String) throws -> [Int: MigrationMapping] {
            let text = """
                {"format": "strata-mapping/1", "from": 2, "to": 3, "discard": ["\(name)"]}
                """
            return [
                2: try MigrationMapping(
                    data: Data(text.utf8), file: "2-3.mapping.json",
                    source: try #require(chain.model(version: 2)),
                    destination: try #require(chain.model(version: 3)))
            ]
        }
        // The countries' attribute of the same name is another one.
        let sibling = try Self.strict(
            store, mappings: try mapping(discarding: "Country.markedForDeletionDate")
        ).preview()
        #expect(
            sibling.blockingFindings.map(\.message).contains {
                $0.hasPrefix("2 values of Continent.markedForDeletionDate would be dropped")
            })
        // … and discarding what the stage does not lose is a warning.
        #expect(
            sibling.findings.filter { $0.severity == .warning }.map(\.message) == [
                "\"discard\" names Country.markedForDeletionDate in 2-3.mapping.json, but stage "
                    + "2-3 loses nothing there; remove the entry or check its name (a property "
                    + "of one subentity does not cover the same name on another)"
            ])
        let migrator = Self.strict(
            store, mappings: try mapping(discarding: "Continent.markedForDeletionDate"))
        let accepted = try migrator.preview()
        #expect(accepted.blockingFindings.isEmpty)
        #expect(!accepted.findings.contains { $0.severity == .warning })
        try migrator.run()
        #expect(try store.problems(as: 3) == [])
        #expect(
            try store.rows("Continent", as: 3)
                == Self.continents.map {
                    $0.replacingOccurrences(of: #"markedForDeletionDate=@7.25 "#, with: "")
                        .replacingOccurrences(of: #"markedForDeletionDate=@9.5 "#, with: "")
                })
    }

    /// Rules on both sides of one relationship decide the same links: the
    /// file is refused, the issue located at the later rule.
    @Test func testRulesOnBothSidesOfARelationshipAreRefusedWithTheirPlace() throws {
        let chain = try M.chain(Self.moody4(), Self.moody4(continentDate: false))
        let text = """
            {"format": "strata-mapping/1", "from": 1, "to": 2,
             "discard": ["Continent.markedForDeletionDate"],
             "entities": {
               "Continent": {"relationships": {"countries": {"from": "countries"}}},
               "Country": {"relationships": {"continent": {"from": "continent"}}}}}
            """
        let error = #expect(throws: MappingError.self) {
            try MigrationMapping(
                data: Data(text.utf8), file: "1-2.mapping.json",
                source: try #require(chain.model(version: 1)),
                destination: try #require(chain.model(version: 2)))
        }
        #expect(
            error?.issues.map(\.description) == [
                "1-2.mapping.json:5:34: $.entities.Country.relationships.continent: "
                    + "Country.continent and its inverse Continent.countries (line 4, column 36) "
                    + "both have rules; give the links one rule, on either side"
            ])
    }
}
