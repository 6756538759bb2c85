import Foundation

extension RecordValue {
    /// The value `value` encodes itself as, through `Encodable`: what
    /// Foundation's `JSONEncoder` would write, as a tree. Optionals left
    /// out by `encodeIfPresent` are absent, `nil` encoded outright is
    /// ``null``; dates are seconds since 2001 (`JSONEncoder`'s default),
    /// data is base64 text, URLs their absolute string; a key encoded twice
    /// keeps its last value.
    ///
    /// - Throws: What `value.encode(to:)` throws.
    public init(encoding value: some Encodable) throws {
        let root = EncodingNode()
        try root.encode(value, codingPath: [])
        self = root.value
    }
}

/// A value being encoded: empty until a container or a single value is
/// put in it. A class, so containers handed out earlier see later writes.
private final class EncodingNode {
    enum Content {
        case empty
        case single(RecordValue)
        case array([EncodingNode])
        case object(keys: [String], nodes: [String: EncodingNode])
    }

    var content = Content.empty

    /// The finished value; a node nothing was written to is an empty
    /// object, as `JSONEncoder` writes it.
    var value: RecordValue {
        switch content {
        case .empty: .dictionary([])
        case .single(let value): value
        case .array(let nodes): .array(values: nodes.map(\.value))
        case .object(let keys, let nodes):
            .dictionary(
                keys.compactMap { key in nodes[key].map { RecordField(key: key, value: $0.value) } }
            )
        }
    }

    /// Encodes `value` into this node, with Foundation's special cases.
    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: content = .single(.real(date.timeIntervalSinceReferenceDate))
        case let data as Data: content = .single(.text(data.base64EncodedString()))
        case let url as URL: content = .single(.text(url.absoluteString))
        case let decimal as Decimal:
            content = .single(.real(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    /// The child under `key`, made (or replaced) now.
    func child(forKey key: String) -> EncodingNode {
        var (keys, nodes): ([String], [String: EncodingNode]) = ([], [:])
        if case .object(let existingKeys, let existingNodes) = content {
            (keys, nodes) = (existingKeys, existingNodes)
        }
        let node = EncodingNode()
        if nodes.updateValue(node, forKey: key) == nil { keys.append(key) }
        content = .object(keys: keys, nodes: nodes)
        return node
    }

    /// A new last element.
    func appendChild() -> EncodingNode {
        var nodes: [EncodingNode] = []
        if case .array(let existing) = content { nodes = existing }
        let node = EncodingNode()
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    /// Makes the node an object (or keeps it one).
    func becomeObject() {
        if case .object = content { return }
        content = .object(keys: [], nodes: [:])
    }

    /// Makes the node an array (or keeps it one).
    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    var count: Int {
        switch content {
        case .array(let nodes): nodes.count
        case .object(let keys, _): keys.count
        default: 0
        }
    }
}

/// The `Encoder` handed to each value's `encode(to:)`.
private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

/// A scalar as a record value, with `Float` kept as written (`0.1`, not
/// `0.10000000149011612`).
private func scalar(_ value: some Encodable) -> RecordValue? {
    switch value {
    case let flag as Bool: .boolean(flag)
    case let text as String: .text(text)
    case let number as Double: .real(number)
    case let number as Float: .real(Double(number.description) ?? Double(number))
    case let number as Int: .integer(Int64(number))
    case let number as Int8: .integer(Int64(number))
    case let number as Int16: .integer(Int64(number))
    case let number as Int32: .integer(Int64(number))
    case let number as Int64: .integer(number)
    case let number as UInt: RecordValue(unsigned: UInt64(number))
    case let number as UInt8: .integer(Int64(number))
    case let number as UInt16: .integer(Int64(number))
    case let number as UInt32: .integer(Int64(number))
    case let number as UInt64: RecordValue(unsigned: number)
    default: nil
    }
}

extension RecordValue {
    /// An integer, unsigned only above `Int64.max`.
    fileprivate init(unsigned number: UInt64) {
        self = number > UInt64(Int64.max) ? .unsignedInteger(number) : .integer(Int64(number))
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        node.child(forKey: key.stringValue).content = .single(.null)
    }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = node.child(forKey: key.stringValue)
        if let scalar = scalar(value) {
            child.content = .single(scalar)
        } else {
            try child.encode(value, codingPath: codingPath + [key])
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.becomeArray()
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws {
        node.appendChild().content = .single(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        let child = node.appendChild()
        if let scalar = scalar(value) {
            child.content = .single(scalar)
        } else {
            try child.encode(value, codingPath: codingPath)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.becomeObject()
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.becomeArray()
        return UnkeyedNodeContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        node.content = .single(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        if let scalar = scalar(value) {
            node.content = .single(scalar)
        } else {
            try node.encode(value, codingPath: codingPath)
        }
    }
}
