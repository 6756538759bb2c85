import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// A fresh store for one of the bundled models (`Schemas/<name>`), in a
/// throwaway folder, with a context on it.
struct ContextFixture {
    let folder: TemporaryDirectory
    let store: Store
    let model: Model
    let context: Context

    static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schemas")

    /// A store for version `version` of a bundled model: version 1 by
    /// default, the shape these tests were written for (later versions
    /// rename and add attributes; migration tests cover them).
    init(_ name: String, version: Int = 1) throws {
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent(name))
        try self.init(model: try #require(chain.model(version: version)))
    }

    init(model: Model) throws {
        folder = try TemporaryDirectory()
        self.model = model
        store = try Store.create(at: folder.file("\(model.name).sqlite"), model: model)
        context = try Context(store: store, model: model)
    }

    /// A second context on a second connection to the same file.
    func secondContext() throws -> (Store, Context) {
        let other = try Store.open(at: store.url)
        return (other, try Context(store: other, model: model))
    }

    /// A context on a fresh connection, as after relaunching the app.
    func reopened() throws -> Context {
        try Context(store: try Store.open(at: store.url), model: model)
    }

    /// Expects the store file to be sound: SQLite's integrity check passes
    /// and every reference between rows holds.
    func expectSound(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.connection.integrityCheck() == ["ok"], sourceLocation: sourceLocation)
        #expect(
            try store.checkRelationships(model: model).map(\.description) == [],
            sourceLocation: sourceLocation)
    }

    /// One integer read with plain SQL (nil for NULL or no row).
    func integer(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64? {
        try store.connection.scalar(sql, arguments)?.int64Value
    }

    /// Every row of a query's integer columns, with plain SQL.
    func integerRows(_ sql: String) throws -> [[Int64?]] {
        var rows: [[Int64?]] = []
        try store.connection.prepare(sql).forEachRow { row in
            rows.append(
                (0..<row.columnCount).map { row.isNull(at: $0) ? nil : row.int64(at: $0) })
        }
        return rows
    }

    /// `Z_MAX` of the root entity `name`.
    func maxKey(_ name: String) throws -> Int64? {
        try integer("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(name)])
    }

    /// Row count of a table, read with plain SQL.
    func rows(_ table: String) throws -> Int64 {
        try store.connection.scalar("SELECT COUNT(*) FROM \(table)")?.int64Value ?? -1
    }
}
