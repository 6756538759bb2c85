import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

/// Text that differs only in Unicode form ("café" with é as one scalar,
/// "cafe\u{301}") is two values to the store, so it is two values to the
/// context: setting one over the other is a change, and it is saved.
struct ContextUnicodeFormTests {
    @Test func attributeValuesCompareTextByItsBytes() {
        let composed = AttributeValue.string("caf\u{E9}")
        let decomposed = AttributeValue.string("cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed, composed]).count == 2)
        #expect(PredicateValue.string("caf\u{E9}") != PredicateValue.string("cafe\u{301}"))
        #expect(
            PredicateValue.array([.string("a"), .integer(1)])
                == PredicateValue.array([.string("a"), .integer(1)]))
    }

    @Test func settingTheOtherFormIsAChangeThatIsSaved() throws {
        let folder = try TemporaryDirectory()
        let model = try SchemaDecoder().decode(
            """
            {"format": "strata-schema/1", "model": "Forms", "version": 1,
             "entities": {"Note": {"attributes": {"body": {"type": "string"}}}}}
            """, file: "1.json")
        let store = try Store.create(at: folder.file("Forms.sqlite"), model: model)
        defer { try? store.close() }
        let context = try Context(store: store, model: model)
        let note = try context.insert("Note")
        try note.set("body", "caf\u{E9}")
        try context.save()
        try note.set("body", "cafe\u{301}")
        #expect(context.hasChanges)
        try context.save()
        let hex = try store.connection.scalar("SELECT hex(ZBODY) FROM ZNOTE")
        #expect(hex == .text("63616665CC81"))
    }
}
