import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 26: a rule converted from a Core Data entity mapping with a custom
/// `NSEntityMigrationPolicy` names the class; a migration through it stops
/// before anything is written unless a Swift step stands in for it.
struct MigrationPolicyTests {
    static let mapping = """
        {"format": "strata-mapping/1", "from": 2, "to": 3,
         "entities": {"Document": {"policy": "Docs.LocationPolicy",
                                   "entityMapping": "DocumentToDocument"}}}
        """

    /// A store at version 2 of the Docs chain, with one document.
    static func store(in directory: TemporaryDirectory) throws -> (URL, URL) {
        let folder = try MigrationSpanningMappingTests.folder(
            in: directory, mappings: ["2-3.mapping.json": Self.mapping])
        let chain = try SchemaChain.load(directory: folder)
        let url = directory.file("Docs.sqlite")
        let v2 = try #require(chain.model(version: 2))
        let store = try Store.create(at: url, model: v2)
        let context = try Context(store: store, model: v2)
        try context.insert("Document").set("name", "Plan")
        try context.save()
        try store.close()
        return (folder, url)
    }

    @Test func testARuleWithAPolicyAndNoStepIsRefusedNamingWhatToWrite() throws {
        let directory = try TemporaryDirectory()
        let (folder, url) = try Self.store(in: directory)
        let before = try Data(contentsOf: url)
        let error = try #require(throws: MigrationError.self) {
            try Migrator(storeAt: url, schemas: folder).run()
        }
        #expect(error.code == .invalidMapping)
        #expect(
            error.message.contains(
                "2-3.mapping.json: entity mapping DocumentToDocument (the rule for Document) "
                    + "names the custom migration policy Docs.LocationPolicy"), "\(error.message)")
        #expect(error.message.contains(#"MigrationOptions.policySteps["Docs.LocationPolicy"]"#))
        #expect(try Data(contentsOf: url) == before)
    }

    struct LocationStep: CustomMigrationStep {
        func migrate(_ work: CustomStepWork) throws {
            try work.forEachSourceObject(of: "Document") { _, destination in
                try destination?.setValue(.data(Data([7])), forKey: "location")
            }
        }
    }

    @Test func testAStepRegisteredUnderThePolicysNameRunsAfterTheRule() throws {
        let directory = try TemporaryDirectory()
        let (folder, url) = try Self.store(in: directory)
        var options = MigrationOptions()
        options.policySteps["Docs.LocationPolicy"] = LocationStep()
        try Migrator(storeAt: url, schemas: folder, options: options).run()
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        let context = try Context(
            store: store, model: try SchemaChain.load(directory: folder).newest)
        #expect(
            try context.all("Document").map { try $0.value(forKey: "location") } == [
                .data(Data([7]))
            ])
    }
}
