import Foundation
import Testing

/// Issue 28, point 4: relationships both ways by key path. What export
/// writes of a relationship — an id (`Species/p1`) or a related value
/// (`species.name`) — imports back as the same links.
struct ImportLinksCommandTests {
    private let folder: ScratchFolder
    private let schemas: String
    private let store: String

    init() throws {
        folder = try ScratchFolder()
        schemas = try folder.schemaFolder(
            "Penguins",
            version1: """
                { "format": "strata-schema/1", "model": "Penguins", "version": 1,
                  "entities": {
                    "Penguin": {
                      "attributes": { "name": { "type": "string" },
                                      "bill": { "type": "double", "optional": true } },
                      "relationships": {
                        "species": { "destination": "Species", "inverse": "penguins",
                                     "optional": true } } },
                    "Species": {
                      "attributes": { "name": { "type": "string" },
                                      "genus": { "type": "string", "optional": true } },
                      "uniquenessConstraints": [["name"]],
                      "relationships": {
                        "penguins": { "destination": "Penguin", "inverse": "species",
                                      "toMany": true, "optional": true } } } } }
                """)
        let csv = "name,bill,species\np1,39.1,Adelie\np2,46.5,Gentoo\np3,38.8,Adelie\n"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder.path("penguins.csv")))
        store = folder.path("P.sqlite")
        let imported = try StrataRunner.run([
            "import", store, folder.path("penguins.csv"), "--schemas", schemas, "--entity",
            "Penguin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    private func links(_ store: String) throws -> [String] {
        let query = try StrataRunner.run([
            "query", store, "Penguin", "--format", "csv", "--fields", "name,species.name",
            "--sort", "name",
        ])
        #expect(query.status == 0, "\(query.stderr)")
        // Each row without its id column (ids differ between stores).
        return query.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
            String($0.drop { $0 != "," }.dropFirst())
        }
    }

    private func count(_ store: String, _ entity: String) throws -> String {
        try StrataRunner.run(["query", store, entity, "--count"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func testAKeyPathColumnLinksByThatAttribute() throws {
        let output = folder.path("out.csv")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--fields", "name,species.name",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let fresh = folder.path("Fresh.sqlite")
        let imported = try StrataRunner.run([
            "import", fresh, output, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try links(fresh) == (try links(store)))
        #expect(try count(fresh, "Species") == "2")
    }

    @Test func testExportedIDsLinkToTheStoresObjects() throws {
        let output = folder.path("ids.csv")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--ids", "--fields",
            "name,species",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            try String(contentsOfFile: output, encoding: .utf8).contains(
                "Penguin/p1,p1,Species/p1"))
        // Back into the store they came from: links to its species, none made.
        let again = try StrataRunner.run([
            "import", store, output, "--entity", "Penguin", "--unique", "name",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 inserted, 3 updated"), "\(again.stdout)")
        #expect(try count(store, "Species") == "2")
        #expect(try links(store) == ["p1,Adelie", "p2,Gentoo", "p3,Adelie"])
    }

    @Test func testAnIDNeitherInTheInputNorTheStoreIsAnError() throws {
        let output = folder.path("ids.csv")
        _ = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--fields", "name,species",
        ])
        let fresh = folder.path("Fresh.sqlite")
        let refused = try StrataRunner.run([
            "import", fresh, output, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "species names Species/p1, which is neither a record of this input (by its _id) "
                    + "nor an object of the store"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test func testIDsResolveWithinTheInput() throws {
        let input = folder.path("both.json")
        try Data(
            """
            {"Species": [{"_id": "Species/p7", "name": "Adelie"}, {"_id": "Species/p9", "name": "Gentoo"}],
             "Penguin": [{"_id": "Penguin/p1", "name": "p1", "species": "Species/p9"},
                         {"name": "p2", "species": "Species/p7"}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: input))
        let fresh = folder.path("Fresh.sqlite")
        let imported = try StrataRunner.run(["import", fresh, input, "--schemas", schemas])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try links(fresh) == ["p1,Gentoo", "p2,Adelie"])
        #expect(try count(fresh, "Species") == "2")
    }

    @Test func testAFreshImportOfANestedExportCountsEachObjectOnceAsInserted() throws {
        let output = folder.path("nested.json")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--nest", "species",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let fresh = folder.path("Fresh.sqlite")
        let imported = try StrataRunner.run([
            "import", fresh, output, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains("5 inserted (3 Penguin, 2 Species), 0 updated"),
            "\(imported.stdout)")
        #expect(try links(fresh) == (try links(store)))
    }
}
