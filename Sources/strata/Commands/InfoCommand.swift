import Foundation
import Strata

/// `strata info STORE [--schemas DIR] [--json]`: what a store holds.
struct InfoCommand: Command {
    static let name = "info"
    static let abstract = "Show a store's model, version, row counts, size and integrity."
    static let usage = """
        USAGE: strata info <store> [--schemas <dir>] [--json]

        ARGUMENTS:
          <store>            A Core Data SQLite store.

        OPTIONS:
          --schemas <dir>    A model folder; names the version whose hashes match the store.
                             Without it, the model the store names: the schema Strata
                             stored in it, or Core Data's model cache.
          --json             Print the information as JSON on stdout.
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

    func run() throws {
        try StoreActivity.run(store, "read the store's information") { try showInfo() }
    }

    private func showInfo() throws {
        let opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
        defer { try? opened.close() }  // Read-only: nothing to lose on close.
        let resolution = try StoreModelSource.resolve(opened, schemas: schemas)
        if resolution.model == nil {
            // The rest of the information does not depend on the model.
            for problem in resolution.problems {
                Terminal.error("warning: \(problem); ignoring it")
            }
        }
        let info = try opened.info(model: resolution.model, source: resolution.source)
        Terminal.output(json ? try JSONOutput.encode(info) : InfoCommand.render(info))
        // What it holds is shown; a damaged file is still a failure.
        guard info.integrity == ["ok"] else {
            throw CommandFailure(
                message: "\(store): the store is damaged: SQLite's integrity check found "
                    + "\(Self.integrityText(info.integrity)); it was only read. Restore it from "
                    + "a backup, or export what still reads with `strata export`")
        }
    }

    /// SQLite's integrity findings on one line (a finding may hold line
    /// breaks).
    static func integrityText(_ findings: [String]) -> String {
        findings.flatMap { $0.split(whereSeparator: \.isNewline) }
            .map { String(trimmingSpaces($0)) }.joined(separator: "; ")
    }

    /// `line` without the spaces and tabs around it, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (space separators and tab).
    private static func trimmingSpaces(_ line: Substring) -> Substring {
        func isSpace(_ character: Character) -> Bool {
            character.unicodeScalars.allSatisfy {
                $0 == "\t" || $0.properties.generalCategory == .spaceSeparator
            }
        }
        guard let first = line.firstIndex(where: { !isSpace($0) }),
            let last = line.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return line[first...last]
    }

    /// The text form of `info`.
    static func render(_ info: StoreInfo) -> String {
        var model =
            info.model ?? (info.modelSource == .modelCache ? "not named in the store" : "unknown")
        if let version = info.version { model += ", version \(version)" }
        if let identifier = info.versionIdentifiers.first, !identifier.isEmpty {
            model += " (identifier \"\(identifier)\")"
        }
        var lines = [
            ["Store", info.path],
            ["Model", model],
        ]
        switch info.modelSource {
        case .modelCache:
            let hashes =
                info.hashMismatches.isEmpty
                ? "the store's model cache (Z_MODELCACHE) reproduces every stored hash"
                : "the store's model cache gives other hashes for: \(info.hashMismatches.joined(separator: ", "))"
            lines.append(["Hashes", hashes])
        case .metadata:
            lines.append(["Hashes", "from the metadata (the store has no model cache)"])
        case .storedSchema:
            lines.append(["Hashes", "match the schema stored in the store (StrataModelSchema)"])
        case .schema:
            break
        }
        lines += [
            ["UUID", info.uuid],
            ["Framework", info.frameworkVersion.map(String.init) ?? "unknown"],
            ["Size", ByteCount.format(info.fileSize)],
            ["Integrity", Self.integrityText(info.integrity)],
        ]
        let header = TextTable.render(lines)
        var rows = [["Z_ENT", "Entity", "Rows", "Version hash"]]
        for entity in info.entities {
            let name = entity.parent.map { "\(entity.name) : \($0)" } ?? entity.name
            rows.append([
                String(entity.number), name, String(entity.rows), entity.versionHash ?? "-",
            ])
        }
        var text = header + "\nEntities\n" + TextTable.render(rows, indent: "  ")
        if let unknown = info.unknownEntityRows {
            // Rows no entity reads: counted above nowhere, so named here.
            var unknownRows = [["Table", "Z_ENT", "Rows"]]
            for entry in unknown {
                unknownRows.append([entry.table, entry.entity, String(entry.rows)])
            }
            text +=
                "\nRows whose Z_ENT names no entity (no entity reads them)\n"
                + TextTable.render(unknownRows, indent: "  ")
        }
        return text
    }
}
