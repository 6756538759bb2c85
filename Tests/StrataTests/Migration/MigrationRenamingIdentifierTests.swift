import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema

/// Renaming identifiers as Core Data pairs them: a destination property
/// continues the source property whose renaming identifier (defaulting to
/// its name) is the same, across a chain, with widenings inferred.
struct MigrationRenamingIdentifierTests {
    typealias M = MigrationStepModels

    /// A messenger's `Conversation`: `isSilenced` (Boolean, identifier
    /// `mutedStatus`) becomes `mutedStatus` (Integer 32) in version 2 and
    /// `muteState` (identifier `mutedStatus`) in version 3; the Boolean
    /// beside it is the lookalike a name-based hint would pick.
    static func chain() throws -> SchemaChain {
        func version(_ muted: String) -> String {
            """
            "Conversation": {"attributes": {\(muted),
                "hasReadReceiptsEnabled": {"type": "boolean", "optional": true}}}
            """
        }
        return try M.chain(
            version(
                #""isSilenced": {"type": "boolean", "optional": true, "renamingIdentifier": "mutedStatus"}"#
            ),
            version(#""mutedStatus": {"type": "integer32", "optional": true}"#),
            version(
                #""muteState": {"type": "integer32", "optional": true, "renamingIdentifier": "mutedStatus"}"#
            ))
    }

    static func fill(_ context: Context) throws {
        for (silenced, receipts) in [(true, false), (false, true), (nil, nil), (true, true)] {
            try context.make(
                "Conversation",
                [
                    "isSilenced": silenced.map { .boolean($0) },
                    "hasReadReceiptsEnabled": receipts.map { .boolean($0) },
                ])
        }
    }

    /// Renamed twice by renaming identifier and widened once: every value
    /// arrives, the plan names the pairing, and no hint points elsewhere.
    @Test func testThreeVersionChainKeepsEveryValue() throws {
        let store = try StepTestStore(chain: try Self.chain(), version: 1, fill: Self.fill)
        #expect(
            try store.summary(from: 1, to: 3) == [
                "inferred rename-attribute Conversation.muteState (was Conversation.isSilenced)",
                "inferred widen-type Conversation.muteState (was Conversation.isSilenced)",
            ])
        let plan = try MigrationPlan(chain: store.chain, from: 1, to: 3)
        let reasons = plan.steps.map(\.reason)
        #expect(reasons.contains(#"renamed from isSilenced (renaming identifier "mutedStatus")"#))
        #expect(reasons.contains("type boolean becomes integer32; every old value fits"))
        #expect(!reasons.contains { $0.contains("did you mean") })
        for (from, to) in [(1, 2), (2, 3)] {
            let steps = try MigrationPlan(chain: store.chain, from: from, to: to).steps
            #expect(!steps.contains { $0.reason.contains("did you mean") })
            #expect(!steps.contains { $0.kind == .removeAttribute || $0.kind == .addAttribute })
        }

        // Strict: nothing is lost, so nothing needs accepting.
        var options = MigrationOptions()
        options.keepsBackup = false
        let migrator = Migrator(storeAt: store.url, chain: store.chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty)
        #expect(preview.rehearsed)
        try migrator.run()
        #expect(try store.problems(as: 3) == [])
        #expect(
            try store.rows("Conversation", as: 3) == [
                "Conversation/p1 hasReadReceiptsEnabled=false muteState=1",
                "Conversation/p2 hasReadReceiptsEnabled=true muteState=0",
                "Conversation/p3 hasReadReceiptsEnabled=nil muteState=nil",
                "Conversation/p4 hasReadReceiptsEnabled=true muteState=1",
            ])
    }

    /// One version at a time gives the same store.
    @Test func testStepwiseChainKeepsEveryValue() throws {
        let store = try StepTestStore(chain: try Self.chain(), version: 1, fill: Self.fill)
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.rows("Conversation", as: 2).first
                == "Conversation/p1 hasReadReceiptsEnabled=false mutedStatus=1")
        try store.migrate(from: 2, to: 3)
        #expect(try store.problems(as: 3) == [])
        #expect(
            try store.rows("Conversation", as: 3).first
                == "Conversation/p1 hasReadReceiptsEnabled=false muteState=1")
    }

    /// An identifier that no longer matches (the property kept its name but
    /// dropped the identifier another property took) pairs as Core Data
    /// does, by identifier, not by name.
    @Test func testPairingFollowsTheIdentifierNotTheName() throws {
        let chain = try M.chain(
            #""Item": {"attributes": {"a": {"type": "string", "optional": true, "renamingIdentifier": "x"}}}"#,
            #""Item": {"attributes": {"b": {"type": "string", "optional": true, "renamingIdentifier": "x"}, "a": {"type": "string", "optional": true}}}"#
        )
        #expect(
            try MigrationPlan(chain: chain, from: 1, to: 2).summary == [
                "inferred add-attribute Item.a", "inferred rename-attribute Item.b (was Item.a)",
            ])
    }

    /// The identifier travels through the schema format and back.
    @Test func testRenamingIdentifierRoundTripsThroughJSON() throws {
        let model = try #require(try Self.chain().model(version: 3))
        let text = try SchemaEncoder().encode(model)
        #expect(text.contains(#""renamingIdentifier": "mutedStatus""#))
        #expect(try SchemaDecoder().decode(text, file: "3.json") == model)
    }

    /// Entities pair the same way: `Chat`, labelled `Conversation`, is the
    /// next version's `Conversation`, and its objects keep their keys.
    @Test func testEntitiesPairByRenamingIdentifier() throws {
        let chain = try M.chain(
            #""Chat": {"renamingIdentifier": "Conversation", "attributes": {"title": {"type": "string", "optional": true}}}"#,
            #""Conversation": {"attributes": {"title": {"type": "string", "optional": true}}}"#)
        let store = try StepTestStore(chain: chain, version: 1) { context in
            try context.make("Chat", ["title": .string("Lunch")])
        }
        let plan = try MigrationPlan(chain: chain, from: 1, to: 2)
        #expect(plan.summary == ["inferred rename-entity Conversation (was Chat)"])
        #expect(
            plan.steps.first?.reason
                == #"renamed from Chat (renaming identifier "Conversation"); its objects keep "#
                + "their keys")
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        #expect(try store.rows("Conversation", as: 2) == [#"Conversation/p1 title="Lunch""#])
    }
}
