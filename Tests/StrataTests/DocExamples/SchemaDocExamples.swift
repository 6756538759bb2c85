// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataSchema

// The examples of the Schema docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum SchemaDocExamples {
    /// From Sources/StrataSchema/Schema/SchemaChain.swift.
    static func schemaChain() throws {
        let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "Schemas/Diary"))
        print(chain.newest.version)
    }

    /// From Sources/StrataSchema/Schema/JSONSyntaxError.swift.
    static func jSONSyntaxError() throws {
        do { _ = try JSONReader.parse("{\"a\" 1}") }
        catch { print(error) }  // 1:6: expected ':' after object key, found '1'
    }

    /// From Sources/StrataSchema/Schema/SchemaDecoder.swift.
    static func schemaDecoder(data: Data) throws {
        let model = try SchemaDecoder().decode(data, file: "Schemas/Diary/2.json")
        _ = model
    }

    /// From Sources/StrataSchema/Schema/JSONReader.swift.
    static func jSONReader() throws {
        let node = try JSONReader.parse(#"{"version": 2}"#)
        let version = node["version"]?.value  // .integer(2), at line 1, column 13
        _ = version
    }

    /// From Sources/StrataSchema/Schema/FetchIndex.swift.
    static func fetchIndex() throws {
        let byURL = FetchIndex(name: "byURL", elements: [.init(property: "url")])
        _ = byURL
    }

    /// From Sources/StrataCodegen/Codegen/SwiftClassGenerator.swift.
    static func swiftClassGeneratorRenamings(model: Model) {
        for warning in SwiftClassGenerator().renamings(model, file: "1.json") {
            print("warning: \(warning)")  // …names its property descriptionProperty
        }
    }
}
