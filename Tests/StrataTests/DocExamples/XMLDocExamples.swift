// swift-format-ignore-file
// Each block is a verbatim copy of a doc example, laid out as the docs lay it out.

import Foundation
import Testing

@testable import Strata
@testable import StrataCore

// The examples of the XML docs, as written there (DocExampleCoverageTests
// checks that each block is here); compiled, not run.
enum XMLDocExamples {
    /// From Sources/StrataCore/XML/XMLElement+Navigation.swift.
    static func xMLElementNavigation(model: XMLDocument) throws {
        let indexes = model.root.descendants(named: "fetchIndexElement")
        _ = indexes
    }

    /// From Sources/StrataCore/XML/XMLElement.swift.
    static func xMLElement(contentsURL: URL) throws {
        let document = try XMLDocument(contentsOf: contentsURL)
        for entity in document.root.children(named: "entity") {
            print(entity[attribute: "name"] ?? "?", entity.line)
        }
    }

    /// From Sources/StrataCore/XML/XMLStreamReader.swift.
    static func xMLStreamReader(plistURL: URL) throws {
        let reader = try XMLStreamReader(contentsOf: plistURL)
        while let event = try reader.next() {
            if case .startElement(let name, _, let line) = event { print(name, line) }
        }
    }

    /// From Sources/StrataCore/XML/XMLDocument.swift.
    static func xMLDocument(modelURL: URL) throws {
        let document = try XMLDocument(contentsOf: modelURL.appending(path: "contents"))
        let entities = document.root.children(named: "entity")
        _ = entities
    }
}
