import Foundation
import Testing

/// Store paths given as symbolic links (issue 27, point 2): every command
/// works on the real file, locks, backs up, copies and journals by its
/// path, and never creates a file through a link Strata did not make.
struct StorePathCommandTests {
    private let folder: ScratchFolder
    private let real: String
    private let link: String

    /// A Contacts store at version 1 (`real.sqlite`) and a relative link
    /// to it (`link.sqlite`).
    init() throws {
        folder = try ScratchFolder()
        real = folder.path("real.sqlite")
        link = folder.path("link.sqlite")
        let created = try StrataRunner.run([
            "create", real, "--schemas", "Schemas/Contacts/1.json",
        ])
        try #require(created.status == 0, "\(created.stderr)")
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: "real.sqlite")
    }

    private func kind(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    private func version(_ store: String) throws -> String {
        let info = try StrataRunner.run(["info", store, "--json"])
        try #require(info.status == 0, "\(info.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8))
        return "\((object as? [String: Any])?["version"] ?? "none")"
    }

    @Test func testMigrateThroughALinkBacksUpTheRealFileInOneRun() throws {
        let outcome = try StrataRunner.run(["migrate", link, "--schemas", "Schemas/Contacts"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("another connection"), "\(outcome.stderr)")
        #expect(kind(link) == .typeSymbolicLink)
        #expect(kind(real) == .typeRegular)
        #expect(try version(real) == "2")
        // The backup and stage copies were made of the real file and
        // removed; nothing was made beside the link.
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(beside.sorted() == ["link.sqlite", "real.sqlite"], "\(beside)")
    }

    @Test func testDryRunThroughAnAbsoluteLinkChangesNothing() throws {
        let absolute = folder.path("absolute.sqlite")
        try FileManager.default.createSymbolicLink(atPath: absolute, withDestinationPath: real)
        let before = bytes(real)
        let outcome = try StrataRunner.run([
            "migrate", absolute, "--schemas", "Schemas/Contacts", "--dry-run",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(bytes(real) == before)
        #expect(try version(real) == "1")
    }

    @Test func testSeedFromALinkedSeedCopiesItAndLeavesTheSeed() throws {
        let before = bytes(real)
        let store = folder.path("app.sqlite")
        let outcome = try StrataRunner.run([
            "seed", store, "--from", link, "--schemas", "Schemas/Contacts",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(bytes(real) == before)
        #expect(kind(store) == .typeRegular)
        #expect(try version(store) == "2")
        #expect(try version(real) == "1")
    }

    @Test func testALinkAndItsTargetShareOneLock() throws {
        // A lock file beside the real store is what a running migrate holds:
        // a planted link there is refused, not followed.
        let victim = folder.path("victim")
        try FileManager.default.createSymbolicLink(
            atPath: real + ".strata-lock", withDestinationPath: victim)
        let outcome = try StrataRunner.run(["migrate", link, "--schemas", "Schemas/Contacts"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("is a symbolic link Strata did not make"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: victim))
        #expect(try version(real) == "1")
    }

    @Test func testNoStoreIsCreatedThroughALinkToNothing() throws {
        let dangling = folder.path("dangling.sqlite")
        let target = folder.path("elsewhere.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: target)
        let input = folder.path("in.csv")
        try Data("first,last\r\nAnna,Rossi\r\n".utf8).write(to: URL(fileURLWithPath: input))
        for arguments in [
            ["create", dangling, "--schemas", "Schemas/Contacts"],
            ["import", dangling, input, "--schemas", "Schemas/Contacts"],
        ] {
            let outcome = try StrataRunner.run(arguments)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(
                outcome.stderr.contains("Strata does not create a store through a link"),
                "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
    }

    @Test func testImportThroughALinkWritesTheRealStore() throws {
        let input = folder.path("in.csv")
        try Data("firstName,lastName\r\nAnna,Rossi\r\n".utf8)
            .write(to: URL(fileURLWithPath: input))
        let outcome = try StrataRunner.run(["import", link, input])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(kind(link) == .typeSymbolicLink)
        #expect(try StrataRunner.run(["query", real, "Contact", "--count"]).stdout == "1\n")
    }
}
