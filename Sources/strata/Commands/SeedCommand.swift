import Foundation
import Strata

/// `strata seed STORE --from SEED [--schemas DIR]`: an app's first-run
/// store, made atomically from a seed; a no-op when the store exists.
struct SeedCommand: Command {
    static let name = "seed"
    static let abstract = "Make a first-run store from a seed, once; a no-op when it exists."
    static let usage = """
        USAGE: strata seed <store> --from <seed> [--schemas <dir>] [--map <file>]
                           [--entity <name>] [--wait <seconds>] [--json]

        ARGUMENTS:
          <store>            The store to make. When it exists it is left as it is.

        OPTIONS:
          --from <seed>      A store of any version of the model (Strata's or Core
                             Data's), a strata-bundle/1 zip, or a plist, CSV or JSON
                             file of records (with --map or --entity).
          --schemas <dir>    The model folder (default: Schemas/<model>, the model a
                             store or bundle seed names). The store is made at its
                             newest version; an older seed is migrated.
          --map <file>       A strata-import/1 mapping for a seed of records.
          --entity <name>    The entity records become (when the mapping does not say).
          --wait <seconds>   How long to wait while another process seeds or migrates
                             the store (default 60; 0 refuses at once).
          --json             Say what happened as JSON ("outcome": "seeded" or "existing").

        The store is built in a hidden file beside it and linked into place complete,
        under <store>.strata-lock: processes seeding together make one store, and one
        killed part-way leaves none (the next run seeds again). The seed's name,
        SHA-256 and version are recorded in the store's metadata.
        """

    var store: String
    var seed: String
    var schemas: String?
    var mapping: String?
    var entity: String?
    var wait: Int?
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        guard let seed = try arguments.option("--from") else {
            throw UsageError("missing '--from <seed>'", command: Self.self)
        }
        var command = Self(
            store: "", seed: seed, schemas: try arguments.option("--schemas"),
            mapping: try arguments.option("--map"), entity: try arguments.option("--entity"),
            wait: try arguments.integerOption("--wait"), json: arguments.flag("--json"))
        command.store = try arguments.storePath("<store>")
        try arguments.finish()
        return command
    }

    func validate() throws {
        if let wait, wait < 0 {
            throw UsageError("'--wait' must be 0 or more", command: Self.self)
        }
    }

    /// What `--json` prints.
    struct Output: Encodable {
        var outcome: SeedingResult.Outcome
        var store: String
        var version: Int?
        var seed: SeedRecord?
        var counts: [String: Int64]
        var removedLeftovers: [String]
        var seconds: Double
    }

    func run() throws {
        let storeURL = URL(fileURLWithPath: store)
        // An existing store is the common case on every later start: say so
        // before anything else is read (the seed need not be there).
        if FileManager.default.fileExists(atPath: store) {
            return try report(existing: storeURL)
        }
        let seedValue = try Seed.detecting(
            URL(fileURLWithPath: seed), mapping: mapping.map { URL(fileURLWithPath: $0) },
            entity: entity)
        let folder = try schemas ?? defaultSchemas(for: seedValue)
        var options = SeedingOptions()
        if let wait { options.lockTimeout = TimeInterval(wait) }
        options.waitingForLock = {
            Terminal.error("Waiting for another process seeding or migrating \(store)…")
        }
        let seeder = try StoreActivity.run(store, "seed the store") {
            try Seeder(
                storeAt: storeURL, schemas: URL(fileURLWithPath: folder, isDirectory: true),
                seed: seedValue, options: options)
        }
        let result = try StoreActivity.run(store, "seed the store") {
            try seeder.seedIfMissing()
        }
        guard result.outcome == .seeded, let record = result.seed else {
            return try report(existing: storeURL, removed: result.removedLeftovers)
        }
        let newest = seeder.chain.newest.version
        if json {
            Terminal.output(
                try JSONOutput.encode(
                    Output(
                        outcome: .seeded, store: store, version: newest, seed: record,
                        counts: result.counts, removedLeftovers: result.removedLeftovers,
                        seconds: result.seconds)))
            return
        }
        if !result.removedLeftovers.isEmpty {
            Terminal.output(
                "Removed what an interrupted seeding left: "
                    + result.removedLeftovers.joined(separator: ", "))
        }
        let versions =
            record.version == newest
            ? "version \(newest)" : "version \(record.version), migrated to \(newest)"
        Terminal.output(
            "Seeded \(store) from \(seed) (\(record.kind), \(versions)): "
                + Self.counts(result.counts) + String(format: " in %.2f s", result.seconds))
        Terminal.output("Recorded seed \(record.name), SHA-256 \(record.sha256)")
    }

    /// The message (or JSON) for a store that was there: nothing was done.
    private func report(existing url: URL, removed: [String] = []) throws {
        var record: SeedRecord?
        var version: Int?
        if let found = try? Store.open(at: url, mode: .readOnly) {
            record = SeedRecord(metadata: found.metadata)
            version = found.metadata.modelVersion
            try? found.close()  // Read only.
        }
        if json {
            Terminal.output(
                try JSONOutput.encode(
                    Output(
                        outcome: .existing, store: store, version: version, seed: record,
                        counts: [:], removedLeftovers: removed, seconds: 0)))
            return
        }
        let seeded = record.map { " (seeded earlier from \($0.name))" } ?? ""
        Terminal.output("\(store) exists already\(seeded); not seeded again, nothing changed")
    }

    /// `Schemas/<model>` for the model a store or bundle seed names.
    private func defaultSchemas(for seed: Seed) throws -> String {
        var model: String?
        switch seed.kind {
        case .store:
            if let store = try? Store.open(at: seed.url, mode: .readOnly) {
                model = store.metadata.modelName
                try? store.close()  // Read only.
            }
        case .bundle:
            model = (try? BundleUnarchiver(bundle: seed.url))?.model.name
        case .records:
            break
        }
        if let model, !Model.isPlainName(model) {
            // A store or bundle is input: the name it gives is not a path.
            throw CommandFailure(
                message: "\(seed.url.relativePath) names its model \(String(reflecting: model)), "
                    + "which is not a model name (a folder of Schemas/); give '--schemas <dir>'")
        }
        guard let model, FileManager.default.fileExists(atPath: "Schemas/\(model)") else {
            throw UsageError(
                "give '--schemas <dir>': \(seed.url.relativePath) names no model with a "
                    + "folder in Schemas/", command: Self.self)
        }
        return "Schemas/\(model)"
    }

    /// `12 Recipe, 48 Ingredient` in entity order.
    static func counts(_ counts: [String: Int64]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            .joined(separator: ", ")
    }
}
