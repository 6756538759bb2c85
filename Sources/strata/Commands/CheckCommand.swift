import Foundation
import Strata

/// `strata check STORE [--schemas DIR] [--json]`: the store's fsck.
struct CheckCommand: Command {
    static let name = "check"
    static let abstract = "Check a store: its file, bookkeeping, links and every value's rules."
    static let usage = """
        USAGE: strata check <store> [--schemas <dir>] [--json]

        ARGUMENTS:
          <store>            A Core Data SQLite store (read only).

        OPTIONS:
          --schemas <dir>    A model folder: the store is checked against the version whose
                             hashes are its own (none matching is a problem). Without it, the
                             model the store names (Strata's stored schema, Core Data's cache).
          --json             Print the result as JSON on stdout.

        Checked: PRAGMA integrity_check (a damaged page is named by its table); the store's
        hashes against the model; Z_ENT of every row and Z_PRIMARYKEY.Z_MAX; every key names
        a row of the right entity; both sides of every inverse pair agree; required
        relationships, to-many counts and ordered positions; every value of every attribute
        against the schema's rules (required, lengths, patterns, ranges, types, external
        storage markers and their files). Problems are listed by object
        ("Recipe/p3: image → Image/p7, but Image/p7.recipe is nil …").

        Exit status: 0 when the store is sound, 1 when a problem was found.
        """

    var store: String
    var schemas: String?
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let json = arguments.flag("--json")
        let schemas = try arguments.option("--schemas")
        let store = try arguments.storePath("<store>")
        try arguments.finish()
        return Self(store: store, schemas: schemas, json: json)
    }

    /// What `--json` prints.
    private struct Report: Encodable {
        var store: String
        var model: String?
        var version: Int?
        var ok: Bool
        var problems: [StoreProblem]
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: store) else {
            throw CommandFailure(message: "\(store): no such file")
        }
        let report = try StoreActivity.run(store, "check the store") { try check() }
        if json {
            Terminal.output(try JSONOutput.encode(report))
        } else {
            for problem in report.problems { Terminal.output(problem.description) }
            let model =
                report.model.map { name in
                    " (\(name)\(report.version.map { " version \($0)" } ?? ""))"
                } ?? ""
            if report.ok {
                Terminal.output("\(store)\(model): ok")
            }
        }
        guard report.ok else {
            let count = report.problems.count
            throw CommandFailure(
                message: "\(store): \(count) problem\(count == 1 ? "" : "s") found")
        }
    }

    private func check() throws -> Report {
        var report = Report(store: store, ok: false, problems: [])
        let opened: Store
        do {
            opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
        } catch let error as SQLiteError {
            // A file damaged where the metadata lives: the file's problem.
            report.problems = [
                StoreProblem(area: .file, kind: "integrity", message: "\(error)")
            ]
            return report
        }
        defer { try? opened.close() }  // Read only.
        let model: Model
        do {
            model = try StoreModelSource.resolve(opened, schemas: schemas).requiredModel()
        } catch let error as StoreError where error.code == .unknownVersion {
            report.problems =
                try opened.checkFileProblems() + [
                    StoreProblem(area: .model, kind: "hashes", message: error.message)
                ]
            return report
        }
        report.model = model.name
        report.version = model.version
        report.problems = try opened.check(model: model)
        report.ok = report.problems.isEmpty
        return report
    }
}
