import Foundation
import Strata
import StrataWeb

/// `strata-bench serve`: the web view on a 1,000,000-note store, as shipped
/// (`strata serve`, a release build, over HTTP on the loopback).
///
/// - Pages: the entity's first, middle and last page (keyset paging), a
///   middle page sorted by the indexed date, and an object's page, each
///   requested 25 times one at a time: the median and slowest response
///   times seen by a client on the same machine (a whole HTTP exchange,
///   connect included), beside the `sqlite3` shell's time for the SQL the
///   page runs (the 51 rows; the object's row; the entity's count is taken
///   once when the view starts), per query over 2,000 runs in one shell.
/// - Load: 200 clients at once, 10 requests each over those pages: p50, p99,
///   errors, and the server's resident memory after a first and a second
///   round (flat when the two agree).
///
/// Issue 31's targets: entity pages within 50 ms, the object page within
/// 20 ms, no errors under load.
enum ServeBenchmark {
    static let name = "serve"
    static let summary = "strata serve on 1000000 notes: page times, 200 concurrent clients"

    struct Page {
        var label: String
        var path: String
        var sql: String
        var limit: Double
    }

    static func run(packageRoot: URL, rows requested: Int?) throws -> String {
        let rows = requested ?? 1_000_000
        let corpus = try NoteCorpus.prepare(
            rows: rows, packageRoot: packageRoot,
            cache: packageRoot.appendingPathComponent("Benchmarks/corpus"))
        let strata = try StrataProgram.locate(besides: try ChildCommand.currentExecutable())
        let middle = rows / 2
        let columns = "Z_PK, Z_ENT, Z_OPT, ZDATE, ZBODY, ZKEYWORDS, ZTITLE"
        let middleDate: Double = try {
            let store = try Store.open(at: corpus.store, mode: .readOnly)
            defer { try? store.close() }  // Read-only.
            return try store.connection.scalar(
                "SELECT ZDATE FROM ZNOTE WHERE Z_PK = ?", [.integer(Int64(middle))])?.doubleValue
                ?? 0
        }()
        let pages = [
            Page(
                label: "entity, first page", path: "/entity/Note",
                sql: "SELECT \(columns) FROM ZNOTE ORDER BY Z_PK LIMIT 51;", limit: 0.050),
            Page(
                label: "entity, middle page", path: "/entity/Note?after=Note/p\(middle)",
                sql: "SELECT \(columns) FROM ZNOTE WHERE Z_PK > \(middle) ORDER BY Z_PK LIMIT 51;",
                limit: 0.050),
            Page(
                label: "entity, last page", path: "/entity/Note?last=1",
                sql: "SELECT \(columns) FROM ZNOTE ORDER BY Z_PK DESC LIMIT 51;", limit: 0.050),
            Page(
                label: "entity by date, middle",
                path: "/entity/Note?sort=date&after=Note/p\(middle)",
                sql: "SELECT \(columns) FROM ZNOTE WHERE ZDATE >= \(middleDate) AND (ZDATE > "
                    + "\(middleDate) OR Z_PK > \(middle)) ORDER BY ZDATE, Z_PK LIMIT 51;",
                limit: 0.050),
            Page(
                label: "object page", path: "/object/Note/\(middle)",
                sql: "SELECT \(columns) FROM ZNOTE WHERE Z_PK = \(middle);", limit: 0.020),
        ]

        let server = Process()
        server.executableURL = URL(fileURLWithPath: strata)
        server.arguments = [
            "serve", corpus.store.path, "--port", "0", "--schemas", corpus.schemas.path,
        ]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        guard let (_, port) = LoopbackClient.announcedAddress(on: output.fileHandleForReading)
        else { throw BenchError(.setup, "strata serve did not start") }
        let client = LoopbackClient(port: port)

        var table = [
            ["page", "Strata median", "Strata max", "sqlite3, the page's SQL", "ratio", "target"]
        ]
        var verdicts: [String] = []
        let sqlite3 = try ChildCommand.locate("sqlite3", hint: "install it with `make deps`")
        for page in pages {
            for _ in 0..<3 { _ = try check(client.get(page.path), page.path) }  // Warm the caches.
            var times: [Double] = []
            for _ in 0..<25 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try check(client.get(page.path), page.path)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            times.sort()
            let median = times[times.count / 2]
            let peer = try sqliteTime(sqlite3, store: corpus.store, sql: page.sql)
            let met = median <= page.limit
            verdicts.append(
                "\(page.label): \(milliseconds(median)) ms, target ≤ \(milliseconds(page.limit)) ms: "
                    + (met ? "met" : "MISSED"))
            table.append([
                page.label, milliseconds(median) + " ms", milliseconds(times.last ?? 0) + " ms",
                milliseconds(peer) + " ms", String(format: "%.1fx", median / max(peer, 1e-6)),
                "≤ \(milliseconds(page.limit)) ms",
            ])
        }

        // 200 clients at once, twice: latencies, errors and memory.
        let rssStart = residentKilobytes(of: server.processIdentifier)
        var rounds: [String] = []
        var allErrors = 0
        var rssAfter: [Int] = []
        for round in 1...2 {
            let (latencies, errors, seconds) = load(
                client, paths: pages.map(\.path), clients: 200, each: 10)
            allErrors += errors
            rssAfter.append(residentKilobytes(of: server.processIdentifier))
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
            }
            rounds.append(
                "round \(round): \(latencies.count) requests in \(String(format: "%.2f", seconds)) s "
                    + "(\(Int(Double(latencies.count) / seconds)) per s), p50 \(milliseconds(percentile(0.5))) ms, "
                    + "p99 \(milliseconds(percentile(0.99))) ms, max \(milliseconds(sorted.last ?? 0)) ms, "
                    + "errors \(errors), server RSS \(rssAfter.last ?? 0) KB")
        }
        verdicts.append(
            "200 concurrent clients: \(allErrors) errors, target 0: "
                + (allErrors == 0 ? "met" : "MISSED"))
        let peak = peakKilobytes(of: server.processIdentifier)

        var report = "serve — \(summary) (\(rows) rows)\n"
        report += render(table) + "\n"
        report += rounds.joined(separator: "\n") + "\n"
        report +=
            "server RSS: \(rssStart) KB before the load, \(rssAfter.map(String.init).joined(separator: " KB, then ")) KB "
            + "after each round; peak \(peak) KB\n"
        report += verdicts.map { "  " + $0 }.joined(separator: "\n") + "\n"
        return report
    }

    private static func check(_ answer: LoopbackClient.Answer, _ path: String) throws
        -> LoopbackClient.Answer
    {
        guard answer.status == 200 else {
            throw BenchError(.verification, "\(path): status \(answer.status)")
        }
        return answer
    }

    /// `clients` threads each sending `each` requests in turn over `paths`.
    private static func load(_ client: LoopbackClient, paths: [String], clients: Int, each: Int)
        -> (latencies: [Double], errors: Int, seconds: Double)
    {
        final class Tally: @unchecked Sendable {  // Guarded by its lock.
            let lock = NSLock()
            var latencies: [Double] = []
            var errors = 0
        }
        let tally = Tally()
        // One thread per client, all started before any sends: 200 requests
        // really are open at once (a dispatch queue would run two).
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for index in 0..<clients {
            group.enter()
            let thread = Thread {
                gate.wait()
                var mine: [Double] = []
                var failed = 0
                for request in 0..<each {
                    let path = paths[(index + request) % paths.count]
                    let begin = DispatchTime.now().uptimeNanoseconds
                    if let answer = try? client.get(path), answer.status == 200 {
                        mine.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
                    } else {
                        failed += 1
                    }
                }
                tally.lock.withLock {
                    tally.latencies += mine
                    tally.errors += failed
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<clients { gate.signal() }
        group.wait()
        return (
            tally.latencies, tally.errors,
            Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        )
    }

    /// The shell's time for `sql`, per run: a script running it 2,000 times
    /// against an empty script, each timed as a whole process (the median
    /// of 5), the difference divided by 2,000. (`.timer on` counts whole
    /// milliseconds, too coarse for these queries.)
    private static func sqliteTime(_ sqlite3: String, store: URL, sql: String) throws -> Double {
        let repeats = 2000
        func time(_ script: String) throws -> Double {
            var runs: [Double] = []
            for _ in 0..<5 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: sqlite3)
                process.arguments = ["-readonly", store.path]
                let input = Pipe()
                process.standardInput = input
                process.standardOutput = FileHandle.nullDevice
                let data = Data((".output /dev/null\n" + script).utf8)
                let start = DispatchTime.now().uptimeNanoseconds
                try process.run()
                input.fileHandleForWriting.write(data)
                try input.fileHandleForWriting.close()
                process.waitUntilExit()
                runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                guard process.terminationStatus == 0 else {
                    throw BenchError(.verification, "sqlite3 failed on: \(sql)")
                }
            }
            return runs.sorted()[runs.count / 2]
        }
        let full = try time(String(repeating: sql + "\n", count: repeats))
        let empty = try time("")
        return max(0, full - empty) / Double(repeats)
    }

    private static func residentKilobytes(of pid: Int32) -> Int { statusField("VmRSS", of: pid) }
    private static func peakKilobytes(of pid: Int32) -> Int { statusField("VmHWM", of: pid) }

    private static func statusField(_ name: String, of pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Rows of cells in padded columns.
    private static func render(_ rows: [[String]]) -> String {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in
            rows.map { $0[column].count }.max() ?? 0
        }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1 + 2, withPad: " ", startingAt: 0) }
                .joined().trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String(format: seconds < 0.01 ? "%.2f" : "%.1f", seconds * 1000)
    }
}
