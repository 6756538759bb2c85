import Foundation
import Strata

/// The loop the context benchmarks share: open the store, read the contacts
/// file line by line, insert one object per line through a context, save
/// every `batch` lines, close. The workers differ only in how they make the
/// object (``ContextInsertWorker``: by name and key; ``TypedInsertWorker``:
/// through the generated class).
///
/// Nothing is held between saves but the context itself, so memory that
/// grows with the input is the context's.
enum ContactInsertLoop {
    static func run(
        _ options: Worker.Options, prepare: (Context) throws -> Void = { _ in },
        insert: (Context, ContactLine) throws -> Void
    ) throws {
        let model = try ContactStore.model(in: options.schemas)
        let store = try Store.open(at: options.store)
        try fill(
            store, model: model, from: options.input.path, batch: options.batch,
            prepare: prepare, insert: insert)
        try store.close()
    }

    /// Inserts every line of `path`; the context is released on return, so
    /// the store can close.
    private static func fill(
        _ store: Store, model: Model, from path: String, batch: Int,
        prepare: (Context) throws -> Void, insert: (Context, ContactLine) throws -> Void
    ) throws {
        let context = try Context(store: store, model: model)
        try prepare(context)
        var pending = 0
        let reader = try LineReader(path: path)
        try reader.forEachLine { bytes, line in
            try insert(context, try ContactLine(bytes, line: line, path: reader.path))
            pending += 1
            if pending == batch {
                try context.save()
                pending = 0
            }
        }
        if pending > 0 { try context.save() }
    }
}
