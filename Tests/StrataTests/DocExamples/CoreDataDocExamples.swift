// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataStore

// The examples of the CoreData docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum CoreDataDocExamples {
    /// From Sources/StrataStore/CoreData/BinaryPropertyList.swift.
    static func binaryPropertyList(data: Data) throws {
        let top = try BinaryPropertyList.decode(data)
        let objects = top["$objects"]?.elements ?? []
        _ = objects
    }

    /// From Sources/StrataStore/CoreData/BinaryPropertyList+Writing.swift.
    static func binaryPropertyListWriting() throws {
        let data = BinaryPropertyList.encode(["NSStoreType": "SQLite"])
        let same = try BinaryPropertyList.decode(data)
        _ = same
    }

    /// From Sources/StrataStore/CoreData/KeyedArchive.swift.
    static func keyedArchive(bytes: Data) throws {
        let archive = try KeyedArchive(data: bytes)
        let root = try archive.topObject()
        let name = try root?.string("NSEntityName")
        _ = name
    }

    /// From Sources/StrataStore/CoreData/XcodeModelReader.swift.
    static func xcodeModelReader() throws {
        let bundle = try XcodeModelReader().read(at: URL(fileURLWithPath: "Model.xcdatamodeld"))
        for model in bundle.versions { print(model.version, model.entities.count) }
    }

    /// From Sources/StrataStore/CoreData/ArchivedObject.swift.
    static func archivedObject(entity: ArchivedObject) throws {
        let name = try entity.string("NSEntityName")
        let properties = try entity.dictionary("NSProperties") ?? []
        _ = (name, properties)
    }

    /// From Sources/StrataStore/CoreData/ModelCache.swift.
    static func modelCache(connection: Connection) throws {
        if let blob = try ModelCache.read(from: connection) {
            let model = try ModelCache.decode(blob, modelName: "Bookmarks")
            print(model.versionHashes)
        }
    }

    /// From Sources/StrataStore/CoreData/XcodeMappingModel.swift.
    static func xcodeMappingModel() throws {
        let model = try XcodeMappingModelReader().read(at: URL(fileURLWithPath: "Model 1-2.xcmappingmodel"))
        for mapping in model.entityMappings { print(mapping.name, mapping.attributeMappings.count) }
    }

    /// From Sources/StrataStore/CoreData/XcodeMappingModelReader.swift.
    static func xcodeMappingModelReader() throws {
        let reader = XcodeMappingModelReader()
        let model = try reader.read(at: URL(fileURLWithPath: "Model 1-2.xcmappingmodel"))
        print(model.entityMappings.map(\.name))
    }

    /// From Sources/StrataStore/CoreData/XcodeModelSnapshotReader.swift.
    static func xcodeModelSnapshotReader(snapshot: Data) throws {
        let model = try XcodeModelSnapshotReader().read(data: snapshot, modelName: "Moody")
        print(model.versionHashes)
    }
}
