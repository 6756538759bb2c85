import Foundation
import Strata

/// Inserts contacts through the class generated for `Contact`
/// (`ContactsModel.swift`, written by `strata schema swift Schemas/Contacts
/// --version 1`): the same work as ``ContextInsertWorker``, in typed code
/// (``ContactInsertLoop``).
enum TypedInsertWorker {
    static func run(_ options: Worker.Options) throws {
        try ContactInsertLoop.run(options, prepare: { try $0.register(ContactsModel.self) }) {
            context, row in
            let contact = Contact(context: context)
            contact.firstName = row.firstName
            contact.lastName = row.lastName
            contact.nickname = row.nickname
        }
    }
}
