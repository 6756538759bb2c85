import Foundation
import Testing

@testable import Strata
@testable import StrataStore

/// Two `strata migrate` processes on one store (issue 15, point 2): the
/// second starts at a moment of the first's run drawn from a seeded
/// generator — counted in the first's progress lines, not in time — and
/// every time exactly one migrates while the other waits (then finds the
/// store up to date) or refuses; the store ends at the newest version,
/// whole, with exactly the content of an undisturbed run.
struct MigrationConcurrencyTests {
    private let rounds = 20
    private let notes = 5_000

    @Test func testTwoMigrationsOfOneStoreNeverBreakIt() throws {
        let directory = try TemporaryDirectory()
        let reference = try MigrationCrashTests.Reference(in: directory, notes: notes)
        let (setup, chain, pristine) = (reference.setup, reference.chain, reference.pristine)
        let (lines, expected) = (reference.lines, reference.expected)

        var generator = SplitMix(seed: 0xC0C0)
        for round in 0..<rounds {
            let store = directory.file("round.sqlite")
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: store.path + suffix)
            }
            try FileManager.default.copyItem(at: pristine, to: store)
            let offset = Int(generator.next() % UInt64(lines + 1))

            let first = try Self.start(store, schemas: setup.folder)
            let reader = first.error.fileHandleForReading
            var seen = 0
            var firstError = Data()
            while seen < offset {
                let chunk = reader.availableData
                if chunk.isEmpty { break }  // The first run ended early.
                firstError += chunk
                seen += chunk.filter { $0 == UInt8(ascii: "\n") }.count
            }
            let second = try Self.start(store, schemas: setup.folder)
            let outcomes = [
                try Self.finish(first, errorSoFar: firstError),
                try Self.finish(second, errorSoFar: Data()),
            ]

            let migrated = outcomes.filter { $0.status == 0 && $0.output.contains("Migrated") }
            let stood = outcomes.filter {
                ($0.status == 0 && $0.output.hasPrefix("Up to date"))
                    || ($0.status == 1 && $0.error.contains("another process"))
            }
            #expect(
                migrated.count == 1 && stood.count == 1,
                "round \(round), offset \(offset): \(outcomes)")
            let opened = try Store.open(at: store, mode: .readOnly)
            #expect(try opened.connection.integrityCheck() == ["ok"], "round \(round)")
            #expect(try opened.matchingVersion(in: chain).version == 3, "round \(round)")
            try opened.close()
            #expect(try MigrationCrashTests.content(of: store) == expected, "round \(round)")
        }
    }

    /// A running `strata migrate --progress` and its stderr pipe.
    private struct Run {
        var process: Process
        var output: URL
        var error: Pipe
    }

    private struct Outcome: CustomStringConvertible {
        var status: Int32
        var output: String
        var error: String
        var description: String { "[\(status)] \(output) | \(error)" }
    }

    private static func start(_ store: URL, schemas: URL) throws -> Run {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "strata")
        process.arguments = [
            "migrate", store.path, "--schemas", schemas.path, "--accept-lossy", "--progress",
        ]
        // stdout to a file (short), stderr through a pipe read to the end.
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        let error = Pipe()
        process.standardError = error
        try process.run()
        return Run(process: process, output: output, error: error)
    }

    private static func finish(_ run: Run, errorSoFar: Data) throws -> Outcome {
        var error = errorSoFar
        while true {
            let chunk = run.error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            error += chunk
        }
        run.process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: run.output) }
        return Outcome(
            status: run.process.terminationStatus,
            output: String(decoding: try Data(contentsOf: run.output), as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }
}
