import Foundation

extension RecordField {
    /// The value decoded as `type` through `Decodable`: the reverse of
    /// ``RecordValue/init(encoding:)``, for a JSON document, a property list
    /// or any other record read into the one value model.
    ///
    /// ```swift
    /// struct Medium: Decodable { var type: String; var file: String }
    /// let document = try JSONReader.parse(Data(#"{"type": "image", "file": "a.jpg"}"#.utf8))
    /// let medium = try document.decode(Medium.self)
    /// ```
    ///
    /// Integers take any number with that value (`2.0` reads as 2); dates
    /// take dates, ISO 8601 text or seconds since 2001; data takes bytes or
    /// base64 text; URLs and UUIDs take text. An object key written twice
    /// reads as its last value, as ``RecordValue/subscript(_:)`` reads it.
    ///
    /// - Throws: `DecodingError` whose description names what was expected,
    ///   what was found and where (the line and column of the value when
    ///   the reader kept them); its coding path is the key path.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try FieldDecoder(field: self, codingPath: []).decode(type)
    }
}

extension RecordValue {
    /// The value decoded as `type` (``RecordField/decode(_:)``, without
    /// positions in its errors).
    ///
    /// - Throws: `DecodingError` naming the expected and found kinds.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try RecordField(key: "", value: self).decode(type)
    }
}

/// A decoder over one field: hands out containers over its value.
private struct FieldDecoder: Decoder {
    let field: RecordField
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let members) = field.value else {
            throw mismatch([String: Int].self, "an object")
        }
        var last: [String: RecordField] = [:]
        for member in members { last[member.key] = member }
        return KeyedDecodingContainer(KeyedFields(decoder: self, members: last))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch field.value {
        case .array(let elements), .set(let elements):
            return UnkeyedFields(decoder: self, elements: elements)
        default: throw mismatch([Int].self, "an array")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleField(decoder: self)
    }

    /// `type` from this field, with the types Foundation's decoders read
    /// from scalars (dates, data, URLs, UUIDs, decimals) read here too.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let scalar: Any? =
            switch type {
            case is Date.Type: try date()
            case is Data.Type: try data()
            case is URL.Type: try parsed(URL.self, "a URL") { URL(string: $0) }
            case is UUID.Type: try parsed(UUID.self, "a UUID") { UUID(uuidString: $0) }
            case is Decimal.Type: Decimal(try number(Decimal.self))
            default: nil
            }
        if let value = scalar as? T { return value }
        return try T(from: self)
    }

    /// A value read from text by `parse`.
    private func parsed<V>(_ type: V.Type, _ expected: String, _ parse: (String) -> V?) throws
        -> V
    {
        guard let value = parse(try text(type, expected)) else { throw mismatch(type, expected) }
        return value
    }

    /// The decoder of `child`, one step down `key`.
    func child(_ child: RecordField, at key: any CodingKey) -> FieldDecoder {
        FieldDecoder(field: child, codingPath: codingPath + [key])
    }

    // MARK: Scalars

    func text(_ type: Any.Type, _ expected: String) throws -> String {
        guard case .text(let text) = field.value else { throw mismatch(type, expected) }
        return text
    }

    func number(_ type: Any.Type) throws -> Double {
        switch field.value {
        case .integer(let number): return Double(number)
        case .unsignedInteger(let number), .uid(let number): return Double(number)
        case .real(let number): return number
        default: throw mismatch(type, "a number")
        }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let value: I? =
            switch field.value {
            case .integer(let number): I(exactly: number)
            case .unsignedInteger(let number), .uid(let number): I(exactly: number)
            case .real(let number): I(exactly: number)
            default: nil
            }
        guard let value else { throw mismatch(type, "an integer that fits \(type)") }
        return value
    }

    func boolean() throws -> Bool {
        guard case .boolean(let flag) = field.value else { throw mismatch(Bool.self, "a boolean") }
        return flag
    }

    func date() throws -> Date {
        switch field.value {
        case .date(let date): return date
        case .text(let text):
            guard let seconds = ISO8601Date.seconds(from: text) else { break }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .integer, .unsignedInteger, .real:
            return Date(timeIntervalSinceReferenceDate: try number(Date.self))
        default: break
        }
        throw mismatch(Date.self, "a date (ISO 8601 text or seconds since 2001)")
    }

    func data() throws -> Data {
        switch field.value {
        case .data(let bytes): return bytes
        case .text(let text):
            guard let bytes = Data(base64Encoded: text) else { break }
            return bytes
        default: break
        }
        throw mismatch(Data.self, "data (bytes or base64 text)")
    }

    // MARK: Errors

    /// Where the field is, for messages: ` at entries[0].text (line 3,
    /// column 7)`, with the file when the reader named one; the key path
    /// alone when the reader kept no lines.
    var place: String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
        var text = path.isEmpty ? "" : " at \(path)"
        if let position = field.position, position.line > 0 {
            let file = position.file.isEmpty ? "" : "\(position.file), "
            text += " (\(file)line \(position.line), column \(position.column))"
        }
        return text
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type,
            .init(
                codingPath: codingPath,
                debugDescription: "expected \(expected)\(place), found "
                    + field.value.kindDescription))
    }
}

/// The members of an object, by key (the last of a repeated key).
private struct KeyedFields<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FieldDecoder
    let members: [String: RecordField]
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> FieldDecoder {
        guard let member = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription:
                        "expected a member \"\(key.stringValue)\" in the object\(decoder.place)"))
        }
        return decoder.child(member, at: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try member(key).field.value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try member(key).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let key = Key(stringValue: "super") else { return decoder }
        return try superDecoder(forKey: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }
}

/// The elements of an array or a set, read in order.
private struct UnkeyedFields: UnkeyedDecodingContainer {
    let decoder: FieldDecoder
    let elements: [RecordField]
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(decoder: FieldDecoder, elements: [RecordField]) {
        self.decoder = decoder
        self.elements = elements
    }

    private mutating func next(_ type: Any.Type) throws -> FieldDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected another element after the \(elements.count) "
                        + "of the array\(decoder.place)"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], at: IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type).decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Int].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

/// An element's place in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The field read as one value.
private struct SingleField: SingleValueDecodingContainer {
    let decoder: FieldDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.field.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.boolean() }
    func decode(_ type: String.Type) throws -> String { try decoder.text(type, "a string") }
    func decode(_ type: Double.Type) throws -> Double { try decoder.number(type) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.number(type)) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
