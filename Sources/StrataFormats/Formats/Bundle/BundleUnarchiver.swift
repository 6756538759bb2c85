import Foundation
import StrataCore
import StrataSchema

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a `strata-bundle/1` zip back into a store: checks the zip (names,
/// links, sizes, ratios: ``ZipReader``), the manifest against the zip's
/// entries, and every file's SHA-256 before anything is written; then
/// builds the store hidden beside its place, at the bundle's schema version,
/// migrates it through the schema chain when a later version is asked for,
/// and links it into place complete.
///
/// ```swift
/// var options = UnarchiveOptions()
/// options.schemas = schemasURL
/// let unarchiver = try BundleUnarchiver(bundle: bundleURL, options: options)
/// let summary = try unarchiver.unarchive(to: restoredURL)
/// ```
///
/// An existing store is never replaced; with ``UnarchiveOptions/merges``
/// the records are added to it instead. A bundle newer than the schemas
/// know is refused.
public final class BundleUnarchiver {
    /// The zip's path as given.
    public let path: String
    /// The bundle's manifest.
    public let manifest: BundleManifest
    /// The schema version the bundle's data was written with.
    public let model: Model
    /// How to unarchive.
    public let options: UnarchiveOptions
    let reader: ZipReader
    package private(set) var isVerified = false

    /// The largest manifest or schema read (they are read whole).
    static let maximumDocumentSize = 64 << 20

    /// Opens the bundle and checks its table of contents: the zip's names
    /// and sizes, `manifest.json` and `schema.json`, and that the manifest
    /// lists exactly the zip's entries with their sizes.
    ///
    /// - Throws: ``ArchiveError`` for a hostile or broken zip,
    ///   ``BundleError`` for a manifest or schema that does not fit.
    public init(bundle url: URL, options: UnarchiveOptions = UnarchiveOptions()) throws {
        path = url.relativePath
        self.options = options
        let reader = try ZipReader(contentsOf: url, limits: options.limits)
        self.reader = reader
        let path = url.relativePath
        func document(_ name: String) throws -> Data {
            guard let entry = reader.entry(named: name) else {
                throw BundleError(
                    .notABundle, path: path,
                    "no \(name): not a \(BundleManifest.format) bundle")
            }
            return try reader.data(of: entry, limit: Self.maximumDocumentSize)
        }
        let manifestData = try document("manifest.json")
        do {
            manifest = try BundleManifest(json: manifestData)
        } catch {
            throw BundleError(
                .notABundle, path: path, entry: "manifest.json",
                "not a \(BundleManifest.format) manifest: \(error.message)")
        }
        guard manifest.format == BundleManifest.format else {
            throw BundleError(
                .notABundle, path: path, entry: "manifest.json",
                "format is '\(manifest.format)'; this version of Strata reads \(BundleManifest.format)"
            )
        }
        let schemaData = try document("schema.json")
        do {
            model = try SchemaDecoder().decode(schemaData, file: "schema.json")
        } catch {
            throw BundleError(.notABundle, path: path, entry: "schema.json", "\(error)")
        }
        if let issue = SchemaValidator().validate(model, file: "schema.json").first {
            throw BundleError(.notABundle, path: path, entry: "schema.json", "\(issue)")
        }
        try checkModelAgainstManifest()
        try checkEntries()
    }

    /// The schema is the one the manifest names, with its hashes.
    private func checkModelAgainstManifest() throws {
        let named = manifest.model
        guard named.name == model.name, named.version == model.version else {
            throw BundleError(
                .notABundle, path: path, entry: "manifest.json",
                "names \(named.name) version \(named.version), but schema.json is \(model.name) "
                    + "version \(model.version)")
        }
        for entity in model.entities {
            let hash = model.versionHash(ofEntity: entity.name).map {
                Data($0).base64EncodedString()
            }
            guard named.hashes[entity.name] == hash else {
                throw BundleError(
                    .notABundle, path: path, entry: "manifest.json",
                    "the hash of \(entity.name) differs from schema.json's")
            }
        }
        for (entity, count) in manifest.counts {
            guard let found = model.entity(named: entity), !found.isAbstract, count >= 0 else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: "manifest.json",
                    "counts \(entity), which is not an entity of \(model.name) that has objects")
            }
        }
    }

    /// The manifest lists exactly the zip's files, with their sizes, and
    /// only names a bundle has.
    private func checkEntries() throws {
        var listed: [String: BundleManifest.File] = [:]
        for file in manifest.files {
            guard listed.updateValue(file, forKey: file.path) == nil else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: "manifest.json",
                    "lists \(file.path) twice")
            }
            guard Self.isBundleName(file.path, model: model) else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: file.path,
                    "not a name a \(BundleManifest.format) bundle has (README.txt, schema.json, "
                        + "data/<Entity>.jsonl, media/<sha256>.<ext>, html/…)")
            }
            guard let entry = reader.entry(named: file.path), entry.kind == .file else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: file.path,
                    "listed in the manifest but not in the zip")
            }
            guard entry.size == file.bytes else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: file.path,
                    "\(entry.size) bytes, but the manifest says \(file.bytes)")
            }
        }
        for entry in reader.entries where entry.kind == .file && entry.path != "manifest.json" {
            guard listed[entry.path] != nil else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: entry.path,
                    "in the zip but not listed in the manifest")
            }
        }
        for entity in manifest.counts.keys where manifest.counts[entity] ?? 0 > 0 {
            let file = BundleManifest.dataFile(of: entity)
            guard listed[file] != nil else {
                throw BundleError(
                    .manifestMismatch, path: path, entry: file,
                    "the manifest counts \(manifest.counts[entity] ?? 0) \(entity) but lists no such file"
                )
            }
        }
    }

    /// README.txt, schema.json, data/<Entity>.jsonl of a concrete entity,
    /// media/<64 hex digits>.<letters and digits>.
    static func isBundleName(_ name: String, model: Model) -> Bool {
        if name == "README.txt" || name == "schema.json" { return true }
        // The zip reader has refused `..`, absolute names and links already.
        if name.hasPrefix(BundleManifest.siteFolder), name.count > BundleManifest.siteFolder.count {
            return true
        }
        if let entity = BundleManifest.entity(ofDataFile: name) {
            return model.entity(named: entity).map { !$0.isAbstract } ?? false
        }
        guard name.hasPrefix("media/") else { return false }
        let rest = name.utf8.dropFirst(6)
        guard rest.count > 65, rest.count <= 64 + 1 + 16 else { return false }
        let hex = rest.prefix(64)
        let ext = rest.dropFirst(65)
        return hex.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
            && rest[rest.index(rest.startIndex, offsetBy: 64)] == UInt8(ascii: ".")
            && !ext.isEmpty
            && ext.allSatisfy { (48...57).contains($0) || (97...122).contains($0) }
    }

    /// Reads every listed file and checks its SHA-256 against the manifest.
    ///
    /// The files are split in two halves of about equal size, hashed at the
    /// same time on two threads through the one reader (its reads keep no
    /// state).
    ///
    /// - Throws: ``BundleError`` `checksumMismatch` naming the first file
    ///   that differs; ``ArchiveError`` for a damaged entry.
    public func verify() throws {
        guard !isVerified else { return }
        try verify(skipping: [])
        isVerified = true
    }

    /// Checks the SHA-256 of every listed file but those in `skipped` (the
    /// files a load checked as it read them); does not mark the bundle
    /// verified.
    package func verify(skipping skipped: Set<String>) throws {
        let files = manifest.files.filter { !skipped.contains($0.path) }
        let total = files.reduce(Int64(0)) { $0 + $1.bytes }
        var split = 0
        var running: Int64 = 0
        while split < files.count, running * 2 < total {
            running += files[split].bytes
            split += 1
        }
        let halves = [Array(files[..<split]), Array(files[split...])]
        // Reads only (no cursor): one reader serves both threads.
        let shared = UncheckedReader(reader: reader)
        let path = self.path
        let failures = VerificationFailures()
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            let reader = shared.reader
            do {
                for file in halves[half] {
                    guard let entry = reader.entry(named: file.path) else { continue }
                    try reader.read(entry, sha256: file.sha256, bundle: path) { _ in }
                }
            } catch {
                failures.record(error, order: half)
            }
        }
        if let error = failures.first { throw error }
    }
}

/// A reader shared by the verifying threads, which only call its
/// stateless reads.
private struct UncheckedReader: @unchecked Sendable {
    let reader: ZipReader
}

/// The errors of the verifying threads. Each half stops at its own first
/// failure and the first half's error wins, so the file named is the same
/// whatever the timing.
private final class VerificationFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [Int: Error] = [:]

    /// The error of the lowest half that failed.
    var first: Error? {
        lock.lock()
        defer { lock.unlock() }
        return errors.keys.min().flatMap { errors[$0] }
    }

    func record(_ error: Error, order: Int) {
        lock.lock()
        defer { lock.unlock() }
        errors[order] = error
    }
}
