import Foundation
import StrataCore

/// The records of an XML property list, built from the events of an
/// ``XMLStreamReader`` one record at a time.
///
/// This file follows the document around the records (the `<plist>`
/// wrapper, the root array or dict, the group arrays); the values of one
/// record are read in `XMLPropertyListRecords+Values.swift`. The elements
/// and their content are those of Apple's `PropertyList-1.0.dtd`; a
/// `<plist>` wrapper is optional, as it is for Apple's parser.
final class XMLPropertyListRecords: PropertyListRecordSource {
    /// Where the reader is in the document, between records.
    private enum State {
        /// Before the document element.
        case prolog
        /// Inside `<plist>`, before its value.
        case rootValue
        /// Inside the root array, before element `index`.
        case rootArray(index: Int)
        /// Inside the root dict, before a key.
        case rootDict
        /// Inside the root dict, after `key`, before its value.
        case groupValue(key: String)
        /// Inside the array of `key` in the root dict, before element `index`.
        case groupArray(key: String, index: Int)
        /// After the root value.
        case afterRoot
        /// After the end of the document.
        case finished
    }

    let file: String
    let limits: ImportLimits
    let reader: XMLStreamReader
    /// The elements started and not yet ended.
    private(set) var openDepth = 0
    /// 1 inside a `<plist>` wrapper, else 0: the root container's nesting
    /// level is 1 either way.
    private var wrapperDepth = 0
    private var state = State.prolog
    /// The error that stopped the reader; every later call throws it.
    private(set) var failure: ImportError?
    /// Where the record being read starts, for its size limit.
    private var recordStart: Int64?

    /// Opens the file; nothing is parsed yet.
    init(file: String, limits: ImportLimits) throws {
        self.file = file
        self.limits = limits
        do {
            reader = try XMLStreamReader(contentsOf: URL(fileURLWithPath: file))
        } catch let error as XMLError {
            throw ImportError(.unreadable, at: SourcePosition(file: file), error.message)
        }
    }

    var bytesRead: Int64 { reader.bytesRead }

    func nextRecord() throws -> ImportRecord? {
        if let failure { throw failure }
        while true {
            switch state {
            case .prolog:
                guard let kind = try next(nil) else { return finish() }
                guard kind == .startElement else { continue }
                if reader.currentName == "plist" {
                    wrapperDepth = 1
                    state = .rootValue
                } else {
                    try beginRoot()
                }
            case .rootValue:
                guard let kind = try next(nil) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "plist", keyPath: nil)
                case .endElement:
                    throw fail(
                        .structure, at: position(nil),
                        "the plist holds no value; expected an array of dicts"
                            + " or a dict of arrays of dicts")
                case .startElement: try beginRoot()
                }
            case .rootArray(let index):
                let keyPath = "[\(index)]"
                guard let kind = try next(keyPath) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "array", keyPath: keyPath)
                case .endElement: state = .afterRoot
                case .startElement:
                    state = .rootArray(index: index + 1)
                    return try record(keyPath: keyPath, group: nil, nesting: 2)
                }
            case .rootDict:
                guard let kind = try next(nil) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "dict", keyPath: nil)
                case .endElement: state = .afterRoot
                case .startElement:
                    let name = reader.currentName
                    guard name == "key" else {
                        let place = position(nil)
                        try skip(to: openDepth - 1)
                        throw missingKey(before: name, at: place)
                    }
                    state = .groupValue(key: try keyText(keyPath: nil))
                }
            case .groupValue(let key):
                guard let kind = try next(key) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "dict", keyPath: key)
                case .endElement:
                    state = .afterRoot
                    throw ImportError(.syntax, at: position(key), "key \(key) has no value")
                case .startElement:
                    let name = reader.currentName
                    if name == "array" {
                        state = .rootDict
                        guard 2 <= limits.maximumDepth else {
                            let place = position(key)
                            try skip(to: openDepth - 1)
                            throw tooDeep(at: place)
                        }
                        state = .groupArray(key: key, index: 0)
                    } else if name == "key" {
                        let place = position(key)
                        state = .groupValue(key: try keyText(keyPath: nil))
                        throw ImportError(.syntax, at: place, "key \(key) has no value")
                    } else {
                        let place = position(key)
                        state = .rootDict
                        try skip(to: openDepth - 1)
                        throw ImportError(
                            Self.isValueElement(name) ? .structure : .syntax, at: place,
                            "\(Self.describe(name)) at \(key); every value of the root dict"
                                + " must be an array of dicts (records)")
                    }
                }
            case .groupArray(let key, let index):
                let keyPath = "\(key)[\(index)]"
                guard let kind = try next(keyPath) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "array", keyPath: keyPath)
                case .endElement: state = .rootDict
                case .startElement:
                    state = .groupArray(key: key, index: index + 1)
                    return try record(keyPath: keyPath, group: key, nesting: 3)
                }
            case .afterRoot:
                guard let kind = try next(nil) else { return finish() }
                switch kind {
                case .text: try requireWhitespace(in: "plist", keyPath: nil)
                case .endElement: continue
                case .startElement:
                    throw fail(
                        .structure, at: position(nil),
                        "the plist holds a second value, \(Self.describe(reader.currentName));"
                            + " a plist holds one")
                }
            case .finished:
                return nil
            }
        }
    }

    // MARK: - Root and records

    /// Looks at the root value, whose start tag was just read.
    private func beginRoot() throws {
        let name = reader.currentName
        switch name {
        case "array", "dict":
            guard 1 <= limits.maximumDepth else { throw fail(tooDeep(at: position(nil))) }
            state = name == "array" ? .rootArray(index: 0) : .rootDict
        default:
            throw fail(
                Self.isValueElement(name) ? .structure : .syntax, at: position(nil),
                "the root is \(Self.describe(name)); expected an array of dicts (records)"
                    + " or a dict of arrays of dicts")
        }
    }

    /// Reads the record whose start tag was just read, or skips the value
    /// and throws when it is not a dict.
    ///
    /// - Parameter nesting: The record dict's nesting level: 2 in a root
    ///   array, 3 in an array of a root dict.
    private func record(keyPath: String, group: String?, nesting: Int) throws -> ImportRecord {
        let place = position(keyPath)
        let depthBefore = openDepth - 1
        let name = reader.currentName
        guard name == "dict" else {
            try skip(to: depthBefore)
            throw ImportError(
                Self.isValueElement(name) ? .structure : .syntax, at: place,
                "\(Self.describe(name)) at \(keyPath); expected a dict (a record)")
        }
        recordStart = place.byteOffset
        defer { recordStart = nil }
        do {
            let fields = try dictionaryFields(keyPath: keyPath, nesting: nesting, at: place)
            return ImportRecord(fields: fields, position: place, group: group)
        } catch let error as ImportError where failure == nil {
            // The document is still well-formed: skip to the end of the
            // record, so the next call reads the next one.
            recordStart = nil
            try skip(to: depthBefore)
            throw error
        }
    }

    /// Reads events until only `depth` elements are open.
    private func skip(to depth: Int) throws {
        while openDepth > depth {
            guard try next(nil) != nil else { return }
        }
    }

    /// Ends the reading at the end of the document.
    private func finish() -> ImportRecord? {
        state = .finished
        return nil
    }

    // MARK: - Events

    /// The next event, with the open elements counted and XML errors
    /// turned into located import errors.
    ///
    /// - Parameter keyPath: Where the reader is, for the error.
    func next(_ keyPath: String?) throws -> XMLEventKind? {
        let kind: XMLEventKind?
        do {
            kind = try reader.advance()
        } catch let error as XMLError {
            throw fail(
                reader.stoppedAtLongText ? .tooLarge : .syntax,
                at: SourcePosition(
                    file: file, line: error.line ?? 0, column: error.column ?? 0,
                    keyPath: keyPath),
                error.message)
        }
        switch kind {
        case .startElement: openDepth += 1
        case .endElement: openDepth -= 1
        case .text, nil: break
        }
        if let recordStart, kind != nil,
            reader.currentLocation.byteOffset - recordStart > limits.maximumRecordBytes
        {
            throw ImportError(
                .tooLarge, at: position(keyPath),
                "record longer than \(limits.maximumRecordBytes) bytes")
        }
        return kind
    }

    /// Where the current event is, with `keyPath`.
    func position(_ keyPath: String?) -> SourcePosition {
        let location = reader.currentLocation
        return SourcePosition(
            file: file, line: location.line, column: location.column,
            byteOffset: location.byteOffset, keyPath: keyPath)
    }

    /// Records an error that ends the reading.
    package func fail(_ code: ImportError.Code, at position: SourcePosition, _ message: String)
        -> ImportError
    {
        let error = ImportError(code, at: position, message)
        failure = error
        return error
    }

    /// Throws unless the current text event is white space only.
    func requireWhitespace(in element: String, keyPath: String?) throws {
        let isBlank = reader.withCurrentText { PropertyListScalar.isWhitespace($0) }
        guard !isBlank else { return }
        throw ImportError(
            .syntax, at: position(keyPath),
            "text directly inside <\(element)>; text belongs in an element such as <string>")
    }

    /// The error for a container nested deeper than the limit.
    func tooDeep(at place: SourcePosition) -> ImportError {
        ImportError(
            .tooLarge, at: place,
            "arrays and dicts nested deeper than \(limits.maximumDepth) levels")
    }

    /// Records `error` as the one that ends the reading.
    package func fail(_ error: ImportError) -> ImportError {
        failure = error
        return error
    }

    /// The error for a value element where a `<key>` was expected.
    func missingKey(before name: String, at place: SourcePosition) -> ImportError {
        guard Self.isValueElement(name) else {
            return ImportError(
                .syntax, at: place, "\(Self.describe(name)) in a dict; expected <key>")
        }
        return ImportError(.syntax, at: place, "\(Self.describe(name)) in a dict has no <key>")
    }

    // MARK: - Elements

    /// Whether `name` is one of the DTD's value elements.
    static func isValueElement(_ name: String) -> Bool {
        switch name {
        case "array", "data", "date", "dict", "real", "integer", "string", "true", "false":
            return true
        default:
            return false
        }
    }

    /// `<string>`, or `an unknown element <foo>` for names the DTD lacks.
    package static func describe(_ name: String) -> String {
        switch name {
        case "key": return "<key>"
        case "plist": return "a nested <plist>"
        default:
            return isValueElement(name)
                ? "<\(name)>"
                : "an unknown element <\(name)> (expected array, data, date, dict, real,"
                    + " integer, string, true or false)"
        }
    }
}
