import Foundation
import Strata

/// Bundles of the generated diary (N / 10 entries, 2,000 media files of
/// 2–64 KiB, about 68 MB; see ``DiaryBundleStore``):
///
/// - `archive`: `strata archive` of the whole store against `zip -r` of the
///   media folder alone (the media are what a zip of a diary mostly is).
/// - `unarchive`: `strata unarchive` of that bundle into a new store
///   (every checksum verified, every row loaded) against `unzip` of the same
///   zip into a folder.
///
/// Checks after every run: the bundle opens and lists every media file, or
/// the restored store holds every entry and medium and passes
/// `PRAGMA integrity_check`; the peer's zip or folder holds the media.
struct BundleBenchmark: Benchmark {
    /// Which direction is timed.
    enum Kind: String, Sendable { case archive, unarchive }

    let kind: Kind
    var name: String { kind.rawValue }
    var summary: String {
        switch kind {
        case .archive: "strata archive of the generated diary vs zip -r of its media (issue 11)"
        case .unarchive: "strata unarchive of the diary bundle vs unzip of it (issue 11)"
        }
    }
    let defaultRows = 1_000_000
    static let media = 2_000

    func plan(in environment: BenchEnvironment) throws -> BenchPlan {
        let entries = max(environment.corpus.rows / 10, 1)
        let corpus = try Corpus.prepare(
            entries: entries, media: Self.media, generator: environment.generator,
            cache: environment.cache)
        let strata = try StrataProgram.locate(besides: environment.executable)
        let schemas = environment.packageRoot.appendingPathComponent("Schemas/Diary")
        let store = try DiaryBundleStore.prepare(corpus: corpus, strata: strata, schemas: schemas)
        let mediaFiles = try FileManager.default.contentsOfDirectory(
            atPath: corpus.mediaFolder.path
        ).count
        let workspace = environment.workspace
        let bundle = workspace.appendingPathComponent("diary.zip")
        let targets = [
            BenchTarget(figure: .time(against: 1), limit: 1.0),
            BenchTarget(figure: .peakMegabytes(of: 0), limit: 64, inclusive: false),
        ]
        switch kind {
        case .archive:
            let zip = try ChildCommand.locate("zip", hint: "install Info-ZIP zip")
            let peerZip = workspace.appendingPathComponent("media.zip")
            let strataSide = Contender(
                title: "strata archive Diary.sqlite",
                prepareRun: {
                    try? FileManager.default.removeItem(at: bundle)
                    return ChildCommand(
                        executable: strata, arguments: ["archive", store.path, "-o", bundle.path])
                },
                verify: { try Self.verifyBundle(bundle, media: mediaFiles) })
            let peer = Contender(
                title: "zip -r media/",
                prepareRun: {
                    try? FileManager.default.removeItem(at: peerZip)
                    return ChildCommand(
                        executable: zip,
                        arguments: ["-r", "-q", peerZip.path, corpus.mediaFolder.path])
                },
                verify: { try Self.verifyZip(peerZip, media: mediaFiles) })
            return BenchPlan(strata: strataSide, peer: peer, compare: {}, targets: targets)
        case .unarchive:
            let unzip = try ChildCommand.locate("unzip", hint: "install Info-ZIP unzip")
            // The bundle both sides read, made once (untimed).
            let source = environment.cache.appendingPathComponent(
                corpus.directory.lastPathComponent + ".zip")
            if !FileManager.default.fileExists(atPath: source.path) {
                log("unarchive: archiving \(store.lastPathComponent) once (untimed)")
                let opened = try Store.open(at: store, mode: .readOnly)
                try BundleArchiver(
                    store: opened, model: try opened.resolveModel(schemas: nil).requiredModel()
                ).archive(to: source)
                try opened.close()
            }
            let restored = workspace.appendingPathComponent("restored.sqlite")
            // Each unzip run writes a new folder, and the benchmark deletes
            // none: after thousands of files are deleted, ext4's inode
            // allocator skips the recently deleted inodes for one to five
            // minutes (`recently_deleted`, seen in perf), which slowed unzip
            // 1–4× whenever files had been deleted shortly before — between
            // runs, by `unzip -o` (it unlinks before writing), by the test
            // suite — and would flatter the ratio. The folders live outside
            // the workspace, which the runner removes after the benchmark
            // (the next invocation's unzip would run on just-freed inodes).
            // Remove `corpus/unzipped/` by hand, five minutes before timing.
            let unzipped = environment.cache.appendingPathComponent("unzipped", isDirectory: true)
            try FileManager.default.createDirectory(at: unzipped, withIntermediateDirectories: true)
            let invocation = "\(Int(Date().timeIntervalSince1970))-\(getpid())"
            let runs = RunCounter()
            var folder: URL { unzipped.appendingPathComponent("\(invocation)-\(runs.current)") }
            let strataSide = Contender(
                title: "strata unarchive diary.zip",
                prepareRun: {
                    try ImportStore.removeDatabase(at: restored)
                    return ChildCommand(
                        executable: strata, arguments: ["unarchive", source.path, restored.path])
                },
                verify: {
                    try ImportStore(url: restored, schemas: schemas).verify(
                        counts: ["DiaryEntry": entries, "Medium": mediaFiles])
                })
            let peer = Contender(
                title: "unzip diary.zip",
                prepareRun: {
                    runs.next()
                    return ChildCommand(
                        executable: unzip, arguments: ["-q", source.path, "-d", folder.path])
                },
                verify: {
                    let media = try FileManager.default.contentsOfDirectory(
                        atPath: folder.appendingPathComponent("media").path)
                    guard media.count == mediaFiles else {
                        throw BenchError(
                            .verification,
                            "unzip left \(media.count) media files, expected \(mediaFiles)")
                    }
                })
            return BenchPlan(strata: strataSide, peer: peer, compare: {}, targets: targets)
        }
    }

    /// The bundle opens and lists `media` media files.
    static func verifyBundle(_ url: URL, media: Int) throws {
        let entries = try ZipReader(contentsOf: url).entries
        let count = entries.filter { $0.path.hasPrefix("media/") }.count
        guard count == media else {
            throw BenchError(
                .verification, "the bundle holds \(count) media files, expected \(media)")
        }
    }

    /// The zip opens and holds `media` files.
    static func verifyZip(_ url: URL, media: Int) throws {
        let entries = try ZipReader(contentsOf: url).entries.filter { $0.kind == .file }
        guard entries.count == media else {
            throw BenchError(
                .verification, "the zip holds \(entries.count) files, expected \(media)")
        }
    }
}

/// Numbers the runs of a contender, so each writes a folder of its own.
private final class RunCounter: @unchecked Sendable {
    private(set) var current = 0
    /// Moves to the next run.
    func next() { current += 1 }
}
