import Foundation
import Testing

/// Every shell command the README shows (and the Diagrams article's) is run,
/// as a newcomer would run it: in a fresh folder holding copies of
/// `Schemas/` and `Samples/`, with the built `strata` on PATH. Each must
/// exit 0. See ``DocumentCommand`` for how a block or command is kept from
/// running; `make` commands are checked to name Makefile targets, not run.
@Suite(.serialized) struct ReadmeCommandTests {
    /// Files the README's commands use that a user would bring: written by
    /// the test into the folder before the commands run.
    static let preparedInputs: [String: String] = [
        // `strata import Contacts.sqlite contacts.csv --on-error skip
        // --rejects rejects.csv`: one good row and one whose lastName is
        // missing, so there is something to reject.
        "contacts.csv": """
        firstName,lastName,email,score
        Ada,Lovelace,ada@example.org,99.5
        Nobody,,nobody@example.org,1

        """
    ]

    static let documents = ["README.md", "Sources/Strata/Strata.docc/Diagrams.md"]

    static func commands(_ document: String) throws -> [DocumentCommand] {
        let text = try String(
            contentsOf: StrataRunner.packageRoot.appendingPathComponent(document), encoding: .utf8)
        return DocumentCommand.extract(from: text)
    }

    @Test(arguments: documents)
    func testEveryShellCommandRuns(document: String) throws {
        let commands = try Self.commands(document)
        #expect(commands.contains { $0.program == "strata" && !$0.isSkipped }, "no commands found")
        let folder = try ScratchFolder()
        for name in ["Schemas", "Samples"] {
            try FileManager.default.copyItem(
                at: StrataRunner.packageRoot.appendingPathComponent(name),
                to: folder.url.appendingPathComponent(name))
        }
        for (name, contents) in Self.preparedInputs {
            try Data(contents.utf8).write(to: folder.url.appendingPathComponent(name))
        }
        let binaries = try StrataRunner.executable().deletingLastPathComponent().path
        let path = binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let makefile = try String(
            contentsOf: StrataRunner.packageRoot.appendingPathComponent("Makefile"), encoding: .utf8
        )
        let targets = DocumentCommand.makefileTargets(makefile)
        for command in commands where !command.isSkipped {
            if command.program == "make" {
                #expect(!command.makeTargets.isEmpty, "\(document) \(command)")
                for target in command.makeTargets {
                    #expect(
                        targets.contains(target), "\(document) \(command): no target '\(target)'")
                }
                continue
            }
            let outcome = try ProgramRunner.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", command.text], in: folder.url,
                environment: ["PATH": path])
            #expect(
                outcome.status == 0,
                "\(document) \(command) exited \(outcome.status):\n\(outcome.stdout)\(outcome.stderr)"
            )
        }
    }

    @Test func testExtractionFollowsTheMarkers() {
        let markdown = """
            ```sh
            strata one   # a comment
            # a comment line
            strata two \\
                --flag
            strata three # not run
            ```

            ```console
            strata four
            ```

            ```sh
            # not run
            strata five
            ```

            ```bash
            make demo test SECONDS=5
            ```
            """
        let commands = DocumentCommand.extract(from: markdown)
        #expect(commands.map(\.line) == [2, 4, 6, 15, 19])
        #expect(commands.map(\.isSkipped) == [false, false, true, true, false])
        #expect(commands[1].text == "strata two \\\n    --flag")
        #expect(commands[4].makeTargets == ["demo", "test"])
    }

    @Test func testMakefileTargetsAreFound() {
        let makefile =
            "SWIFT ?= swift\nX := a:b\n.PHONY: all\nall: build\ndocs test: deps\n\tcmd: x\n"
        #expect(DocumentCommand.makefileTargets(makefile) == ["all", "docs", "test"])
    }
}
