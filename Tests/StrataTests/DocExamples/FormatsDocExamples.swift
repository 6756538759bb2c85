// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore
@testable import StrataFormats

// The examples of the Formats docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum FormatsDocExamples {
    /// From Sources/StrataFormats/Formats/PropertyList/PropertyListRecordReader.swift.
    static func propertyListRecordReader() throws {
        let reader = try PropertyListRecordReader(path: "recipes.plist")
        while let record = try reader.nextRecord() {
            print(record.position, record.fields.map(\.key))
        }
    }

    /// From Sources/StrataFormats/Formats/PropertyList/PropertyListRecordWriter.swift.
    static func propertyListRecordWriter(record: ImportRecord, error: ImportError) throws {
        let rejects = try PropertyListRecordWriter(path: "rejects.plist")
        try rejects.write(record, error: error.description)
        try rejects.close()
    }

    /// From Sources/StrataFormats/Formats/Bundle/BundleError.swift.
    static func bundleError(bundleURL: URL, restoredURL: URL) throws {
        do {
            _ = try BundleUnarchiver(bundle: bundleURL).unarchive(to: restoredURL)
        } catch BundleError.checksumMismatch {
            print("the bundle was changed after it was written")
        }
    }

    /// From Sources/StrataFormats/Formats/Bundle/UnarchiveOptions.swift.
    static func unarchiveOptions(schemasURL: URL, store: Store) throws {
        var options = UnarchiveOptions()
        options.schemas = schemasURL  // migrate to the newest
        options.merges = true          // into an existing store
    }

    /// From Sources/StrataFormats/Formats/Bundle/BundleArchiver.swift.
    static func bundleArchiver(storeURL: URL, bundleURL: URL) throws {
        let store = try Store.open(at: storeURL, mode: .readOnly)
        let model = try store.resolveModel(schemas: nil).requiredModel()
        let summary = try BundleArchiver(store: store, model: model)
            .archive(to: bundleURL)
        _ = summary
    }

    /// From Sources/StrataFormats/Formats/JSON/JSONRecordWriter.swift.
    static func jSONRecordWriter(record: ImportRecord, error: ImportError) throws {
        let rejects = try JSONRecordWriter(path: "rejects.ndjson")
        try rejects.write(record, error: error)
        try rejects.close()
    }

    /// From Sources/StrataFormats/Formats/JSON/JSONRecordReader.swift.
    static func jSONRecordReader() throws {
        let reader = try JSONRecordReader(path: "recipes.json")
        while let record = try reader.nextRecord() {
            print(record.position, record.group ?? "", record.fields.map(\.key))
        }
    }

    /// From Sources/StrataFormats/Formats/Text/TextBlockWriter.swift.
    static func textBlockWriter(record: ImportRecord) throws {
        let rejects = try TextBlockWriter(path: "diary.rejects.txt")
        try rejects.write(record, reason: "line 12: Date: not an ISO 8601 date")
        try rejects.close()
    }

    /// From Sources/StrataFormats/Formats/Import/TextInput.swift.
    static func textInput() throws {
        let input = try TextInput(path: "contacts.csv")
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 20)
        while case let count = try input.read(into: buffer), count > 0 { print(count) }
    }

    /// From Sources/StrataFormats/Formats/Import/Importer.swift.
    static func importer(storeURL: URL, model: Model) throws {
        let store = try Store.open(at: storeURL)
        let reader = try CSVReader(path: "contacts.csv")
        let importer = try Importer(store: store, model: model, options: ImportOptions(entity: "Contact"))
        let summary = try importer.run(reader)
        print(summary.inserted)
    }

    /// From Sources/StrataFormats/Formats/Import/ImportError.swift.
    static func importError(importer: Importer, reader: CSVReader) throws {
        do {
            _ = try importer.run(reader)
        } catch let error as ImportError where error.code == .invalidValue {
            print(error.position.line, error.message)
        }
    }

    /// From Sources/StrataFormats/Formats/Export/MediaType.swift.
    static func mediaType(bytes: Data) throws {
        let type = MediaType.sniff(bytes)     // MediaType(fileExtension: "jpg", isCompressed: true)
        _ = type
    }

    /// From Sources/StrataFormats/Formats/Export/ExportError.swift.
    static func exportError(outputPath: String, exporter: Exporter) throws {
        do {
            _ = try exporter.run(to: outputPath, format: .csv)
        } catch let error as ExportError where error.code == .unknownField {
            print(error.message)
        }
    }

    /// From Sources/StrataFormats/Formats/CSV/CSVDialect.swift.
    static func cSVDialect() throws {
        let semicolons = CSVDialect(delimiter: UInt8(ascii: ";"))
        let contacts = CSVDialect.lines(separatedBy: UInt8(ascii: ";"))  // txt lines
        let guessed = CSVDialect.guess(headerLine: "name;email;phone")   // ";"
        _ = (semicolons, contacts, guessed)
    }

    /// From Sources/StrataFormats/Formats/CSV/CSVReader.swift.
    static func cSVReader() throws {
        let reader = try CSVReader(path: "contacts.csv")
        var names: [String] = []
        while try reader.nextRecord() {
            names.append(String(decoding: reader.field(0), as: UTF8.self))
        }
    }

    /// From Sources/StrataFormats/Formats/Export/ExportProgress.swift.
    static func exportProgress(exporter: Exporter) throws {
        try exporter.run(to: "penguins.csv", format: .csv) { progress in
            print("\(progress.objects) of \(progress.total ?? 0) \(progress.entity)")
        }
    }

    /// From Sources/StrataSchema/Schema/PropertyOrder.swift.
    static func propertyOrder(entity: Entity) {
        let order = PropertyOrder(["name", "email", "age"])
        let arranged = order.arranged(entity.attributes, name: \.name)
        _ = arranged
    }
}
