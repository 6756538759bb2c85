import Foundation
import Testing

/// `strata migrate` on a store whose abstract parent goes (objc.io Moody,
/// 3→4): the dry run finds nothing to acknowledge, and the summary shows
/// the parent's objects as moved to its former subentities, not lost.
struct MigrateAbstractParentCommandTests {
    @Test func testSummaryShowsTheRemovedParentsObjectsAsMoved() throws {
        let scratch = try ScratchFolder()
        let schemas = scratch.path("Moody")
        try FileManager.default.createDirectory(atPath: schemas, withIntermediateDirectories: true)
        let code = #""numericISO3166Code": {"type": "integer16"}"#
        let entities = [
            """
            "GeographicRegion": {"abstract": true, "attributes": {\(code)}},
            "Continent": {"parent": "GeographicRegion"},
            "Country": {"parent": "GeographicRegion"}
            """,
            """
            "Continent": {"attributes": {\(code)}}, "Country": {"attributes": {\(code)}}
            """,
        ]
        for (index, members) in entities.enumerated() {
            let json = """
                { "format": "strata-schema/1", "model": "Moody", "version": \(index + 1),
                  "entities": { \(members) } }
                """
            try Data(json.utf8).write(to: URL(fileURLWithPath: "\(schemas)/\(index + 1).json"))
        }
        let store = scratch.path("Moody.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "\(schemas)/1.json"])
        #expect(created.status == 0, "\(created.stderr)")
        // Continent is entity 2 and Country 3, in the parent's table.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [
            store,
            "INSERT INTO ZGEOGRAPHICREGION (Z_PK, Z_ENT, Z_OPT, ZNUMERICISO3166CODE) "
                + "VALUES (1, 2, 1, 150), (2, 3, 1, 250), (3, 3, 1, 276); "
                + "UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'GeographicRegion';",
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let dryRun = try StrataRunner.run(["migrate", store, "--schemas", schemas, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stdout)")
        #expect(!dryRun.stdout.contains("lossy"))
        #expect(dryRun.stdout.contains("nothing in the data stops the migration"))

        let run = try StrataRunner.run(["migrate", store, "--schemas", schemas])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let parent = try #require(lines.first { $0.hasPrefix("  GeographicRegion") })
        #expect(
            parent.split(separator: " ", omittingEmptySubsequences: true).map(String.init) == [
                "GeographicRegion", "3", "-", "(moved", "to", "Continent,", "Country)",
            ])
        #expect(lines.contains { $0.hasPrefix("  Continent") && $0.hasSuffix(" 1") })
        #expect(lines.contains { $0.hasPrefix("  Country") && $0.hasSuffix(" 2") })
    }
}
