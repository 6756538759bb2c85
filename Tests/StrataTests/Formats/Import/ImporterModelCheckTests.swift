import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// An import writes rows shaped by its model: a model whose version hashes
/// are not the store's is refused before anything is read.
struct ImporterModelCheckTests {
    @Test func testImporterRefusesAnotherVersionNamingBoth() throws {
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent("Diary"))
        let fixture = try ContextFixture("Diary", version: 3)
        let older = try #require(chain.model(version: 1))
        let error = try #require(throws: StoreError.self) {
            try Importer(store: fixture.store, model: older, options: ImportOptions())
        }
        #expect(error.code == .unknownVersion)
        #expect(error.message.contains("the store holds Diary version 3"))
        #expect(error.message.contains("the model is Diary version 1"))
        _ = try Importer(store: fixture.store, model: fixture.model, options: ImportOptions())
    }
}
