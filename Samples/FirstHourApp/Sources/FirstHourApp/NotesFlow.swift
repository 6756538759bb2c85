import Foundation
import Strata

/// The notes app in MagicalRecord style: a one-line stack under
/// `$XDG_DATA_HOME`, seeded once from JSON records, newest first, a delete,
/// and a search that finds "Café" for "CAFE".
@MainActor
func runNotes(in folder: URL) throws {
    setenv("XDG_DATA_HOME", folder.path, 1)
    let seed = folder.appendingPathComponent("notes.json")
    try Data(
        #"""
        [
          {"title": "Café au lait", "keywords": "breakfast", "date": "2026-01-03T08:00:00Z"},
          {"title": "Groceries", "keywords": "milk, café beans", "date": "2026-01-05T18:30:00Z"},
          {"title": "Train times", "body": "08:12, 08:42", "date": "2026-01-04T07:00:00Z"},
          {"title": "Ideas", "keywords": "strata", "date": "2026-01-06T21:15:00Z"}
        ]
        """#.utf8
    ).write(to: seed)

    // The whole stack in one line, as MagicalRecord's setupCoreDataStack.
    let context = try StoreContainer(
        model: NotesModel.self, seed: .records(seed, format: .json, entity: "Note")
    ).context
    print("notes: \(try context.count(Note.self)) seeded")
    for note in try context.findAll(Note.self, sortedBy: SortDescriptor("date", ascending: false)) {
        print("  \(note.title ?? "")")
    }
    if let train = try context.findFirst(Note.self, where: "title == %@", "Train times") {
        try context.delete(train)
        try context.save()
    }
    let found = try context.fetch(
        Note.self, where: "title CONTAINS[cd] %@ OR keywords CONTAINS[cd] %@", "CAFE", "CAFE",
        sortedBy: SortDescriptor("title", ascending: true))
    print("search CAFE: " + found.map { $0.title ?? "" }.joined(separator: ", "))

    // A second start finds the store and does not seed it again.
    let again = try StoreContainer(
        model: NotesModel.self, seed: .records(seed, format: .json, entity: "Note")
    ).context
    print("second start: \(try again.count(Note.self)) notes, seeded again: no")
}
