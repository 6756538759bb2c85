import Foundation
import StrataCore

// MARK: - The values of one record

extension XMLPropertyListRecords {
    /// Reads the entries of the dict whose start tag was just read, up to
    /// and including its end tag.
    ///
    /// - Parameters:
    ///   - keyPath: The dict's key path; its entries' paths extend it.
    ///   - nesting: The dict's nesting level, the root container being 1.
    ///   - place: Where the dict starts.
    func dictionaryFields(
        keyPath: String, nesting: Int, at place: SourcePosition
    ) throws -> [RecordField] {
        guard nesting <= limits.maximumDepth else { throw tooDeep(at: place) }
        var fields: [RecordField] = []
        // Small dicts look for a duplicate key by scanning; large ones keep
        // a set, so a hostile dict of many keys stays linear.
        var keys: Set<String>?
        while true {
            guard let kind = try next(keyPath) else { throw unexpectedEnd(keyPath) }
            switch kind {
            case .endElement:
                return fields
            case .text:
                try requireWhitespace(in: "dict", keyPath: keyPath)
            case .startElement:
                let name = reader.currentName
                guard name == "key" else { throw missingKey(before: name, at: position(keyPath)) }
                let keyPlace = position(keyPath)
                let key = try keyText(keyPath: keyPath)
                let valuePath = keyPath.isEmpty ? key : keyPath + "." + key
                let (value, valuePlace) = try valueAfterKey(
                    key, keyPath: valuePath, nesting: nesting, keyPlace: keyPlace)
                if fields.count < 16 {
                    if fields.contains(where: { $0.key == key }) {
                        throw duplicateKey(key, at: valuePlace)
                    }
                } else {
                    if keys == nil { keys = Set(fields.map(\.key)) }
                    guard keys?.insert(key).inserted == true else {
                        throw duplicateKey(key, at: valuePlace)
                    }
                }
                guard fields.count < limits.maximumFieldCount else {
                    throw ImportError(
                        .tooLarge, at: valuePlace,
                        "dict of more than \(limits.maximumFieldCount) entries")
                }
                fields.append(RecordField(key: key, value: value, position: valuePlace))
            }
        }
    }

    /// Reads the value that follows `<key>key</key>` in a dict.
    private func valueAfterKey(
        _ key: String, keyPath: String, nesting: Int, keyPlace: SourcePosition
    ) throws -> (RecordValue, SourcePosition) {
        var keyPlace = keyPlace
        keyPlace.keyPath = keyPath
        while true {
            guard let kind = try next(keyPath) else { throw unexpectedEnd(keyPath) }
            switch kind {
            case .text:
                try requireWhitespace(in: "dict", keyPath: keyPath)
            case .endElement:
                throw ImportError(.syntax, at: keyPlace, "key \(key) has no value")
            case .startElement:
                let name = reader.currentName
                guard name != "key" else {
                    throw ImportError(.syntax, at: keyPlace, "key \(key) has no value")
                }
                let place = position(keyPath)
                return (
                    try value(named: name, keyPath: keyPath, nesting: nesting, at: place), place
                )
            }
        }
    }

    /// Reads the elements of the array whose start tag was just read.
    private func arrayElements(
        keyPath: String, nesting: Int, at place: SourcePosition
    ) throws -> [RecordField] {
        guard nesting <= limits.maximumDepth else { throw tooDeep(at: place) }
        var elements: [RecordField] = []
        while true {
            guard let kind = try next(keyPath) else { throw unexpectedEnd(keyPath) }
            switch kind {
            case .endElement:
                return elements
            case .text:
                try requireWhitespace(in: "array", keyPath: keyPath)
            case .startElement:
                let index = elements.count
                guard index < limits.maximumFieldCount else {
                    throw ImportError(
                        .tooLarge, at: position(keyPath),
                        "array of more than \(limits.maximumFieldCount) elements")
                }
                let elementPath = keyPath + "[" + String(index) + "]"
                let elementPlace = position(elementPath)
                let value = try value(
                    named: reader.currentName, keyPath: elementPath, nesting: nesting,
                    at: elementPlace)
                elements.append(
                    RecordField(key: String(index), value: value, position: elementPlace))
            }
        }
    }

    /// Reads the value whose start tag `name` was just read.
    ///
    /// - Parameter nesting: The nesting level of the container holding it.
    private func value(
        named name: String, keyPath: String, nesting: Int, at place: SourcePosition
    ) throws -> RecordValue {
        switch name {
        case "string":
            return .text(
                try text(of: name, keyPath: keyPath) { String(decoding: $0, as: UTF8.self) })
        case "integer":
            return try text(of: name, keyPath: keyPath) { bytes in
                switch PropertyListScalar.integer(bytes) {
                case .value(let value): return value
                case .malformed:
                    throw ImportError(.invalidValue, at: place, "<integer> is not an integer")
                case .outOfRange:
                    throw ImportError(
                        .invalidValue, at: place,
                        "<integer> is outside the 64-bit range (-2^63 to 2^64-1)")
                }
            }
        case "real":
            return try text(of: name, keyPath: keyPath) { bytes in
                guard case .value(let value) = PropertyListScalar.real(bytes) else {
                    throw ImportError(
                        .invalidValue, at: place,
                        "<real> is not a number (expected digits with an optional fraction and"
                            + " exponent, nan, +infinity or -infinity)")
                }
                return value
            }
        case "date":
            return try text(of: name, keyPath: keyPath) { bytes in
                guard let date = PropertyListScalar.date(bytes) else {
                    throw ImportError(
                        .invalidValue, at: place,
                        "<date> is not a date of the form 2024-01-31T12:00:00Z")
                }
                return .date(date)
            }
        case "data":
            return try text(of: name, keyPath: keyPath) { bytes in
                guard let data = PropertyListScalar.data(bytes) else {
                    throw ImportError(.invalidValue, at: place, "<data> is not valid base64")
                }
                return .data(data)
            }
        case "true", "false":
            try emptyElement(name, keyPath: keyPath)
            return .boolean(name == "true")
        case "dict":
            return .dictionary(
                try dictionaryFields(keyPath: keyPath, nesting: nesting + 1, at: place))
        case "array":
            return .array(try arrayElements(keyPath: keyPath, nesting: nesting + 1, at: place))
        case "key":
            throw ImportError(.syntax, at: place, "<key> in an array; keys belong in a dict")
        default:
            throw ImportError(.syntax, at: place, "\(Self.describe(name)) in a value")
        }
    }

    // MARK: - Element content

    /// The text of the `<key>` whose start tag was just read.
    func keyText(keyPath: String?) throws -> String {
        try text(of: "key", keyPath: keyPath) { String(decoding: $0, as: UTF8.self) }
    }

    /// Converts the text content of the element `name` whose start tag was
    /// just read, and reads its end tag. An empty element has empty text.
    private func text<Result>(
        of name: String, keyPath: String?,
        _ convert: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        guard let kind = try next(keyPath) else { throw unexpectedEnd(keyPath) }
        switch kind {
        case .endElement:
            return try convert(UnsafeBufferPointer(start: nil, count: 0))
        case .text:
            let result = try reader.withCurrentText { bytes in
                guard bytes.count <= limits.maximumFieldBytes else {
                    throw ImportError(
                        .tooLarge, at: position(keyPath),
                        "<\(name)> longer than \(limits.maximumFieldBytes) bytes")
                }
                return try convert(bytes)
            }
            guard try next(keyPath) == .endElement else { throw elementInside(name, keyPath) }
            return result
        case .startElement:
            throw elementInside(name, keyPath)
        }
    }

    /// Reads the end of `<true/>` or `<false/>`, which hold nothing but
    /// perhaps white space.
    private func emptyElement(_ name: String, keyPath: String) throws {
        while true {
            guard let kind = try next(keyPath) else { throw unexpectedEnd(keyPath) }
            switch kind {
            case .endElement:
                return
            case .text:
                let isBlank = reader.withCurrentText { PropertyListScalar.isWhitespace($0) }
                guard isBlank else {
                    throw ImportError(
                        .syntax, at: position(keyPath), "<\(name)> holds text; it must be empty")
                }
            case .startElement:
                throw elementInside(name, keyPath)
            }
        }
    }

    // MARK: - Errors

    /// An element inside a scalar element, which holds only text.
    private func elementInside(_ name: String, _ keyPath: String?) -> ImportError {
        ImportError(
            .syntax, at: position(keyPath),
            "\(Self.describe(reader.currentName)) inside <\(name)>, which holds only text")
    }

    /// The document ended inside a value; libxml2 reports that first, so
    /// this is a fallback.
    private func unexpectedEnd(_ keyPath: String?) -> ImportError {
        fail(.syntax, at: position(keyPath), "the file ends inside a value")
    }

    /// A key found twice in one dict.
    private func duplicateKey(_ key: String, at place: SourcePosition) -> ImportError {
        ImportError(
            .structure, at: place,
            "key \(key) occurs twice in one dict (the first value is not overwritten)")
    }
}
