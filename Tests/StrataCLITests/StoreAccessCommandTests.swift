import Foundation
import Testing

/// Issue 15: a directory, a read-only store and a read-only folder got
/// SQLite's raw messages ("disk I/O error", error 8, "unreadable"), and a
/// refused read-write open left empty -wal and -shm files behind.
///
/// The permission cases run `strata` as `nobody` when the tests run as root,
/// since root may write any file whatever its mode.
struct StoreAccessCommandTests {
    @Test func testADirectoryIsNotAStoreFile() throws {
        let folder = try ScratchFolder()
        for command in ["info", "query"] {
            let extra = command == "query" ? ["DiaryEntry", "--schemas", "Schemas/Diary"] : []
            let outcome = try StrataRunner.run([command, folder.path("")] + extra)
            #expect(outcome.status == 1)
            #expect(outcome.stderr == "error: \(folder.path("")): a directory, not a store file\n")
        }
    }

    /// A Diary version 1 store in `folder`, for `migrate` to want to write.
    private func oldStore(in folder: ScratchFolder) throws -> String {
        let store = folder.path("Diary.sqlite")
        let created = try StrataRunner.run(
            ["create", store, "--schemas", "Schemas/Diary", "--version", "1"])
        try #require(created.status == 0, "\(created.stderr)")
        return store
    }

    @Test(StrataRunner.unprivilegedCondition)
    func testReadOnlyStoreSaysSoAndLeavesNoFilesBehind() throws {
        let folder = try ScratchFolder()
        let store = try oldStore(in: folder)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o777], ofItemAtPath: folder.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        let outcome = try StrataRunner.runUnprivileged(
            ["migrate", store, "--schemas", "Schemas/Diary"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: \(store): read-only: "), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("SQLite error"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["Diary.sqlite"]
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test(StrataRunner.unprivilegedCondition)
    func testReadOnlyFolderSaysTheFolderCannotBeWritten() throws {
        let folder = try ScratchFolder()
        let store = try oldStore(in: folder)
        // The file itself is the user's and writable; the folder is not. As root, strata runs
        // as nobody, so the file becomes nobody's; any other user owns it already.
        var fileAttributes: [FileAttributeKey: Any] = [.posixPermissions: 0o644]
        if getuid() == 0 { fileAttributes[.ownerAccountID] = 65534 }
        try FileManager.default.setAttributes(fileAttributes, ofItemAtPath: store)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o555], ofItemAtPath: folder.url.path)

        let outcome = try StrataRunner.runUnprivileged(
            ["migrate", store, "--schemas", "Schemas/Diary"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.hasPrefix(
                "error: \(store): its folder \(folder.url.path) is read-only: SQLite cannot create "
                    + "the store's -wal, -shm or -journal files beside it"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("unreadable"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["Diary.sqlite"]
        )

        // Reading needs no writing: info still works there.
        let info = try StrataRunner.runUnprivileged(["info", store])
        #expect(info.status == 0, "\(info.stderr)")
    }

    @Test(StrataRunner.unprivilegedCondition)
    func testCreateInAReadOnlyFolderOrAMissingOneSaysWhich() throws {
        let folder = try ScratchFolder()
        // Read-only to the user strata runs as: this user, or nobody when the tests run as root.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o555], ofItemAtPath: folder.url.path)
        let refused = try StrataRunner.runUnprivileged(
            ["create", folder.path("n.sqlite"), "--schemas", "Schemas/Notes"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: \(folder.path("n.sqlite")): cannot create the store: its folder "
                + "\(folder.url.path) is read-only (Permission denied)\n")

        let missing = try StrataRunner.run(
            ["create", folder.path("none/n.sqlite"), "--schemas", "Schemas/Notes"])
        #expect(
            missing.stderr
                == "error: \(folder.path("none/n.sqlite")): cannot create the store: its folder "
                + "\(folder.path("none")) does not exist\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
    }

    @Test func testEmptyAndDamagedStoresNameThePathAndTheActivity() throws {
        let folder = try ScratchFolder()
        let empty = folder.path("empty.sqlite")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let outcome = try StrataRunner.run(["info", empty])
        #expect(outcome.stderr == "error: \(empty): an empty file, not a Core Data store\n")

        // A page of the Tag table overwritten: counting its rows fails.
        let store = folder.path("Diary.sqlite")
        try #require(
            try StrataRunner.run(["create", store, "--schemas", "Schemas/Diary"]).status == 0)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(size) - 4096))
        try handle.close()
        let damaged = try StrataRunner.run(["info", store])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.hasPrefix("error: \(store): "), "\(damaged.stderr)")
        #expect(!damaged.stderr.hasPrefix("error: SQLite error"))
    }
}
