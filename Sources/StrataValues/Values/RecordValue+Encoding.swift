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
    enum Shape { case empty, single, array, object }

    private(set) var shape = Shape.empty
    /// The value, when the shape is `single`.
    private var single = RecordValue.null
    /// An array's elements or an object's members, in the order encoded
    /// (an element's key is its index).
    private var children: [(key: String, node: EncodingNode)] = []
    /// Where each member's key stands in `children`.
    private var indexByKey: [String: Int] = [:]

    /// The finished value; a node nothing was written to is an empty
    /// object, as `JSONEncoder` writes it.
    var value: RecordValue {
        switch shape {
        case .empty: .dictionary([])
        case .single: single
        case .array: .array(values: children.map(\.node.value))
        case .object: .dictionary(children.map { RecordField(key: $0.key, value: $0.node.value) })
        }
    }

    var count: Int { children.count }

    /// Makes the node `value`.
    func set(_ value: RecordValue) {
        shape = .single
        single = value
    }

    /// Encodes `value` into this node, with Foundation's special cases.
    func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: set(.real(date.timeIntervalSinceReferenceDate))
        case let data as Data: set(.text(data.base64EncodedString()))
        case let url as URL: set(.text(url.absoluteString))
        case let decimal as Decimal: set(.real(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    /// The child under `key`, made now; a key encoded again keeps its place
    /// and takes the new value.
    func child(forKey key: String) -> EncodingNode {
        become(.object)
        let node = EncodingNode()
        if let index = indexByKey[key] {
            children[index].node = node
        } else {
            indexByKey[key] = children.count
            children.append((key, node))
        }
        return node
    }

    /// A new last element.
    func appendChild() -> EncodingNode {
        become(.array)
        let node = EncodingNode()
        children.append((String(children.count), node))
        return node
    }

    /// Makes the node an empty container of `container`'s shape, unless it
    /// is one already.
    func become(_ container: Shape) {
        guard shape != container else { return }
        shape = container
        children = []
        indexByKey = [:]
    }
}

/// The `Encoder` handed to each value's `encode(to:)`.
private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.become(.object)
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.become(.array)
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
        node.child(forKey: key.stringValue).set(.null)
    }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = node.child(forKey: key.stringValue)
        if let scalar = scalar(value) {
            child.set(scalar)
        } else {
            try child.encode(value, codingPath: codingPath + [key])
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.become(.object)
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.become(.array)
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
        node.appendChild().set(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        let child = node.appendChild()
        if let scalar = scalar(value) {
            child.set(scalar)
        } else {
            try child.encode(value, codingPath: codingPath)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.become(.object)
        return KeyedEncodingContainer(
            KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.become(.array)
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
        node.set(.null)
    }

    mutating func encode(_ value: some Encodable) throws {
        if let scalar = scalar(value) {
            node.set(scalar)
        } else {
            try node.encode(value, codingPath: codingPath)
        }
    }
}
