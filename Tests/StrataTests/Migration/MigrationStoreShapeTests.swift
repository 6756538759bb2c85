import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Migrations of stores shaped as Core Data left them rather than as
/// Strata computes them: reflexive join tables named after the other
/// relationship, indexes named by an older framework. The dry run agrees
/// with the run on each.
struct MigrationStoreShapeTests {
    typealias M = MigrationStepModels

    static let client = """
        "Client": {"attributes": {"label": {"type": "string", "optional": true}},
                   "relationships": {
                     "trustedClients": {"destination": "Client", "inverse": "trustedByClients",
                                        "toMany": true, "optional": true},
                     "trustedByClients": {"destination": "Client", "inverse": "trustedClients",
                                          "toMany": true, "optional": true}}}
        """

    /// Version 2 either renumbers Client (a new entity sorts first) or only
    /// adds an attribute.
    static func reflexiveChain(renumbers: Bool) throws -> SchemaChain {
        try M.chain(
            client,
            renumbers
                ? client
                    + #", "Account": {"attributes": {"name": {"type": "string", "optional": true}}}"#
                : client.replacingOccurrences(
                    of: #""label": {"type": "string", "optional": true}"#,
                    with:
                        #""label": {"type": "string", "optional": true}, "note": {"type": "string", "optional": true}"#
                ))
    }

    static func fillClients(_ context: Context) throws {
        let a = try context.make("Client", ["label": .string("a")])
        let b = try context.make("Client", ["label": .string("b")])
        let c = try context.make("Client", ["label": .string("c")])
        try a.add(b, to: "trustedClients")
        try a.add(c, to: "trustedClients")
        try b.add(c, to: "trustedClients")
    }

    static let clients = [
        #"Client/p1 label="a" trustedByClients=[] trustedClients=[Client/p2, Client/p3]"#,
        #"Client/p2 label="b" trustedByClients=[Client/p1] trustedClients=[Client/p3]"#,
        #"Client/p3 label="c" trustedByClients=[Client/p1, Client/p2] trustedClients=[]"#,
    ]

    /// Renames the store's join table to the name after the other
    /// relationship of the pair, with its index, as Core Data's migrations
    /// leave some stores (`Z_25TRUSTEDBYCLIENTS`).
    static func nameAfterTheOtherSide(_ store: StepTestStore) throws {
        let opened = try Store.open(at: store.url)
        defer { try? opened.close() }  // Every statement below commits on its own.
        for sql in [
            "ALTER TABLE Z_1TRUSTEDCLIENTS RENAME TO Z_1TRUSTEDBYCLIENTS",
            "DROP INDEX Z_1TRUSTEDCLIENTS_Z_1TRUSTEDCLIENTS_INDEX",
            "CREATE INDEX Z_1TRUSTEDBYCLIENTS_Z_1TRUSTEDBYCLIENTS_INDEX ON Z_1TRUSTEDBYCLIENTS "
                + "(Z_1TRUSTEDBYCLIENTS, Z_1TRUSTEDCLIENTS)",
        ] {
            try opened.connection.execute(sql)
        }
    }

    /// The store's table is found by its two columns: the dry run passes
    /// (rehearsed), the run gives a sound store with every link, in the
    /// table a new store has.
    @Test(arguments: [true, false])
    func testReflexiveTableNamedAfterTheOtherSideMigrates(renumbers: Bool) throws {
        let chain = try Self.reflexiveChain(renumbers: renumbers)
        let store = try StepTestStore(chain: chain, version: 1, fill: Self.fillClients)
        try Self.nameAfterTheOtherSide(store)
        #expect(try store.rows("Client", as: 1) == Self.clients)

        var options = MigrationOptions()
        options.keepsBackup = false
        let migrator = Migrator(storeAt: store.url, chain: chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty)
        #expect(preview.rehearsed)
        let sql = preview.stages.flatMap { $0.stage.plan.statements.map(\.sql) }
        #expect(sql.contains { $0.contains(#"FROM Z_1TRUSTEDBYCLIENTS"#) })
        #expect(!sql.contains { $0.contains("FROM Z_1TRUSTEDCLIENTS") })
        try migrator.run()
        #expect(try store.problems(as: 2) == [])
        let rows = try store.rows("Client", as: 2).map {
            $0.replacingOccurrences(of: " note=nil", with: "")
        }
        #expect(rows == Self.clients)
    }

    /// A join table under neither name stops the dry run and the run before
    /// anything is written, naming both names and the columns.
    @Test func testMissingJoinTableIsALocatedErrorAndChangesNothing() throws {
        let chain = try Self.reflexiveChain(renumbers: true)
        let store = try StepTestStore(chain: chain, version: 1, fill: Self.fillClients)
        do {
            let opened = try Store.open(at: store.url)
            defer { try? opened.close() }  // The drop commits on its own.
            try opened.connection.execute("DROP TABLE Z_1TRUSTEDCLIENTS")
            _ = try? opened.connection.walCheckpoint(truncate: true)  // Bytes to compare.
        }
        let before = try Data(contentsOf: store.url)
        var options = MigrationOptions()
        options.keepsBackup = false
        let migrator = Migrator(storeAt: store.url, chain: chain, options: options)
        for attempt in ["preview", "run"] {
            let error = #expect(throws: MigrationError.self, "\(attempt)") {
                if attempt == "preview" { _ = try migrator.preview() } else { try migrator.run() }
            }
            #expect(error?.code == .structureMismatch)
            #expect(
                error?.message.contains(
                    "no table has both columns Z_1TRUSTEDBYCLIENTS and Z_1TRUSTEDCLIENTS "
                        + "(expected under Z_1TRUSTEDCLIENTS or Z_1TRUSTEDBYCLIENTS)") == true)
            #expect(error?.message.contains("nothing was changed") == true)
        }
        #expect(try Data(contentsOf: store.url) == before)
    }

    // MARK: - Index names of older frameworks

    static func books(indexed: Bool, year: Bool) -> String {
        M.library(
            bookAttributes: """
                "title": {"type": "string", "optional": true, "indexed": \(indexed)}
                """ + (year ? #", "year": {"type": "integer32", "optional": true}"# : ""))
    }

    /// Replaces the recent-style index of `Book.title` by framework 754's
    /// `ZBOOK_ZTITLE_INDEX`, as a store Core Data made years ago has it.
    static func useOldIndexName(_ store: StepTestStore) throws {
        let opened = try Store.open(at: store.url)
        defer { try? opened.close() }  // Every statement below commits on its own.
        try opened.connection.execute("DROP INDEX Z_Book_title")
        try opened.connection.execute("CREATE INDEX ZBOOK_ZTITLE_INDEX ON ZBOOK (ZTITLE)")
    }

    /// Dropping the index drops it by the name the store has; keeping it
    /// leaves the store with the recent name a new store has. Both dry runs
    /// pass because both runs do.
    @Test(arguments: [false, true])
    func testOldIndexNamesAreTakenFromTheStore(keepsIndex: Bool) throws {
        let chain = try M.chain(
            Self.books(indexed: true, year: false), Self.books(indexed: keepsIndex, year: true))
        let store = try StepTestStore(chain: chain, version: 1) { context in
            try context.make("Book", ["title": .string("Emma")])
        }
        try Self.useOldIndexName(store)
        var options = MigrationOptions()
        options.keepsBackup = false
        let migrator = Migrator(storeAt: store.url, chain: chain, options: options)
        let preview = try migrator.preview()
        #expect(preview.blockingFindings.isEmpty)
        #expect(preview.rehearsed)
        let sql = preview.stages.flatMap { $0.stage.plan.statements.map(\.sql) }
        #expect(sql.contains("DROP INDEX ZBOOK_ZTITLE_INDEX"))
        #expect(!sql.contains("DROP INDEX Z_Book_title"))
        try migrator.run()
        #expect(try store.problems(as: 2) == [])
        #expect(
            try store.indexes(on: "ZBOOK")
                == (keepsIndex ? ["ZBOOK_ZAUTHOR_INDEX", "Z_Book_title"] : ["ZBOOK_ZAUTHOR_INDEX"]))
    }

    /// Indexes a migration creates have the recent style's exact text; here
    /// the table is rebuilt (`year` widens from INTEGER to FLOAT).
    @Test func testMigrationsKeepTheRecentStyle() throws {
        let chain = try M.chain(
            Self.books(indexed: false, year: true),
            M.library(
                bookAttributes: """
                    "title": {"type": "string", "optional": true, "indexed": true},
                    "year": {"type": "double", "optional": true, "indexed": true}
                    """))
        let store = try StepTestStore(chain: chain, version: 1) { context in
            try context.make("Book", ["title": .string("Emma"), "year": .integer(1815)])
        }
        try store.migrate(from: 1, to: 2)
        #expect(try store.problems(as: 2) == [])
        let opened = try Store.open(at: store.url)
        defer { try? opened.close() }  // Reading only.
        var statements: [String] = []
        try opened.connection.prepare(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZBOOK' ORDER BY name"
        ).forEachRow { statements.append($0.text(at: 0) ?? "") }
        #expect(
            statements == [
                "CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)",
                "CREATE INDEX Z_Book_title ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
                "CREATE INDEX Z_Book_year ON ZBOOK (ZYEAR COLLATE BINARY ASC)",
            ])
    }
}
