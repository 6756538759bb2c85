// The photo diary's flows in typed code: entries with media, a search, an
// edit, a cascade delete, a refused empty entry and a sectioned list. The
// classes DiaryEntry, Medium and Tag are generated from Schemas/Diary by
// the StrataModelPlugin. Prints only what does not change between runs.
import Foundation
import Strata

/// `entry`'s media types, sorted.
func mediaSummary(_ entry: DiaryEntry) -> String {
    let types = entry.media.compactMap(\.type).sorted()
    return types.isEmpty ? "no media" : types.joined(separator: ", ")
}

// On the main actor, as main.swift's top level is (Swift 6): a context or
// object kept at the top level would be usable here, though neither is
// Sendable.
@MainActor
func run() throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("diary-app-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    // The generated DiaryModel carries the schema it was generated from:
    // the container makes the store from it, no schema files needed, and
    // registers the classes.
    let container = try StoreContainer(
        model: DiaryModel.self, location: .file(folder.appendingPathComponent("Diary.sqlite")))
    let context = container.context
    print("model: \(DiaryModel.name), \(DiaryModel.entityClasses.count) generated classes")

    // Entries with media.
    let trips: [(title: String, place: String, body: String, media: [String])] = [
        ("Arrival", "France", "Landed in Paris at dawn.", ["image", "sound"]),
        ("Louvre", "France", "A long day in the museum; Paris is huge.", ["image"]),
        ("Colosseum", "Italy", "Rome in the rain.", ["image"]),
        ("Trastevere", "Italy", "Dinner by the river.", []),
    ]
    for trip in trips {
        let entry = DiaryEntry(context: context)
        entry.title = trip.title
        entry.subtitle = trip.place
        entry.body = trip.body
        entry.wordCount = Int32(trip.body.split(separator: " ").count)
        for type in trip.media {
            let medium = Medium(context: context)
            medium.type = type
            medium.data = Data("\(trip.title) \(type)".utf8)
            entry.addToMedia(medium)
        }
    }
    try context.save()
    print(
        "saved \(try context.count(DiaryEntry.self)) entries, "
            + "\(try context.count(Medium.self)) media")

    // Search.
    let paris = try context.fetch(
        DiaryEntry.self, where: "body CONTAINS[cd] %@", "paris", sortedBy: "title")
    for entry in paris {
        print("found: \(entry.title ?? "") (\(mediaSummary(entry)))")
    }

    // Edit.
    if let louvre = paris.first(where: { $0.title == "Louvre" }) {
        louvre.title = "The Louvre"
        louvre.body = (louvre.body ?? "") + " Mona Lisa."
        louvre.wordCount += 2
        try context.save()
    }
    let edited = try context.fetch(DiaryEntry.self, where: "title == %@", "The Louvre")
    print("edited: \(edited.first?.title ?? "missing"), \(edited.first?.wordCount ?? 0) words")

    // Cascade delete: the entry's media go with it.
    if let arrival = try context.fetch(DiaryEntry.self, where: "title == %@", "Arrival")
        .first
    {
        try context.delete(arrival)
        try context.save()
    }
    print(
        "after delete: \(try context.count(DiaryEntry.self)) entries, "
            + "\(try context.count(Medium.self)) media")

    // A refused empty entry: the title is required, checked at save.
    _ = DiaryEntry(context: context)
    do {
        try context.save()
        print("empty entry: saved (unexpected)")
    } catch let error as ValidationError {
        let rules = error.failures.map { "\($0.property ?? "?") \($0.rule)" }
        print("empty entry refused: \(rules.joined(separator: ", "))")
        context.rollback()
    }

    // The sectioned list, by place.
    var request = DiaryEntry.fetchRequest()
    request.sortDescriptors = [SortDescriptor("subtitle"), SortDescriptor("title")]
    let list = try FetchedResults(context: context, request: request, sectionKeyPath: "subtitle")
    try list.performFetch()
    for section in list.sections {
        let titles = section.objects.compactMap { ($0 as? DiaryEntry)?.title }
        print("\(section.name): \(titles.joined(separator: ", "))")
    }
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("DiaryApp: \(error)\n".utf8))
    exit(1)
}
