// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore
@testable import StrataFormats

// The examples of the Store docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum StoreDocExamples {
    /// From Sources/StrataStore/Store/StoreError.swift.
    static func storeError(url: URL, store: Store) throws {
        do {
            _ = try Store.open(at: url)
        } catch StoreError.notFound {
            print("no store yet")
        }
    }

    /// From Sources/StrataStore/Store/StoreReader.swift.
    static func storeReader(store: Store, model: Model) throws {
        let reader = try StoreReader(store: store, model: model)
        try reader.forEachObject(of: "BookmarkEntity") { bookmark in
            print(bookmark.attributes["title"] ?? "-")
        }
    }

    /// From Sources/StrataStore/Store/StoredSchema.swift.
    static func storedSchema(store: Store, model: Model) throws {
        let blob = StoredSchema.pack(model)
        let back = try StoredSchema.unpack(
            blob!, hashes: store.metadata.versionHashes, path: store.path)
        _ = back
    }

    /// From Sources/StrataStore/Store/StoreLock.swift.
    static func storeLock(storeURL: URL) throws {
        let lock = try StoreLock(for: storeURL, mode: .exclusive, waitingUpTo: 30)
        defer { lock.release() }
        print(lock)
    }

    /// From Sources/StrataStore/Store/Store+Check.swift.
    static func storeCheck(url: URL) throws {
        let store = try Store.open(at: url, mode: .readOnly)
        let problems = try store.check(model: try store.resolveModel().requiredModel())
        _ = problems
    }

    /// From Sources/StrataSchema/Schema/Model+Name.swift.
    static func modelPlainName() {
        assert(Model.isPlainName("Recipes"))
        assert(!Model.isPlainName("../../tmp/evil"))
    }

    /// From Sources/StrataStore/Store/StorePath.swift.
    static func storePath() throws {
        let real = try StorePath.resolve(URL(fileURLWithPath: "link.sqlite"))
        _ = real
    }

    /// From Sources/StrataCore/Files/WorkFiles.swift.
    static func workFiles(storeURL: URL) throws {
        WorkFiles.removeLeftovers(of: storeURL)
        let scratch = try WorkFiles.makeFolder(for: storeURL, activity: "importing")
        defer { WorkFiles.remove(scratch) }
        try Data().write(to: scratch.appendingPathComponent("rows"))
    }

    /// From Sources/StrataFormats/Formats/Import/RejectsFile.swift.
    static func rejectsFile(storePath: String, inputPath: String, importer: Importer) throws {
        let rejects = try RejectsFile(
            path: "bad.json", replacing: false, store: storePath, input: inputPath)
        rejects.makeWriter = { path in try JSONRecordWriter(path: path) }
        importer.rejects = rejects
    }

    /// From Sources/StrataStore/Store/StoreLayout.swift.
    static func storeLayout(diary: Model) throws {
        let layout = StoreLayout(model: diary)
        let key = layout.entity(named: "Medium")?.toOneColumns["diaryEntry"]?.foreignKey  // "ZDIARYENTRY"
        print(layout.createStatements.joined(separator: "\n"))
        _ = key
    }

    /// From Sources/StrataStore/Store/Store.swift.
    static func store(url: URL, schemas: URL) throws {
        let store = try Store.open(at: url)
        let model = try store.matchingVersion(in: SchemaChain.load(directory: schemas))
        _ = model
    }

    /// From Sources/StrataStore/Store/Store+Model.swift.
    static func storeModel(store: Store) throws {
        let model = try store.resolveModel().requiredModel()
        _ = model
    }

    /// From Sources/StrataStore/Store/Store+RelationshipCheck.swift.
    static func storeRelationshipCheck(store: Store, model: Model) throws {
        let problems = try store.checkRelationships(model: model)
        for problem in problems { print(problem) }
    }
}
