import Foundation
import Strata

/// A long model history (issue 25): a store of N objects (default 1,000) at
/// version 1 of a generated 100-version history (``LongChainHistory``)
/// migrated to version 100 with `strata migrate`, against the same store
/// already at version 99 migrated to 100 (the one-step run: what planning
/// 99 more versions adds) and against version 1 → 200 of the 200-version
/// history (planning must grow linearly in versions).
///
/// Each side migrates a fresh copy (untimed) of its store, with the default
/// backup; after each run the store must be at its chain's newest version
/// and hold every object, every note's title and every note's tags.
struct LongChainBenchmark: Benchmark {
    let name = "migrate-long-chain"
    let summary =
        "strata migrate of a store at version 1 of a 100-version history vs 99 → 100 "
        + "and vs 1 → 200 (issue 25)"
    let defaultRows = 1_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let objects = environment.corpus.rows
        let strata = try StrataProgram.locate(besides: environment.executable)
        let workspace = environment.workspace
        let short = workspace.appendingPathComponent("Schemas-100")
        let long = workspace.appendingPathComponent("Schemas-200")
        try LongChainHistory.write(versions: 100, into: short)
        try LongChainHistory.write(versions: 200, into: long)
        let shortChain = try SchemaChain.load(directory: short)
        let longChain = try SchemaChain.load(directory: long)

        // The stores each side copies: version 1, and version 99 made from
        // it by the library (untimed; it also checks 1 → 99 keeps all).
        let first = workspace.appendingPathComponent("original-v1.sqlite")
        try LongChainHistory.makeStore(at: first, objects: objects)
        let ninetyNine = workspace.appendingPathComponent("original-v99.sqlite")
        try FileManager.default.copyItem(at: first, to: ninetyNine)
        var options = MigrationOptions()
        options.targetVersion = 99
        options.keepsBackup = false
        try Migrator(storeAt: ninetyNine, chain: shortChain, options: options).run()
        try Self.verify(ninetyNine, chain: shortChain, version: 99, objects: objects)

        func side(
            _ title: String, label: String, original: URL, schemas: URL, chain: SchemaChain
        ) -> Contender {
            let copy = workspace.appendingPathComponent("\(label).sqlite")
            return Contender(
                title: title,
                prepareRun: {
                    try Self.reset(copy, from: original)
                    return ChildCommand(
                        executable: strata,
                        arguments: ["migrate", copy.path, "--schemas", schemas.path])
                },
                verify: {
                    try Self.verify(
                        copy, chain: chain, version: chain.newest.version, objects: objects)
                },
                side: label)
        }
        return BenchPlan(
            strata: side(
                "strata migrate, versions 1 → 100", label: "1-100", original: first,
                schemas: short, chain: shortChain),
            peers: [
                side(
                    "strata migrate, versions 99 → 100", label: "99-100", original: ninetyNine,
                    schemas: short, chain: shortChain),
                side(
                    "strata migrate, versions 1 → 200", label: "1-200", original: first,
                    schemas: long, chain: longChain),
            ],
            compare: {},
            targets: [
                BenchTarget(figure: .seconds(of: 0), limit: 1.0),
                BenchTarget(figure: .time(against: 1), limit: 5.0),
                BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false),
                BenchTarget(figure: .timeGrowth(of: 2, over: 0), limit: 2.0, inclusive: false),
            ])
    }

    /// Replaces `copy` and whatever a run left beside it with a fresh copy
    /// of `original`.
    private static func reset(_ copy: URL, from original: URL) throws {
        let folder = copy.deletingLastPathComponent()
        let name = copy.lastPathComponent
        for leftover in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where leftover.hasPrefix(name) || leftover.hasPrefix(".\(name)") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(leftover))
        }
        try FileManager.default.copyItem(at: original, to: copy)
    }

    /// Checks that the store at `url` is at `version` and holds every
    /// object, note title and tag link of a store of `objects` objects.
    static func verify(_ url: URL, chain: SchemaChain, version: Int, objects: Int) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }  // Read only.
        let found = try store.matchingVersion(in: chain).version
        guard found == version else {
            throw BenchError(.verification, "\(url.lastPathComponent) is at version \(found)")
        }
        guard let model = chain.model(version: version) else {
            throw BenchError(.verification, "the chain has no version \(version)")
        }
        let names = LongChainHistory.names(at: version)
        let context = try Context(store: store, model: model)
        let expected = LongChainHistory.counts(objects: objects)
        let notes = try context.findAll("Note")
        let counts = (
            try context.count("Folder"), try context.count(names.tag), notes.count
        )
        guard counts == expected else {
            throw BenchError(
                .verification,
                "\(url.lastPathComponent) holds \(counts) folders, tags, notes; "
                    + "expected \(expected)")
        }
        let titled = try notes.filter { try $0.string(names.title) != nil }.count
        let tagged = try notes.filter { try $0.objects(forKey: "tags").count >= 1 }.count
        guard titled == notes.count, tagged == notes.count else {
            throw BenchError(
                .verification,
                "\(url.lastPathComponent): \(notes.count - titled) notes lost their title, "
                    + "\(notes.count - tagged) their tags")
        }
    }
}
