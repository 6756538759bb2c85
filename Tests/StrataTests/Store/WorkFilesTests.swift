import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataStore

#if canImport(Glibc)
    import Glibc
#endif

/// Work files beside a target (issue 27, point 10): private, named after
/// the target and this process, and removed by a later run only when their
/// process is gone.
struct WorkFilesTests {
    /// The id of a process that has ended (and been reaped).
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func testAWorkFolderIsPrivateAndBesideTheTarget() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("s.sqlite")
        let work = try WorkFiles.makeFolder(for: target, activity: "unarchiving")
        defer { WorkFiles.remove(work) }
        #expect(work.lastPathComponent == ".s.sqlite.strata-unarchiving-\(getpid())")
        #expect(work.deletingLastPathComponent().path == directory.url.path)
        var info = stat()
        #expect(stat(work.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        // Work for a store still being built is named after the store.
        let building = WorkFiles.url(
            for: directory.file(".s.sqlite.strata-creating"), activity: "dayone")
        #expect(building.lastPathComponent == ".s.sqlite.strata-dayone-\(getpid())")
    }

    /// Reading a store whose rows live in its -wal works on a private copy
    /// (a snapshot): it is made beside the store, as every work file is, not
    /// in the shared temporary folder, and two reads at once get two.
    @Test func testAReadOnlySnapshotIsPrivateAndBesideTheStore() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore("ddg-bookmarks/Bookmarks_V2.sqlite")
        let hidden = { () -> [String] in
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
                .filter { $0.hasPrefix(".Bookmarks_V2.sqlite.strata-reading") }.sorted()
        }
        let first = try Store.open(at: url, mode: .readOnly)
        let second = try Store.open(at: url, mode: .readOnly)
        let snapshots = try hidden()
        #expect(snapshots.count == 2, "\(snapshots)")
        for name in snapshots {
            var info = stat()
            #expect(stat(folder.file(name).path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700)
        }
        #expect(try first.connection.scalar("SELECT COUNT(*) FROM ZBOOKMARKENTITY") == .integer(10))
        try first.close()
        #expect(
            try second.connection.scalar("SELECT COUNT(*) FROM ZBOOKMARKENTITY") == .integer(10))
        try second.close()
        #expect(try hidden().isEmpty)
    }

    @Test func testLeftoversOfDeadProcessesGoAndOthersStay() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("s.sqlite")
        let dead = try Self.deadProcessID()
        let gone = [
            ".s.sqlite.strata-unarchiving-\(dead)", ".s.sqlite.strata-writing-\(dead)",
            ".s.sqlite.strata-dayone-\(dead)", ".s.sqlite.strata-creating", "s.sqlite.strata-lock",
        ]
        let kept = [
            ".s.sqlite.strata-unarchiving-\(getpid() == 1 ? 2 : 1)",  // pid 1 always runs.
            ".s.sqlite.strata-stage-1-2", "s.sqlite.strata-backup-v1",
            ".t.sqlite.strata-writing-\(dead)",
            "s.sqlite",
        ]
        for name in gone + kept {
            try Data("x".utf8).write(to: directory.file(name))
        }
        try FileManager.default.createDirectory(
            at: directory.file(".s.sqlite.strata-archiving-\(dead)"),
            withIntermediateDirectories: false)
        let removed = WorkFiles.removeLeftovers(of: target)
        #expect(Set(removed) == Set(gone + [".s.sqlite.strata-archiving-\(dead)"]))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(Set(left) == Set(kept))
    }

    @Test func testAHeldLockAndARunningCreateAreKept() throws {
        let directory = try TemporaryDirectory()
        let target = directory.file("s.sqlite")
        let lock = try StoreLock(for: target, mode: .shared, waitingUpTo: 0)
        defer { lock.release() }
        let creating = try FileSystem.CreationLock(
            Store.temporaryPath(for: target), storePath: target.path)
        defer { creating.release() }
        #expect(WorkFiles.removeLeftovers(of: target) == [])
        #expect(FileManager.default.fileExists(atPath: lock.path))
        #expect(FileManager.default.fileExists(atPath: Store.temporaryPath(for: target)))
    }
}
