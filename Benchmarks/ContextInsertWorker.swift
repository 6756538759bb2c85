import Foundation
import Strata

/// Inserts contacts through the object context, as an app importing a file
/// would: one ``ManagedObject`` per line, ``Context/save()`` every batch.
///
/// Nothing is held between saves but the context itself, so memory that
/// grows with the input is the context's.
enum ContextInsertWorker {
    static func run(_ options: Worker.Options) throws {
        let model = try ContactStore.model(in: options.schemas)
        let store = try Store.open(at: options.store)
        try insert(from: options.input.path, into: store, model: model, batch: options.batch)
        try store.close()
    }

    /// Inserts every line of `path`; the context is released on return, so
    /// the store can close.
    private static func insert(
        from path: String, into store: Store, model: Model, batch: Int
    ) throws {
        let context = try Context(store: store, model: model)
        var pending = 0
        let reader = try LineReader(path: path)
        try reader.forEachLine { bytes, line in
            let row = try ContactLine(bytes, line: line, path: reader.path)
            let contact = try context.insert("Contact")
            try contact.setValue(.string(row.firstName), forKey: "firstName")
            try contact.setValue(.string(row.lastName), forKey: "lastName")
            try contact.setValue(row.nickname.map { .string($0) }, forKey: "nickname")
            pending += 1
            if pending == batch {
                try context.save()
                pending = 0
            }
        }
        if pending > 0 { try context.save() }
    }
}
