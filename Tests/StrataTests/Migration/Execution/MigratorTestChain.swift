import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// A three-version Notes chain written into a folder, and stores of it with
/// known rows, for the executor's tests.
///
/// - v1: `Notebook {name}`, `Note {title, body?, keywords?, notebook?}`.
/// - v2: `Note.body` renamed `text`, `Note.pinned` added (default false),
///   `Note.keywords` removed (lossy).
/// - v3: `Notebook.color` added (default "blue"), `Note.summary` added,
///   required without a default (needs a mapping or a custom step).
struct MigratorTestChain {
    let folder: URL

    init(in directory: TemporaryDirectory, versions: Int = 3) throws {
        folder = directory.file("Schemas/Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for version in 1...versions {
            try Data(Self.schema(version).utf8)
                .write(to: folder.appendingPathComponent("\(version).json"))
        }
    }

    var chain: SchemaChain { get throws { try SchemaChain.load(directory: folder) } }

    /// A fresh folder with the chain and a version-1 store `Notes.sqlite`
    /// made by ``makeStore(at:notes:)``.
    static func populated(
        versions: Int = 3, notes: Int = 5
    ) throws -> (TemporaryDirectory, MigratorTestChain, URL) {
        let directory = try TemporaryDirectory()
        let setup = try MigratorTestChain(in: directory, versions: versions)
        let url = directory.file("Notes.sqlite")
        try setup.makeStore(at: url, notes: notes)
        return (directory, setup, url)
    }

    /// A v1 store with two notebooks and `notes` notes: note `i` is titled
    /// `Note i`, has body `Body i` for odd `i`, keywords for `i` divisible by
    /// three, and belongs to notebook `i % 2`.
    func makeStore(at url: URL, notes: Int = 5) throws {
        let model = try #require(try chain.model(version: 1))
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        var books: [ManagedObject] = []
        for name in ["Work", "Home"] {
            let book = try context.insert("Notebook")
            try book.set("name", name)
            books.append(book)
        }
        for index in 1...max(notes, 1) where notes > 0 {
            let note = try context.insert("Note")
            try note.set("title", "Note \(index)")
            if index % 2 == 1 { try note.set("body", "Body \(index)") }
            if index % 3 == 0 { try note.set("keywords", "k\(index)") }
            try note.setObject(books[index % 2], forKey: "notebook")
        }
        try context.save()
        try store.close()
    }

    static func schema(_ version: Int) -> String {
        let noteAttributes: String
        let bookAttributes: String
        switch version {
        case 1:
            noteAttributes = """
                "title": { "type": "string" },
                "body": { "type": "string", "optional": true },
                "keywords": { "type": "string", "optional": true }
                """
            bookAttributes = #""name": { "type": "string" }"#
        case 2:
            noteAttributes = """
                "title": { "type": "string" },
                "text": { "type": "string", "optional": true, "renamedFrom": "body" },
                "pinned": { "type": "boolean", "default": false }
                """
            bookAttributes = #""name": { "type": "string" }"#
        default:
            noteAttributes = """
                "title": { "type": "string" },
                "text": { "type": "string", "optional": true },
                "pinned": { "type": "boolean", "default": false },
                "summary": { "type": "string" }
                """
            bookAttributes = """
                "name": { "type": "string" },
                "color": { "type": "string", "default": "blue" }
                """
        }
        return """
            {
              "format": "strata-schema/1", "model": "Notes", "version": \(version),
              "versionIdentifier": "\(version).0",
              "entities": {
                "Notebook": {
                  "attributes": { \(bookAttributes) },
                  "relationships": {
                    "notes": {
                      "destination": "Note", "inverse": "notebook", "toMany": true, "optional": true
                    }
                  }
                },
                "Note": {
                  "attributes": { \(noteAttributes) },
                  "relationships": {
                    "notebook": { "destination": "Notebook", "inverse": "notes", "optional": true }
                  }
                }
              }
            }
            """
    }
}

/// Fills `Note.summary` from the title, as a Swift custom step.
struct SummaryStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {
        try work.forEachSourceObject(of: "Note") { note, destination in
            let title = try note.string("title") ?? ""
            try destination?.set("summary", "About \(title)")
        }
    }
}

/// A custom step that fails, to interrupt a run.
struct FailingStep: CustomMigrationStep {
    struct Failure: Error {}
    func migrate(_ work: CustomStepWork) throws { throw Failure() }
}

/// A custom step that claims to resolve everything and does nothing.
struct IdleStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {}
}
