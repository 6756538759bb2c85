import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 25, point 1: a long real history migrates as Core Data would —
/// every object its direct mapping keeps is kept — whatever a version in
/// between carries, and `asCoreData` matches the two ends only, saying
/// where that loses what the default mode keeps.
struct MigrationLongHistoryTests {
    /// `Conversation {title?}` and `Message {text, conversation?}` at
    /// `version`; `extra` entity JSON members replace Conversation's.
    private static func model(_ version: Int, conversation: String? = nil) throws -> Model {
        let conversation =
            conversation
            ?? #"{"attributes": {"title": {"type": "string", "optional": true}}, "relationships": {"messages": {"destination": "Message", "toMany": true, "inverse": "conversation", "optional": true}}}"#
        let messageExtra =
            version >= 2 ? #", "read": {"type": "boolean", "optional": true}"# : ""
        return try MappingTestSupport.model(
            "Chat", version,
            #"{"Conversation": \#(conversation), "Message": {"attributes": {"text": {"type": "string"}\#(messageExtra)}, "relationships": {"conversation": {"destination": "Conversation", "inverse": "messages", "optional": true}}}}"#
        )
    }

    /// A version-1 store with three conversations of two messages each.
    private static func store(at url: URL, model: Model) throws {
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        for index in 1...3 {
            let conversation = try context.insert("Conversation")
            try conversation.set("title", "Chat \(index)")
            for line in 1...2 {
                let message = try context.insert("Message")
                try message.set("text", "Line \(index).\(line)")
                try message.setObject(conversation, forKey: "conversation")
            }
        }
        try context.save()
        try store.close()
    }

    private static func titles(of url: URL, model: Model) throws -> [String] {
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Read only.
        let context = try Context(store: store, model: model)
        return try context.all("Conversation").compactMap { try $0.string("title") }.sorted()
    }

    /// Version 3 carries a stray renaming identifier on the entity
    /// `Conversation` (naming an attribute version 4 adds, as a real app's
    /// history has it); it names nothing of version 2. Migrated from 1 to
    /// 5, in both modes, every conversation and its links are kept, and the
    /// plan warns about the identifier.
    @Test(arguments: [false, true])
    func testAStrayEntityIdentifierBetweenLosesNothing(asCoreData: Bool) throws {
        let stray =
            #"{"renamingIdentifier": "messageDestructionTimeout", "attributes": {"title": {"type": "string", "optional": true}}, "relationships": {"messages": {"destination": "Message", "toMany": true, "inverse": "conversation", "optional": true}}}"#
        let later =
            #"{"attributes": {"title": {"type": "string", "optional": true}, "messageDestructionTimeout": {"type": "double", "optional": true}}, "relationships": {"messages": {"destination": "Message", "toMany": true, "inverse": "conversation", "optional": true}}}"#
        let chain = SchemaChain(versions: [
            try Self.model(1), try Self.model(2), try Self.model(3, conversation: stray),
            try Self.model(4, conversation: later), try Self.model(5, conversation: later),
        ])
        let folder = try TemporaryDirectory()
        let url = folder.file("Chat.sqlite")
        try Self.store(at: url, model: chain.versions[0])

        var options = MigrationOptions()
        options.asCoreData = asCoreData
        let migrator = Migrator(storeAt: url, chain: chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")
        #expect(
            !preview.stages.flatMap(\.steps).contains { $0.step.kind == .removeEntity },
            "\(preview.stages.flatMap(\.steps).map(\.step))")
        let warning = try #require(preview.findings.first { $0.severity == .warning })
        #expect(warning.step == "Conversation")
        #expect(warning.message.contains("'messageDestructionTimeout'"))
        #expect(warning.message.contains("names nothing of version 2"))

        let report = try migrator.run()
        #expect(report.finalVersion == 5)
        #expect(report.accepted.isEmpty, "\(report.accepted)")
        #expect(try Self.titles(of: url, model: chain.newest) == ["Chat 1", "Chat 2", "Chat 3"])
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Read only.
        let linked = try store.connection.scalar(
            "SELECT COUNT(*) FROM ZMESSAGE WHERE ZCONVERSATION IS NOT NULL")
        #expect(linked == .integer(6))
    }

    /// `title` is renamed `heading` in version 2 (its renaming identifier
    /// `title`), and version 3's `heading` no longer carries it. The default
    /// mode follows the rename through version 2 and keeps the values;
    /// Core Data matches 1 and 3 directly, pairs nothing with `heading`,
    /// and drops them — so does `asCoreData`, and it says why.
    @Test func testARenameOnlyAVersionBetweenRecordsIsKeptByDefaultOnly() throws {
        func version(_ number: Int, _ attribute: String) throws -> Model {
            try MappingTestSupport.model(
                "Notes", number, #"{"Note": {"attributes": {\#(attribute)}}}"#)
        }
        let chain = SchemaChain(versions: [
            try version(1, #""title": {"type": "string", "optional": true}"#),
            try version(
                2,
                #""heading": {"type": "string", "optional": true, "renamingIdentifier": "title"}"#),
            try version(3, #""heading": {"type": "string", "optional": true}"#),
        ])
        func migrated(asCoreData: Bool) throws -> ([String?], MigrationPreview) {
            let folder = try TemporaryDirectory()
            let url = folder.file("Notes.sqlite")
            let first = chain.versions[0]
            let store = try Store.create(at: url, model: first)
            let context = try Context(store: store, model: first)
            for title in ["A", "B"] { try context.insert("Note").set("title", title) }
            _ = folder
            try context.save()
            try store.close()
            var options = MigrationOptions()
            options.asCoreData = asCoreData
            let migrator = Migrator(storeAt: url, chain: chain, options: options)
            let preview = try migrator.preview()
            try migrator.run()
            let after = try Store.open(at: url)
            defer { try? after.close() }  // Read only.
            let notes = try Context(store: after, model: chain.newest).all("Note")
            let headings = try notes.map { try $0.string("heading") }
            return (headings.sorted { ($0 ?? "") < ($1 ?? "") }, preview)
        }
        let (kept, _) = try migrated(asCoreData: false)
        #expect(kept == ["A", "B"])
        let (dropped, preview) = try migrated(asCoreData: true)
        #expect(dropped == [nil, nil])
        let note = try #require(preview.findings.first { $0.step == "Note.heading" })
        #expect(note.severity == .note)
        #expect(note.message.contains("continues Note.title of version 1 only through a rename"))
        #expect(note.message.contains("without --as-core-data they are kept"))
    }
}
