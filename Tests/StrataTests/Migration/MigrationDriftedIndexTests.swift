import Foundation
import Testing

@testable import Strata
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 16, point 2: a store whose index was made for an `indexed`
/// attribute, under one of Core Data's older names, while the model (re-saved
/// by Xcode) declares a fetch index on the same column. The migration drops
/// the index by the name the store has and creates the model's; the dry run
/// predicts it (rehearsed), so a plan that passes runs.
struct MigrationDriftedIndexTests {
    typealias M = MigrationStepModels

    /// `Book` with the fetch index `byTitleIndex`; version 2 adds `year`.
    static func chain() throws -> SchemaChain {
        func book(_ extra: String) -> String {
            """
            "Author": {"attributes": {"name": {"type": "string", "optional": true}},
                       "relationships": {"books": {"destination": "Book", "inverse": "author",
                                                   "toMany": true, "optional": true}}},
            "Book": {"attributes": {"title": {"type": "string", "optional": true}\(extra)},
                     "relationships": {"author": {"destination": "Author", "inverse": "books",
                                                  "optional": true}},
                     "indexes": [{"name": "byTitleIndex", "elements": [{"property": "title"}]}]}
            """
        }
        return try M.chain(book(""), book(#", "year": {"type": "integer32", "optional": true}"#))
    }

    /// The index of `title` as Core Data named it for `indexed="YES"`:
    /// frameworks 836 and later (`Z_Book_title`, `COLLATE BINARY ASC`) or
    /// 637–754 (`ZBOOK_ZTITLE_INDEX`).
    @Test(arguments: [
        "CREATE INDEX Z_Book_title ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
        "CREATE INDEX ZBOOK_ZTITLE_INDEX ON ZBOOK (ZTITLE)",
    ])
    func testAnIndexUnderAnOlderNameIsDroppedByItsNameAndTheDryRunSaysSo(index: String) throws {
        let chain = try Self.chain()
        let store = try StepTestStore(chain: chain, version: 1) { context in
            try context.make("Book", ["title": .string("Emma")])
        }
        let name = String(index.split(separator: " ")[2])
        try {
            let opened = try Store.open(at: store.url)
            defer { try? opened.close() }  // Every statement commits on its own.
            try opened.connection.execute("DROP INDEX Z_Book_byTitleIndex")
            try opened.connection.execute(index)
        }()
        var options = MigrationOptions()
        options.keepsBackup = false
        let migrator = Migrator(storeAt: store.url, chain: chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty, "\(preview.findings)")
        #expect(preview.rehearsed)
        let sql = preview.stages.flatMap { $0.stage.plan.statements.map(\.sql) }
        #expect(sql.contains("DROP INDEX \(name)"), "\(sql)")
        #expect(!sql.contains("DROP INDEX Z_Book_byTitleIndex"))
        #expect(sql.contains { $0.hasPrefix("CREATE INDEX Z_Book_byTitleIndex ON ZBOOK") })

        try migrator.run()
        #expect(try store.problems(as: 2) == [])
        #expect(try store.indexes(on: "ZBOOK") == ["ZBOOK_ZAUTHOR_INDEX", "Z_Book_byTitleIndex"])
    }
}
