import StrataCore
import StrataSchema

// MARK: - A root object's members that are not arrays of records

extension JSONRecordReader {
    /// Reads the value of the root object's member `key` (at ``offset``),
    /// which is not an array, and keeps it in ``nonArrayMembers``.
    ///
    /// The value is bounded like a record (``ImportLimits/maximumRecordBytes``)
    /// and parsed whole: such members are small headers (`"metadata"`).
    func keepMember(_ key: String) throws(ImportError) {
        let start = offset
        let place = position(at: start, keyPath: key)
        let end = try valueEnd(of: key, at: place, keeping: true)
        let bytes = input.bytes(from: start, to: end)
        let node: RecordField
        do {
            node = try Self.parseNode(
                bytes, file: file, start: start, line: place.line, column: place.column,
                keyPath: key)
        } catch {
            throw fail(error)
        }
        nonArrayMembers.append((key: key, node: node, position: place))
        offset = end
        consumed = end
    }

    /// Passes over the value of the member at `keyPath` (at ``offset``)
    /// without keeping it: a member beside the records, however large, costs
    /// one scan and no memory.
    func skipMember(_ keyPath: String) throws(ImportError) {
        let end = try valueEnd(
            of: keyPath, at: position(at: offset, keyPath: keyPath), keeping: false)
        offset = end
        consumed = end
    }

    /// The end of the value that starts at ``offset`` (`place`), scanned
    /// across chunks. `keeping` holds its bytes in the buffer, bounded like
    /// a record (``ImportLimits/maximumRecordBytes``); otherwise they are
    /// let go as the scan passes them.
    private func valueEnd(of keyPath: String, at place: SourcePosition, keeping: Bool)
        throws(ImportError) -> Int
    {
        let start = offset
        input.keepFrom = start
        scanner.reset()
        var cursor = start
        var end: Int?
        while true {
            if cursor < input.end {
                end = scanner.scan(input.bytes(from: cursor, to: input.end), base: cursor)
                if end != nil { break }
                cursor = input.end
            }
            if !keeping {
                input.keepFrom = cursor
            } else if cursor - start > limits.maximumRecordBytes {
                throw fail(
                    ImportError(
                        .tooLarge, at: place,
                        "the value of \"\(keyPath)\" is larger than the limit of "
                            + "\(limits.maximumRecordBytes) bytes"))
            }
            guard try input.fill() else { break }
        }
        if end == nil && scanner.isBareScalar { end = input.end }
        guard let end, end > start else {
            throw fail(
                ImportError(
                    .syntax, at: place, "unexpected end of input in the value of \"\(keyPath)\""))
        }
        return end
    }
}
