import Foundation
import StrataCore
import StrataSchema

/// Turns one parsed JSON record into an ``ImportRecord``: every value gets
/// its line, column, byte offset and key path, and the reader's limits and
/// rules are applied on the way.
///
/// - Integers that fit in `Int64` become ``RecordValue/integer(_:)``; those
///   up to 2⁶⁴−1 become ``RecordValue/unsignedInteger(_:)``; larger ones,
///   like every number with a fraction or exponent, become
///   ``RecordValue/real(_:)`` (the coercer refuses them for integer
///   attributes, as they no longer hold every digit).
/// - A key repeated in one object is a ``ImportError/Code/structure`` error
///   at its second occurrence: RFC 8259 leaves the meaning open, and keeping
///   either value silently would lose data.
/// - Nesting deeper than ``ImportLimits/maximumDepth`` (the record's object
///   is depth 1), an object or array of more than
///   ``ImportLimits/maximumFieldCount`` values, or a string over
///   ``ImportLimits/maximumFieldBytes`` is ``ImportError/Code/tooLarge``.
struct JSONRecordConverter {
    let file: String
    let limits: ImportLimits
    /// The absolute offset of the record's first byte.
    let startOffset: Int
    /// The record's text, as ``JSONReader`` read it.
    let bytes: UnsafeBufferPointer<UInt8>

    /// A converter for the record whose text is `bytes`, starting at
    /// absolute offset `startOffset`.
    init(
        file: String, limits: ImportLimits, bytes: UnsafeBufferPointer<UInt8>, startOffset: Int
    ) {
        self.file = file
        self.limits = limits
        self.startOffset = startOffset
        self.bytes = bytes
    }

    /// The record made of `node`, which must be an object.
    func record(
        _ node: RecordField, position: SourcePosition, group: String?
    ) throws(ImportError) -> ImportRecord {
        guard case .dictionary(let members) = node.value else {
            throw ImportError(
                .structure, at: position,
                "expected an object (one record), found \(node.value.kindDescription)")
        }
        let path = position.keyPath ?? ""
        let fields = try self.fields(of: members, at: node, path: path, depth: 1)
        let text = Data(bytes)
        return ImportRecord(fields: fields, position: position, group: group, originalText: text)
    }

    /// `place`, where the reader found a value or key in the record's text,
    /// as a place in the file, with `keyPath`.
    func position(_ place: SourcePosition?, keyPath: String) -> SourcePosition {
        SourcePosition(
            file: file, line: place?.line ?? 0, column: place?.column ?? 0,
            byteOffset: Int64(startOffset) + (place?.byteOffset ?? 0), keyPath: keyPath)
    }

    // MARK: - Values

    private func fields(
        of members: [RecordField], at node: RecordField, path: String, depth: Int
    ) throws(ImportError) -> [RecordField] {
        try checkContainer(node, count: members.count, path: path, depth: depth)
        var fields: [RecordField] = []
        fields.reserveCapacity(members.count)
        var seen: Set<String>?
        if members.count > 16 { seen = Set(minimumCapacity: members.count) }
        for (number, member) in members.enumerated() {
            let keyPath = Self.keyPath(path, key: member.key)
            if isDuplicate(member.key, number, in: members, seen: &seen) {
                let first = members.first { $0.key == member.key }
                let firstPlace =
                    first.map { "line \($0.keyLine), column \($0.keyColumn)" } ?? "before"
                throw ImportError(
                    .structure,
                    at: position(member.keyPosition ?? member.position, keyPath: keyPath),
                    "the key \"\(member.key)\" appears twice in one object (first at \(firstPlace));"
                        + " keys must be unique")
            }
            let place = position(member.position, keyPath: keyPath)
            let value = try self.value(member, at: place, depth: depth)
            fields.append(RecordField(key: member.key, value: value, position: place))
        }
        return fields
    }

    private func isDuplicate(
        _ key: String, _ number: Int, in members: [RecordField], seen: inout Set<String>?
    ) -> Bool {
        if seen != nil { return seen?.insert(key).inserted == false }
        for earlier in 0..<number where members[earlier].key == key { return true }
        return false
    }

    private func elements(
        of nodes: [RecordField], at node: RecordField, path: String, depth: Int
    ) throws(ImportError) -> [RecordField] {
        try checkContainer(node, count: nodes.count, path: path, depth: depth)
        var fields: [RecordField] = []
        fields.reserveCapacity(nodes.count)
        for (index, element) in nodes.enumerated() {
            let keyPath = Self.keyPath(path, index: index)
            let place = position(element.position, keyPath: keyPath)
            let value = try self.value(element, at: place, depth: depth)
            fields.append(RecordField(key: String(index), value: value, position: place))
        }
        return fields
    }

    private func checkContainer(
        _ node: RecordField, count: Int, path: String, depth: Int
    ) throws(ImportError) {
        if depth > limits.maximumDepth {
            throw ImportError(
                .tooLarge, at: position(node.position, keyPath: path),
                "nesting deeper than \(limits.maximumDepth) arrays and objects")
        }
        if count > limits.maximumFieldCount {
            throw ImportError(
                .tooLarge, at: position(node.position, keyPath: path),
                "\(count) values in one \(node.value.isObject ? "object" : "array"); "
                    + "the limit is \(limits.maximumFieldCount)")
        }
    }

    private func value(
        _ node: RecordField, at place: SourcePosition, depth: Int
    ) throws(ImportError) -> RecordValue {
        switch node.value {
        case .null, .boolean, .integer, .unsignedInteger, .uid, .date, .data, .set:
            return node.value
        case .real(let number):
            return unsignedInteger(at: Int(place.byteOffset) - startOffset).map {
                .unsignedInteger($0)
            } ?? .real(number)
        case .text(let text):
            if text.utf8.count > limits.maximumFieldBytes {
                throw ImportError(
                    .tooLarge, at: place,
                    "a string of \(text.utf8.count) bytes; the limit is \(limits.maximumFieldBytes)"
                )
            }
            return .text(text)
        case .array(let nodes):
            return .array(
                try elements(of: nodes, at: node, path: place.keyPath ?? "", depth: depth + 1))
        case .dictionary(let members):
            return .dictionary(
                try fields(of: members, at: node, path: place.keyPath ?? "", depth: depth + 1))
        }
    }

    /// The value of the integer literal at `index` when it is above
    /// `Int64.max` but fits in 64 bits unsigned; nil for any other number.
    private func unsignedInteger(at index: Int) -> UInt64? {
        guard index >= 0, index < bytes.count, bytes[index] != UInt8(ascii: "-") else {
            return nil
        }
        var value: UInt64 = 0
        var cursor = index
        while cursor < bytes.count,
            bytes[cursor] >= UInt8(ascii: "0") && bytes[cursor] <= UInt8(ascii: "9")
        {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(
                UInt64(bytes[cursor] - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = next
            cursor += 1
        }
        if cursor < bytes.count {
            let next = bytes[cursor]
            if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
        }
        return value > UInt64(Int64.max) ? value : nil
    }

    // MARK: - Key paths

    /// `path.key`, or `key` when `path` is empty.
    static func keyPath(_ path: String, key: String) -> String {
        var path = path
        var key = key
        return path.withUTF8 { head in
            key.withUTF8 { tail in
                join(head, separator: head.isEmpty ? nil : UInt8(ascii: "."), tail, nil)
            }
        }
    }

    /// `path[index]`.
    static func keyPath(_ path: String, index: Int) -> String {
        var path = path
        // The digits of the index, written backwards then reversed.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { raw in
            var value = index.magnitude
            var count = 0
            repeat {
                raw[count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            var bytes = UnsafeMutableBufferPointer(
                start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
            bytes.reverse()
            return path.withUTF8 { head in
                join(
                    head, separator: UInt8(ascii: "["), UnsafeBufferPointer(bytes),
                    UInt8(ascii: "]"))
            }
        }
    }

    /// `head`, `separator`, `tail` and `end` as one string, built in one go:
    /// appending piece by piece costs a tenth of the time of reading JSON.
    private static func join(
        _ head: UnsafeBufferPointer<UInt8>, separator: UInt8?, _ tail: UnsafeBufferPointer<UInt8>,
        _ end: UInt8?
    ) -> String {
        let count = head.count + (separator == nil ? 0 : 1) + tail.count + (end == nil ? 0 : 1)
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for byte in head {
                buffer[index] = byte
                index += 1
            }
            if let separator {
                buffer[index] = separator
                index += 1
            }
            for byte in tail {
                buffer[index] = byte
                index += 1
            }
            if let end {
                buffer[index] = end
                index += 1
            }
            return index
        }
    }
}

extension RecordValue {
    fileprivate var isObject: Bool {
        if case .dictionary = self { return true }
        return false
    }
}
