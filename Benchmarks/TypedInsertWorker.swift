import Foundation
import Strata

/// Inserts contacts through the class generated for `Contact`
/// (`ContactsModel.swift`, written by `strata schema swift Schemas/Contacts
/// --version 1`): the same work as ``ContextInsertWorker``, in typed code.
enum TypedInsertWorker {
    static func run(_ options: Worker.Options) throws {
        let model = try ContactStore.model(in: options.schemas)
        let store = try Store.open(at: options.store)
        try insert(from: options.input.path, into: store, model: model, batch: options.batch)
        try store.close()
    }

    private static func insert(
        from path: String, into store: Store, model: Model, batch: Int
    ) throws {
        let context = try Context(store: store, model: model)
        try context.register(ContactsModel.self)
        var pending = 0
        let reader = try LineReader(path: path)
        try reader.forEachLine { bytes, line in
            let row = try ContactLine(bytes, line: line, path: reader.path)
            let contact = Contact(context: context)
            contact.firstName = row.firstName
            contact.lastName = row.lastName
            contact.nickname = row.nickname
            pending += 1
            if pending == batch {
                try context.save()
                pending = 0
            }
        }
        if pending > 0 { try context.save() }
    }
}
