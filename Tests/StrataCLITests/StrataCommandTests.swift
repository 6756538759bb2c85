import Foundation
import Testing

/// `strata` with no command, `--help`, and bad usage.
struct StrataCommandTests {
    @Test func testHelpListsEveryCommandAndExitsZero() throws {
        let outcome = try StrataRunner.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(
            outcome.stdout.hasPrefix(
                "OVERVIEW: Move Core Data–style app data between formats and model versions.\n"))
        for command in ["schema", "create", "info", "demo"] {
            #expect(outcome.stdout.contains("\n  \(command) "))
        }
    }

    @Test func testUnknownCommandIsBadUsage() throws {
        let outcome = try StrataRunner.run(["frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.hasPrefix("error: unknown command 'frobnicate'\n\nOVERVIEW:"))
    }

    @Test func testUnknownOptionIsBadUsage() throws {
        let outcome = try StrataRunner.run(["info", "x.sqlite", "--colour"])
        #expect(outcome.status == 64)
        #expect(
            outcome.stderr.hasPrefix(
                "error: unknown option '--colour'\n\nUSAGE: strata info <store>"))
    }

    @Test func testSubcommandHelp() throws {
        let outcome = try StrataRunner.run(["schema", "hash", "--help"])
        #expect(outcome.status == 0)
        #expect(
            outcome.stdout.hasPrefix("USAGE: strata schema hash <path> [--version <n>] [--json]\n"))
        let group = try StrataRunner.run(["schema"])
        #expect(group.status == 0)
        #expect(group.stdout.contains("\n  check                Validate a schema folder"))
        #expect(group.stdout.contains("\n  from-xcdatamodel     Convert an Xcode model's versions"))
        #expect(group.stdout.contains("\n  from-xcmappingmodel  Convert a Core Data mapping model"))
    }
}
