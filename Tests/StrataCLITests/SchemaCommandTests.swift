import Foundation
import Testing

/// `strata schema check` and `strata schema hash`.
struct SchemaCommandTests {
    static let models = ["Contacts", "Diary", "Notes", "Recipes"]
    /// The newest version of each bundled model.
    static let newest = ["Contacts": 2, "Diary": 4, "Notes": 1, "Recipes": 2]

    @Test(arguments: models)
    func testBundledSchemasPassCheck(model: String) throws {
        let outcome = try StrataRunner.run(["schema", "check", "Schemas/\(model)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let newest = Self.newest[model] ?? 1
        let range = newest == 1 ? "1" : "1–\(newest)"
        #expect(outcome.stdout.hasPrefix("\(model): \(newest) version(s) (\(range)), "))
        #expect(outcome.stdout.hasSuffix(" no problems\n"))
        #expect(outcome.stderr == "")
    }

    @Test func testTenMistakesGiveTenLocatedErrors() throws {
        let outcome = try StrataRunner.run(["schema", "check", "Samples/BrokenSchemas/Diary"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout == "")
        let located = outcome.stderr.split(separator: "\n").filter {
            $0.contains("Samples/BrokenSchemas/Diary/")
        }
        #expect(located.count == 10, "\(outcome.stderr)")
        #expect(located.allSatisfy { $0.contains(": $") })
    }

    /// Issue 15: a stored fetch request's predicate was not parsed by
    /// `schema check`; now it is, and checked against its entity, with the
    /// file's line and column of the predicate and the column in it.
    @Test func testFetchRequestPredicatesAreParsedAndChecked() throws {
        let folder = try ScratchFolder()
        let file = folder.path("1.json")
        let schema = """
            {"format": "strata-schema/1", "model": "Shop", "version": 1,
             "entities": {"Item": {"attributes": {"url": {"type": "uri"}, "title": {"type": "string"}}}},
             "fetchRequests": {
               "byURL": {"entity": "Item", "predicate": "url == $URL"},
               "broken": {"entity": "Item", "predicate": "title == "},
               "colour": {"entity": "Item", "predicate": "title == 'x' AND colour == 'red'"}}}
            """
        try Data(schema.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try StrataRunner.run(["schema", "check", file])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                error: 2 problems in the schema:
                \(file):5:33: $.fetchRequests.broken.predicate: predicate "title == " of fetch \
                request 'broken', column 10: expected a key path or value after '==', found the \
                end of the predicate
                \(file):6:33: $.fetchRequests.colour.predicate: predicate "title == 'x' AND \
                colour == 'red'" of fetch request 'colour', column 18: Item has no attribute or \
                relationship 'colour'

                """)
    }

    /// Issue 28, point 8: `schema check` passed an attribute named
    /// `description` that `schema swift` then renamed; now it warns, naming
    /// the entity, the attribute, the Swift name and why, and still exits 0.
    @Test("schema check warns about an attribute named description")
    func testSchemaCheckWarnsAboutAnAttributeNamedDescription() throws {
        let folder = try ScratchFolder()
        let file = folder.path("1.json")
        let schema = """
            {"format": "strata-schema/1", "model": "Shop", "version": 1,
             "entities": {"Item": {"attributes": {"description": {"type": "string"},
                                                  "title": {"type": "string"}}}}}
            """
        try Data(schema.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try StrataRunner.run(["schema", "check", file])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "Shop: 1 version(s) (1), 1 entity in the newest, no problems\n")
        #expect(
            outcome.stderr
                == "warning: \(file): $.entities.Item.attributes.description: attribute "
                + "'description' of Item: every generated class has a member description already "
                + "(from ManagedObject or TypedEntity), so `schema swift` names its property "
                + "descriptionProperty\n")
        let json = try StrataRunner.run(["schema", "check", file, "--json"])
        #expect(json.status == 0)
        #expect(json.stdout.contains("descriptionProperty"), "\(json.stdout)")
        // schema swift says the same.
        let swift = try StrataRunner.run(["schema", "swift", file, "-o", folder.path("Shop.swift")])
        #expect(swift.status == 0, "\(swift.stderr)")
        #expect(swift.stderr.hasPrefix(outcome.stderr), "\(swift.stderr)")
    }

    @Test func testNotJSONNamesFileLineAndColumn() throws {
        let folder = try ScratchFolder()
        let file = folder.path("1.json")
        try Data("{\n  \"format\": \"strata-schema/1\",\n  \"model\" \"Diary\"\n}\n".utf8).write(
            to: URL(fileURLWithPath: file))
        let outcome = try StrataRunner.run(["schema", "check", file])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(file):3:11:"), "\(outcome.stderr)")
    }

    /// Apple's Recipes sample: the `Image` entity's hash is the test vector of
    /// coredata-format.md §1.11.
    @Test func testHashPrintsCoreDataHashes() throws {
        let outcome = try StrataRunner.run(["schema", "hash", "Schemas/Recipes/1.json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("Recipes version 1\n"))
        #expect(
            outcome.stdout.contains("Image       njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8=\n"))
        #expect(outcome.stdout.contains("(checksum)  "))
        #expect(outcome.stdout.contains("(digest)    "))
    }

    /// Issue 13: version 1 is the model of Apple's Recipes seed store (its
    /// four recorded hashes), so such a store is identified, not "unknown".
    @Test func testInfoNamesRecipesVersionOneFromTheSeedStoreHashes() throws {
        let folder = try ScratchFolder()
        let store = folder.path("Recipes.sqlite")
        let create = try StrataRunner.run([
            "create", store, "--schemas", "Schemas/Recipes", "--version", "1",
        ])
        #expect(create.status == 0, "\(create.stderr)")
        let info = try StrataRunner.run(["info", store, "--schemas", "Schemas/Recipes"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Model      Recipes, version 1"), "\(info.stdout)")
        for hash in [
            "njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8=",
            "5tCLlA1r9p1UWdOTr3XJ+ZzBr6bxraWAs3Vt9zCAZek=",
            "PcSdeYYgO5cW+z5s8cHpAZzy3WHO/upsq6Ujxtwckog=",
            "EtqagX2A7+sQqDbBbEtFZT9iQz2Hsuv8um2Nz6k5YK4=",
        ] {
            #expect(info.stdout.contains(hash), "\(info.stdout)")
        }
    }

    @Test func testHashJSON() throws {
        let outcome = try StrataRunner.run(["schema", "hash", "Schemas/Recipes", "--json"])
        #expect(outcome.status == 0)
        let object =
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let entities = object?["entities"] as? [String: String]
        #expect(entities?["Image"] == "njbxNx1A/bZrU1DVRF9Kx6AYc/E6XKYaVqbNJLdYlC8=")
        #expect(object?["version"] as? Int == 2)
    }
}
