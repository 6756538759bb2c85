import Foundation
import Testing

/// Issue 28, point 6: `migrate --progress` says where it is, stage by
/// stage, on stderr outside a terminal; without the flag it says nothing.
struct MigrateProgressCommandTests {
    private let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder()
    }

    private func diaryStore(_ name: String) throws -> String {
        let store = folder.path(name)
        let created = try StrataRunner.run([
            "create", store, "--schemas", "Schemas/Diary/1.json",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        return store
    }

    @Test func testMigrateProgressPrintsEachStageOnStandardError() throws {
        let store = try diaryStore("d.sqlite")
        let migrated = try StrataRunner.run([
            "migrate", store, "--schemas", "Schemas/Diary", "--progress",
        ])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let lines = migrated.stderr.split(separator: "\n").map(String.init)
        for stage in ["[1/3] 1-2: ", "[2/3] 2-3: ", "[3/3] 3-4: "] {
            #expect(lines.contains { $0.hasPrefix(stage) }, "\(migrated.stderr)")
        }
        #expect(lines.last == "[3/3] 3-4: done", "\(migrated.stderr)")
        #expect(!migrated.stdout.contains("[1/3]"))

        let quiet = try StrataRunner.run([
            "migrate", try diaryStore("e.sqlite"), "--schemas", "Schemas/Diary",
        ])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }
}
