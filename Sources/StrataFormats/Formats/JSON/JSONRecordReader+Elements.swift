import StrataCore
import StrataSchema

// MARK: - One element of a document's array

extension JSONRecordReader {
    /// Cuts out the element at ``offset`` (the `index`th of its array),
    /// parses it and makes it a record.
    ///
    /// The element's bytes stay in the buffer until it ends, up to
    /// ``ImportLimits/maximumRecordBytes``; past that the rest is only looked
    /// through for the element's end, and the element is refused.
    func readElement(index: Int, group: String?) throws(ImportError) -> ImportRecord {
        let start = offset
        let keyPath = JSONRecordConverter.keyPath(group ?? "", index: index)
        let place = position(at: start, keyPath: keyPath)
        input.keepFrom = start
        scanner.reset()
        var cursor = start
        var end: Int?
        var skipping = false
        while true {
            if cursor < input.end {
                end = scanner.scan(input.bytes(from: cursor, to: input.end), base: cursor)
                if end != nil { break }
                cursor = input.end
            }
            if cursor - start > limits.maximumRecordBytes { skipping = true }
            if skipping { input.keepFrom = cursor }
            guard try input.fill() else { break }
        }
        // A bare number or literal may end with the file; anything else there is cut short.
        if end == nil && scanner.isBareScalar && !skipping { end = input.end }
        guard let end else {
            throw fail(truncated(start: start, place: place, skipping: skipping))
        }
        if end == start {
            throw fail(
                ImportError(
                    .syntax, at: place,
                    "expected an element or ']', found \(Self.describe(input[start]))"))
        }
        offset = end
        consumed = end
        if skipping || end - start > limits.maximumRecordBytes {
            throw ImportError(
                .tooLarge, at: place,
                "the element is larger than the limit of \(limits.maximumRecordBytes) bytes")
        }
        let bytes = input.bytes(from: start, to: end)
        return try keepingText(bytes) { () throws(ImportError) in
            try record(bytes, place: place, group: group)
        }
    }

    /// The record of the element whose text is `bytes`, at `place`.
    private func record(
        _ bytes: UnsafeBufferPointer<UInt8>, place: SourcePosition, group: String?
    ) throws(ImportError) -> ImportRecord {
        let start = Int(place.byteOffset)
        let keyPath = place.keyPath ?? ""
        if let deep = scanner.tooDeepOffset {
            throw ImportError(
                .tooLarge, at: position(at: deep, keyPath: keyPath),
                "nesting deeper than \(limits.maximumDepth) arrays and objects")
        }
        let first = input[start]
        guard first == UInt8(ascii: "{") else {
            throw ImportError(
                .structure, at: place,
                "expected an object (one record), found \(Self.kind(startingWith: first))")
        }
        let node: RecordField
        do {
            node = try Self.parseNode(
                bytes, file: file, start: start, line: place.line, column: place.column,
                keyPath: keyPath)
        } catch {
            // Past a syntax error the element's end is a guess: stop there.
            if error.code == .syntax { throw fail(error) }
            throw error
        }
        let converter = JSONRecordConverter(
            file: file, limits: limits, bytes: bytes, startOffset: start)
        return try converter.record(node, position: place, group: group)
    }

    /// The error for a file that ends inside the element starting at `start`.
    private func truncated(start: Int, place: SourcePosition, skipping: Bool) -> ImportError {
        if !skipping {
            let bytes = input.bytes(from: start, to: input.end)
            do {
                _ = try Self.parseNode(
                    bytes, file: file, start: start, line: place.line, column: place.column,
                    keyPath: place.keyPath ?? "")
            } catch {
                return error
            }
        }
        return ImportError(
            .syntax, at: position(at: input.end, keyPath: place.keyPath),
            "unexpected end of input inside the element that starts at line \(place.line), "
                + "column \(place.column)")
    }
}
