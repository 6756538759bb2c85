import Foundation
import Testing

/// `strata demo` finds the bundled samples from any folder, and a folder
/// named on the command line that is not there is said so, not met with
/// Foundation's error.
struct DemoFoldersCommandTests {
    @Test func testTheDemoRunsFromAFolderOutsideThePackage() throws {
        let folder = try ScratchFolder()
        let outcome = try ProgramRunner.run(
            try StrataRunner.executable(), ["demo", "out"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("== Report: what each step left behind"))
        #expect(FileManager.default.fileExists(atPath: folder.path("out/Diary-restored.sqlite")))
    }

    @Test func testAMissingSchemasFolderIsNamed() throws {
        let folder = try ScratchFolder()
        let missing = folder.path("nowhere")
        let outcome = try StrataRunner.run(["demo", folder.path("out"), "--schemas", missing])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "error: \(missing) (--schemas): expected a folder, and there is none\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }
}
