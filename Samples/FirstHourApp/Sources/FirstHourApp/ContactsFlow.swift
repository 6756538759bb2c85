import Foundation
import Strata

/// `surname, name <email> phone` for each person.
@MainActor
func listing(_ people: [Person]) -> [String] {
    people.map { "\($0.surname ?? ""), \($0.name ?? "") <\($0.email ?? "")> \($0.phone ?? "-")" }
}

/// The contacts app: add, edit, delete, list by surname, import a txt file
/// of `name;surname;phone;email` lines, re-import by the unique email,
/// malformed lines set aside, and another writer's conflict recovered.
@MainActor
func runContacts(in folder: URL) throws {
    let storeURL = folder.appendingPathComponent("People.sqlite")
    let container = try StoreContainer(model: PeopleModel.self, location: .file(storeURL))
    let context = container.context

    // Add, edit, delete, list by surname.
    for (name, surname, email) in [
        ("Ada", "Lovelace", "ada@example.org"), ("Alan", "Turing", "alan@example.org"),
        ("Grace", "Hopper", "grace@example.org"),
    ] {
        let person = Person(context: context)
        person.name = name
        person.surname = surname
        person.email = email
    }
    try context.save()
    let grace = try context.findFirst(Person.self, where: "email == %@", "grace@example.org")
    grace?.phone = "+1 555 0100"
    if let alan = try context.findFirst(Person.self, where: "surname == %@", "Turing") {
        try context.delete(alan)
    }
    try context.save()
    print("contacts: \(try context.count(Person.self)) after add, edit and delete")
    for line in listing(
        try context.findAll(Person.self, sortedBy: SortDescriptor("surname", ascending: true)))
    {
        print("  \(line)")
    }

    // A 1,000-line txt import, four lines of it malformed.
    let file = folder.appendingPathComponent("people.txt")
    var lines: [String] = []
    for index in 0..<1_000 {
        switch index {
        case 100: lines.append("Broken line without fields")
        case 200: lines.append("Only;Two")
        case 300: lines.append("No;Email;+41 00;")
        case 400: lines.append("Too;Many;+41 00;x@example.org;extra")
        default:
            lines.append("Name\(index);Surname\(index % 97);+41 79 \(index);p\(index)@example.org")
        }
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    var options = ImportOptions(entity: "Person")
    options.delimiter = UInt8(ascii: ";")
    options.columns = ["name", "surname", "phone", "email"]
    options.uniqueKey = ["email"]
    options.errorPolicy = .skip
    options.rejectsFile = folder.appendingPathComponent("people-rejected.txt")
    let first = try Importer.import(file, into: container.store, options: options)
    print(
        "import: \(first.records) lines, \(first.inserted) inserted, \(first.updated) updated, "
            + "\(first.rejected) rejected")
    let rejected = try String(contentsOf: options.rejectsFile!, encoding: .utf8)
    print("  set aside: \(rejected.split(separator: "\n").count) lines in people-rejected.txt")

    // Loaded objects do not see the importer's writes until refreshed, as
    // in Core Data; a re-import with new phones updates by email.
    let watched = try context.findFirst(Person.self, where: "email == %@", "p7@example.org")
    let changed = lines.enumerated().map { index, line in
        index == 7 ? "Name7;Surname7;+41 79 777 77 77;p7@example.org" : line
    }
    try Data((changed.joined(separator: "\n") + "\n").utf8).write(to: file)
    options.replacesRejects = true
    let again = try Importer.import(file, into: container.store, options: options)
    print(
        "re-import: \(again.inserted) inserted, \(again.updated) updated, \(again.rejected) rejected"
    )
    print("  p7 before refreshAll: \(watched?.phone ?? "-")")
    try context.refreshAll()
    print("  p7 after refreshAll: \(watched?.phone ?? "-")")
    print("contacts: \(try context.count(Person.self)) in all")

    // Another writer changes Ada after this context read her; this
    // context's edit conflicts, and the documented idiom recovers: roll
    // back, edit again, save.
    let ada = try context.findFirst(Person.self, where: "email == %@", "ada@example.org")
    let other = try Context(store: try Store.open(at: storeURL), model: PeopleModel.loadSchema())
    try other.register(PeopleModel.self)
    let adaThere = try other.findFirst(Person.self, where: "email == %@", "ada@example.org")
    adaThere?.phone = "+44 20 0000"
    try other.save()
    ada?.name = "Augusta Ada"
    do {
        try context.save()
        print("conflict: none (unexpected)")
    } catch ContextError.conflict {
        context.rollback()  // ada now holds the other writer's row
        ada?.name = "Augusta Ada"
        try context.save()
        print("conflict: rolled back, edited again, saved")
    }
    print("  \(listing([ada].compactMap { $0 })[0])")
    try other.store.close()
}
