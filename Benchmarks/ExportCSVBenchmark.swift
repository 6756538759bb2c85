import Foundation
import Strata

/// Exporting the corpus's contacts to CSV: `strata export --entity Contact`
/// against the `sqlite3` shell's `.mode csv` output of the same table to a
/// file, both reading one store of N contacts (filled once, untimed, by
/// `strata import` of `contacts.csv`, and cached).
///
/// Both write a header and every row; Strata writes dates as ISO 8601 and
/// reals in their shortest round-trip form (what its importer reads back),
/// the shell its raw column values. After every run each output holds N
/// records (counted by their line ends outside quotes).
struct ExportCSVBenchmark: Benchmark {
    let name = "export-csv"
    let summary = "strata export contacts to CSV vs sqlite3 -csv of the table (issue 11)"
    let defaultRows = 1_000_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let corpus = environment.corpus
        let store = environment.cache.appendingPathComponent(
            "export-contacts-\(corpus.rows).sqlite")
        let strata = try StrataProgram.locate(besides: environment.executable)
        try Self.prepareStore(store, corpus: corpus, strata: strata, environment: environment)
        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        let strataOutput = environment.workspace.appendingPathComponent("strata.csv")
        let peerOutput = environment.workspace.appendingPathComponent("peer.csv")
        guard !peerOutput.path.contains("\"") else {
            throw BenchError(.setup, "the workspace path may not contain a double quote")
        }
        let columns = try ContactImport.attributes.map {
            try ImportStore(
                url: store,
                schemas: environment.packageRoot.appendingPathComponent("Schemas/Contacts")
            ).column($0, of: "Contact")
        }
        let rows = corpus.rows
        let strataSide = Contender(
            title: "strata export --entity Contact",
            prepareRun: {
                try? FileManager.default.removeItem(at: strataOutput)
                return ChildCommand(
                    executable: strata,
                    arguments: [
                        "export", store.path, "--entity", "Contact", "-o", strataOutput.path,
                        "--fields", ContactImport.attributes.joined(separator: ","),
                    ])
            },
            verify: { try Self.verify(strataOutput, records: rows) })
        let peer = Contender(
            title: "sqlite3 -csv -header SELECT",
            prepareRun: {
                try? FileManager.default.removeItem(at: peerOutput)
                return ChildCommand(
                    executable: sqlite3,
                    arguments: [
                        "-bail", "-csv", "-header", store.path,
                        ".output \"\(peerOutput.path)\"",
                        "SELECT \(columns.joined(separator: ", ")) FROM ZCONTACT",
                    ])
            },
            verify: { try Self.verify(peerOutput, records: rows) })
        return BenchPlan(
            strata: strataSide, peer: peer, compare: {},
            targets: [
                BenchTarget(figure: .time(against: 1), limit: 1.0),
                BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false),
            ])
    }

    /// Fills the store once with `strata import contacts.csv`, unless a
    /// complete one is cached.
    static func prepareStore(
        _ store: URL, corpus: Corpus, strata: String, environment: BenchEnvironment
    ) throws {
        guard !FileManager.default.fileExists(atPath: store.path) else { return }
        log("export-csv: building \(store.lastPathComponent) once (untimed)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strata)
        process.arguments = [
            "import", store.path, corpus.contactsCSV.path, "--entity", "Contact", "--schemas",
            environment.packageRoot.appendingPathComponent("Schemas/Contacts").path,
        ]
        process.standardOutput = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? ImportStore.removeDatabase(at: store)
            throw BenchError(.setup, "strata import for the export store failed")
        }
    }

    /// Checks that `file` holds a header and `records` records: line ends
    /// (LF, or CRLF) outside quoted fields.
    static func verify(_ file: URL, records: Int) throws {
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw BenchError(.verification, "\(file.lastPathComponent) was not written")
        }
        defer { try? handle.close() }  // Only read.
        var ends = 0
        var quoted = false
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            for byte in chunk {
                if byte == UInt8(ascii: "\"") { quoted.toggle() }
                if byte == 0x0A, !quoted { ends += 1 }
            }
        }
        guard ends == records + 1 else {
            throw BenchError(
                .verification,
                "\(file.lastPathComponent) holds \(ends - 1) records, expected \(records)")
        }
    }
}
