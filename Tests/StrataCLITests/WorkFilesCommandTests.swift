import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Work files killed runs left (issue 27, point 10): the next run of any
/// command on the target removes them; an archive or export replaced with
/// `--force` keeps the target's permissions.
struct WorkFilesCommandTests {
    private let folder: ScratchFolder
    private let store: String

    init() throws {
        folder = try ScratchFolder()
        store = folder.path("s.sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/Contacts"])
        try #require(created.status == 0, "\(created.stderr)")
    }

    /// The id of a process that has ended.
    private func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func testAnyCommandOnTheStoreRemovesDeadRunsWorkFiles() throws {
        let dead = try deadProcessID()
        for command in [["info", store], ["query", store, "Contact", "--count"]] {
            let scratch = folder.path(".s.sqlite.strata-unarchiving-\(dead)")
            try FileManager.default.createDirectory(
                atPath: scratch, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: URL(fileURLWithPath: scratch + "/s.sqlite"))
            try Data("x".utf8).write(
                to: URL(fileURLWithPath: folder.path(".s.sqlite.strata-dayone-\(dead)")))
            let outcome = try StrataRunner.run(command)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            #expect(left == ["s.sqlite"], "\(command): \(left)")
        }
    }

    @Test func testArchiveAndExportReplacingAPrivateFileKeepItPrivate() throws {
        for (arguments, output) in [
            (["archive", store, "-o", folder.path("a.zip"), "--force"], folder.path("a.zip")),
            (
                ["export", store, "--entity", "Contact", "-o", folder.path("c.csv"), "--force"],
                folder.path("c.csv")
            ),
        ] {
            try Data("old".utf8).write(to: URL(fileURLWithPath: output))
            chmod(output, 0o600)
            let dead = try deadProcessID()
            let name = (output as NSString).lastPathComponent
            try Data("x".utf8).write(
                to: URL(fileURLWithPath: folder.path(".\(name).strata-writing-\(dead)")))
            let outcome = try StrataRunner.run(arguments)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            var info = stat()
            #expect(stat(output, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "\(name)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            #expect(!left.contains { $0.contains(".strata-") }, "\(left)")
        }
    }
}
