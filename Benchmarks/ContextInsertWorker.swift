import Foundation
import Strata

/// Inserts contacts through the object context, as an app importing a file
/// would: one ``ManagedObject`` per line, by entity name and key,
/// ``Context/save()`` every batch (``ContactInsertLoop``).
enum ContextInsertWorker {
    static func run(_ options: Worker.Options) throws {
        try ContactInsertLoop.run(options) { context, row in
            let contact = try context.insert("Contact")
            try contact.setValue(.string(row.firstName), forKey: "firstName")
            try contact.setValue(.string(row.lastName), forKey: "lastName")
            try contact.setValue(row.nickname.map { .string($0) }, forKey: "nickname")
        }
    }
}
