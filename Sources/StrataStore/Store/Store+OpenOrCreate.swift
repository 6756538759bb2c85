import Foundation
import StrataCore
import StrataSchema

extension Store {
    /// How ``withStore(at:isDryRun:newModel:_:)`` came by the store it
    /// hands over.
    public enum Origin: Sendable {
        /// The store was there and is opened (read-only in a dry run).
        case opened
        /// The store was not there: it is new, made for `model`.
        case created(Model)
    }

    /// Runs `body` on the store at `url`: the one there, opened (read-only
    /// when `isDryRun`), or else a new one made for `newModel()` — built
    /// hidden beside its place and linked in only when `body` returns, so it
    /// appears complete or not at all; in a dry run built in a scratch
    /// folder and removed after, so nothing is written where the user looks.
    ///
    /// What an import does with the store it is given: the choice between
    /// opening and creating is made here, once, for every job that fills a
    /// store.
    ///
    /// - Parameters:
    ///   - newModel: The model of a new store; called only when `url` has
    ///     no store (it may throw to refuse making one).
    ///   - body: The work, given the store and whether it is new; the store
    ///     is closed after it returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``StoreError`` opening or creating the store, or what
    ///   `newModel` or `body` throws (a new store is then not linked in).
    public static func withStore<T>(
        at url: URL, isDryRun: Bool, newModel: () throws -> Model,
        _ body: (Store, Origin) throws -> T
    ) throws -> T {
        if FileManager.default.fileExists(atPath: url.path) {
            let opened = try Store.open(at: url, mode: isDryRun ? .readOnly : .readWrite)
            defer { try? opened.close() }  // The work committed or rolled back already.
            return try body(opened, .opened)
        }
        let model = try newModel()
        var target = url
        var scratch: URL?
        if isDryRun {
            let folder = try WorkFiles.makeFolder(for: url, activity: "checking")
            scratch = folder
            target = folder.appendingPathComponent(url.lastPathComponent)
        }
        defer { if let scratch { WorkFiles.remove(scratch) } }
        var result: T?
        // `create` keeps no reference to its fill: it runs before it returns.
        try withoutActuallyEscaping(body) { body in
            let created = try Store.create(at: target, model: model) { fresh in
                result = try body(fresh, .created(model))
            }
            try created.close()
        }
        guard let result else {
            throw StoreError(
                .notFound, path: url.path, message: "the new store was made without its contents")
        }
        return result
    }
}
