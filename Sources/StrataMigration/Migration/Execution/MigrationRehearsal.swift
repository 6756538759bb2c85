import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// The part of a dry run that makes its answer true: the whole migration run
/// on a private copy of the store, in a work folder beside it (or, when its
/// folder cannot take one, a private folder under the temporary directory;
/// ``WorkFiles``), then thrown away.
///
/// Counting rows cannot tell whether a mapped value breaks a destination
/// rule, an integer overflows, `1/0` leaves a required attribute nil, a
/// find-or-create key is empty or a page is damaged; running the stages can,
/// and running them exactly as ``Migrator/run(progress:)`` does means the
/// real run meets nothing the rehearsal did not. The store's own files are
/// only read (through SQLite's backup API).
struct MigrationRehearsal {
    let store: Store
    let chain: SchemaChain
    let mappingFiles: [Int: [any MigrationMappingApplying]]
    let options: MigrationOptions

    /// Runs the rehearsal: nil when it passed, otherwise the blocking
    /// finding that says which stage stopped and why.
    ///
    /// - Throws: Only when the copy itself cannot be made (no room in the
    ///   store's folder, say); the store is not changed either way.
    package func run() throws -> MigrationPreview.Finding? {
        let folder = try WorkFiles.makeFolderBesideOrPrivate(
            for: store.url, activity: "rehearsing")
        defer { WorkFiles.remove(folder) }
        // The same file name, so a journal's backup name still fits.
        let copy = folder.appendingPathComponent(store.url.lastPathComponent)
        try store.connection.copyDatabase(to: copy.path)

        var rehearsal = options
        rehearsal.rehearses = false
        rehearsal.keepsBackup = false
        rehearsal.reportsRowCounts = false
        rehearsal.lockTimeout = 0  // The copy is private: nobody else holds it.
        var stage = ""
        do {
            try Migrator(
                storeAt: copy, chain: chain, mappingFiles: mappingFiles, options: rehearsal
            )
            .run { stage = $0.stageName }
            return nil
        } catch {
            let place = stage.isEmpty ? "before the first stage" : "in stage \(stage)"
            return MigrationPreview.Finding(
                severity: .blocking, stage: stage, step: nil,
                message: "the rehearsal on a private copy of \(store.path) stopped \(place): "
                    + Self.describe(error, copy: copy.path, store: store.path))
        }
    }

    /// The error's text with the copy's path replaced by the store's, so the
    /// message names the file the user knows.
    private static func describe(_ error: any Error, copy: String, store: String) -> String {
        String(describing: error).replacingOccurrences(of: copy, with: store)
    }
}
