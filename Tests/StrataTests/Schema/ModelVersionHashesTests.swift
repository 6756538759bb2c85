import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

/// The version-hash recipe of coredata-format.md §1.11, checked against the
/// test vectors recorded there and against the metadata of the real stores
/// under `Fixtures/coredata/`.
struct ModelVersionHashesTests {
    // MARK: - Test vectors of §1.11

    @Test func testSurfJournalEntryVector() {
        let entry = Entity(
            name: "JournalEntry",
            attributes: [
                FixtureModels.attribute("date", .date, optional: true),
                FixtureModels.attribute("height", .string, optional: true),
                FixtureModels.attribute("location", .string, optional: true),
                FixtureModels.attribute("period", .string, optional: true),
                FixtureModels.attribute("rating", .integer16, optional: true),
                FixtureModels.attribute("wind", .string, optional: true),
            ])
        let model = Model(name: "SurfJournal", version: 1, entities: [entry])
        #expect(
            base64(model.versionHash(ofEntity: "JournalEntry"))
                == "Tj6pVjI2H01Wp34HCsdGhqINZK/14EnrYaNBIVLu3wc=")
    }

    /// Also the hashes recorded in `bnr-sample/TestModel.sqlite` (framework
    /// 637, which writes neither the digest nor the checksum key).
    @Test func testBNRAuthorAndBookVectors() {
        let hashes = FixtureModels.bnrV1().versionHashes
        #expect(hashes.count == 2)
        #expect(base64(hashes["Author"]) == "y8H1wnTr9BRHTE41D3OxSx3TVsIngq50iIENWXGIxG0=")
        #expect(base64(hashes["Book"]) == "KSySPkjCy+6loRO7doX7xjq4AMC7wkKtF6Dy4qHgj1w=")
    }

    /// Apple's iPhoneCoreDataRecipes. Its model file does not show the
    /// optionality; of the 8 combinations of (`image` optional, `recipe`
    /// optional, `recipe` minCount 0/1) only this one reproduces the vector:
    /// `image` optional, `recipe` NOT optional with minCount 1 and maxCount 1
    /// (the explicit `minCount="1" maxCount="1"` of old model files).
    @Test func testRecipesImageVector() {
        var image = FixtureModels.attribute("image", .transformable, optional: true)
        image.valueTransformer = "ImageToDataTransformer"
        var recipe = FixtureModels.toOne("recipe", "Recipe", inverse: "image")
        recipe.minCount = 1
        let model = Model(
            name: "Recipes", version: 1,
            entities: [
                Entity(name: "Image", attributes: [image], relationships: [recipe]),
                Entity(
                    name: "Recipe",
                    relationships: [FixtureModels.toOne("image", "Image", inverse: "recipe")]),
            ])
        #expect(
            base64(model.versionHash(ofEntity: "Image"))
                == "njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8=")
    }

    // MARK: - Fixture stores

    /// Expected values copied from `Z_METADATA.Z_PLIST` of
    /// `ddg-bookmarks/Bookmarks_Vn.sqlite`, read with Python's sqlite3 and
    /// plistlib from a temporary copy of each store with its -wal and -shm
    /// (the metadata lives in the WAL). Only V4 was written by framework 1333,
    /// the first to record `NSStoreModelVersionChecksumKey`; V1–V3 and V5 come
    /// from framework 1251.
    static let bookmarksMetadata: [Int: (hash: String, digest: String, checksum: String?)] = [
        1: (
            "w3rZsxoc4/ryWBZERHF6cwMX3uBO+kGR0xCG0hefnCA=",
            "5KlKrVThxcoXSL+ZjFKY7n06yLOp+yhkgKcYEd/X2RK/"
                + "9UmzKy8A4/X11PZ2vR9NjCIbeM7jNq9EoAHMv8yklQ==",
            nil
        ),
        2: (
            "mdZQkw9+SEQQIH/u3RKbQvXnrP+Dq2qb9huabYi904I=",
            "KOVMA003UkROpjwLxlVoeHbPbvDabq7nYfdZdUSoYMGL"
                + "W4Xy6kfgM5kIQvWOkrIG9JycFVi/ysBgUAZn26pZOQ==",
            nil
        ),
        3: (
            "aYt2S+tyoryQIXq5pnDZDZzhZjtxwV9nXMv7Ruf/dqU=",
            "mq5DOodApwPsMEHT6e5vsvPfz1B8zAjCiVT0RFpxep6W"
                + "IXFnTAakSGDtSyuSxMR71IS2NbpOAtTRaEstvviG1w==",
            nil
        ),
        4: (
            "aghslUTArcZnTjexos1Lx+3NlN4iTGH8YDhkhEy1+PY=",
            "f3zhRcli1vU1KL1eGWk+BkpW5eZLLlkgDMaIRfi7mC3a"
                + "9eGmHvJvEoHfMAaXAYLC9Ua3nas4g1P8aXw0xiQM2g==",
            "iheL242Wk4NBM9JCcDWZC7hP4J9Hv8iA7W0XzuNEkZc="
        ),
        5: (
            "hPB8BH05EI1mbfnQivcosxlzg72mmP6/O5CZfbT9WSk=",
            "9WYf7a2enJKaL4wKAAgYwqyHAEQ12ZaJfnpBLqnbp6yz"
                + "amL1LLxv+wKyoakpQaDZU1UTXD12xSVlsn0gDkf/oQ==",
            nil
        ),
    ]

    @Test(arguments: 1...5) func testBookmarksStoreMetadataMatchesModel(version: Int) throws {
        let model = try #require(FixtureModels.bookmarks(version))
        let expected = try #require(Self.bookmarksMetadata[version])
        #expect(model.versionHashes.keys.sorted() == ["BookmarkEntity"])
        #expect(base64(model.versionHash(ofEntity: "BookmarkEntity")) == expected.hash)
        #expect(model.versionHashesDigest == expected.digest)
        if let checksum = expected.checksum {
            #expect(model.versionChecksum == checksum)
        }
    }

    /// Version 6 has no store; its hash must still differ from version 5's
    /// because it adds an attribute.
    @Test func testBookmarksVersionsAllHashDifferently() throws {
        var seen: Set<[UInt8]> = []
        for version in 1...6 {
            let model = try #require(FixtureModels.bookmarks(version))
            seen.insert(try #require(model.versionHash(ofEntity: "BookmarkEntity")))
        }
        #expect(seen.count == 6)
    }

    /// Adding Publisher and `Book.publisher` changes Book's hash, while
    /// Author's only names its relationship's destination and inverse.
    @Test func testAnEntityHashCoversOnlyItsOwnDescription() {
        let v1 = FixtureModels.bnrV1().versionHashes
        let v2 = FixtureModels.bnrV2().versionHashes
        #expect(v2["Author"] == v1["Author"])
        #expect(v2["Book"] != v1["Book"])
        #expect(v2["Publisher"]?.count == 32)
    }

    // MARK: - What enters the hash

    @Test func testUnhashedPropertiesLeaveTheHashUnchanged() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        let original = model.versionHashes
        var changed = model
        var entity = changed.entities[0]
        entity.renamedFrom = "Bookmark"
        entity.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            attribute.defaultValue = attribute.type == .string ? .literal(.string("x")) : nil
            attribute.isIndexed = true
            attribute.renamedFrom = "old" + attribute.name
            attribute.minLength = 1
            attribute.maxLength = 10
            attribute.pattern = ".*"
            attribute.minValue = 0
            attribute.maxValue = 1
            attribute.importKeys = ["key"]
            return attribute
        }
        entity.relationships = entity.relationships.map { relationship in
            var relationship = relationship
            relationship.deleteRule = .deny
            relationship.renamedFrom = "old" + relationship.name
            relationship.relatedBy = "uuid"
            return relationship
        }
        changed.entities = [entity]
        #expect(changed != model)
        #expect(changed.versionHashes == original)
        #expect(changed.versionChecksum == model.versionChecksum)
    }

    @Test func testIndexesUserInfoRequestsAndConfigurationsAreNotHashed() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        var changed = model
        var entity = changed.entities[0]
        entity.indexes = [
            FetchIndex(name: "byTitle", elements: [.init(property: "title", order: .descending)])
        ]
        entity.userInfo = ["relatedByAttribute": "uuid"]
        entity.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            attribute.userInfo = ["mappedKeyName": attribute.name.uppercased()]
            return attribute
        }
        entity.relationships = entity.relationships.map { relationship in
            var relationship = relationship
            relationship.userInfo = ["relatedByAttribute": "uuid"]
            return relationship
        }
        changed.entities = [entity]
        changed.fetchRequests = [
            FetchRequestTemplate(name: "all", entity: entity.name, options: ["fetchLimit": "1"])
        ]
        changed.configurations = [ModelConfiguration(name: "Cloud", entities: [entity.name])]
        #expect(changed != model)
        #expect(changed.versionHashes == model.versionHashes)
        #expect(changed.versionChecksum == model.versionChecksum)
        #expect(changed.versionHashesDigest == model.versionHashesDigest)
    }

    @Test func testTransientPropertiesAreNotHashed() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        var changed = model
        var scratch = FixtureModels.attribute("scratch", .string, optional: true)
        scratch.isTransient = true
        var link = FixtureModels.toOne("link", "BookmarkEntity", inverse: "link", optional: true)
        link.isTransient = true
        changed.entities[0].attributes.append(scratch)
        changed.entities[0].relationships.append(link)
        #expect(changed.versionHashes == model.versionHashes)
    }

    @Test func testVersionHashModifiersChangeTheHash() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        let original = model.versionHash(ofEntity: "BookmarkEntity")
        var onEntity = model
        onEntity.entities[0].versionHashModifier = "6"
        #expect(onEntity.versionHash(ofEntity: "BookmarkEntity") != original)
        var onAttribute = model
        onAttribute.entities[0].attributes[0].versionHashModifier = "6"
        #expect(onAttribute.versionHash(ofEntity: "BookmarkEntity") != original)
        var onRelationship = model
        onRelationship.entities[0].relationships[0].versionHashModifier = "6"
        #expect(onRelationship.versionHash(ofEntity: "BookmarkEntity") != original)
    }

    @Test func testUniquenessConstraintsAreHashedSortedAndWithoutEmptyOnes() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        let original = model.versionHash(ofEntity: "BookmarkEntity")
        var empty = model
        empty.entities[0].uniquenessConstraints = [[]]
        #expect(empty.versionHash(ofEntity: "BookmarkEntity") == original)
        var forward = model
        forward.entities[0].uniquenessConstraints = [["uuid"], ["title", "url"]]
        var backward = model
        backward.entities[0].uniquenessConstraints = [["title", "url"], ["uuid"]]
        let hash = forward.versionHash(ofEntity: "BookmarkEntity")
        #expect(hash != original)
        #expect(backward.versionHash(ofEntity: "BookmarkEntity") == hash)
    }

    @Test func testStorageFlagsAndOrderingChangeTheHash() throws {
        let model = try #require(FixtureModels.bookmarks(5))
        let original = model.versionHash(ofEntity: "BookmarkEntity")
        var external = model
        external.entities[0].attributes[0].allowsExternalStorage = true
        var preserved = model
        preserved.entities[0].attributes[0].preservesValueOnDeletion = true
        var unordered = model
        unordered.entities[0].relationships[0].isOrdered = false
        let hashes = [external, preserved, unordered].map {
            $0.versionHash(ofEntity: "BookmarkEntity")
        }
        #expect(Set(hashes + [original]).count == 3)
        // Each flag appends one 0x01 byte (§1.11, [D]), so one set flag hashes
        // the same whichever it is; both set differ from either.
        #expect(hashes[0] == hashes[1])
        var both = model
        both.entities[0].attributes[0].allowsExternalStorage = true
        both.entities[0].attributes[0].preservesValueOnDeletion = true
        #expect(both.versionHash(ofEntity: "BookmarkEntity") != hashes[0])
    }

    // MARK: - Inheritance and lookup

    @Test func testSubentityHashFollowsItsParent() {
        let base = Model(
            name: "M", version: 1,
            entities: [
                Entity(name: "Region", attributes: [FixtureModels.attribute("name", .string)]),
                Entity(name: "Country", parent: "Region"),
            ])
        let country = base.versionHash(ofEntity: "Country")
        var changedParent = base
        changedParent.entities[1].attributes[0].isOptional = true
        #expect(changedParent.entities[1].name == "Region")
        #expect(changedParent.versionHash(ofEntity: "Country") != country)
        var abstractParent = base
        abstractParent.entities[1].isAbstract = true
        #expect(abstractParent.versionHash(ofEntity: "Country") != country)
        #expect(country != base.versionHash(ofEntity: "Region"))
    }

    @Test func testUnknownEntityHasNoHash() {
        #expect(FixtureModels.bnrV1().versionHash(ofEntity: "Publisher") == nil)
    }

    @Test func testParentCycleStillHashes() {
        let model = Model(
            name: "M", version: 1,
            entities: [Entity(name: "A", parent: "B"), Entity(name: "B", parent: "A")])
        #expect(model.versionHashes.count == 2)
    }
}

/// Base64 of `bytes`, or `nil` when there are none.
private func base64(_ bytes: [UInt8]?) -> String? {
    bytes.map { Data($0).base64EncodedString() }
}
