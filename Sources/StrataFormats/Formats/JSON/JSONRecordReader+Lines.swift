import StrataCore
import StrataSchema

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - JSON Lines

extension JSONRecordReader {
    /// The record of the next non-blank line.
    func nextLineRecord() throws(ImportError) -> ImportRecord? {
        while true {
            let lineStart = offset
            input.keepFrom = lineStart
            var searchFrom = lineStart
            var newline: Int?
            var skipping = false
            while true {
                if searchFrom < input.end {
                    let found = memchr(
                        input.storage + (searchFrom - input.base), 0x0A, input.end - searchFrom)
                    if let found {
                        newline =
                            input.base + (found.assumingMemoryBound(to: UInt8.self) - input.storage)
                        break
                    }
                    searchFrom = input.end
                }
                // Past the limit the line is only looked through for its end.
                if searchFrom - lineStart > limits.maximumRecordBytes { skipping = true }
                if skipping { input.keepFrom = searchFrom }
                guard try input.fill() else { break }
            }
            let lineEnd = newline ?? input.end
            if newline == nil && lineEnd == lineStart {
                consumed = lineEnd
                return nil
            }
            offset = newline.map { $0 + 1 } ?? lineEnd
            consumed = offset
            lineNumber += 1
            if skipping || lineEnd - lineStart > limits.maximumRecordBytes {
                let index = recordIndex
                recordIndex += 1
                throw ImportError(
                    .tooLarge,
                    at: SourcePosition(
                        file: file, line: lineNumber, column: 1, byteOffset: Int64(lineStart),
                        keyPath: "[\(index)]"),
                    "the line is longer than the limit of \(limits.maximumRecordBytes) bytes")
            }
            var first = lineStart
            var last = lineEnd
            while first < last && Self.isWhitespace(input[first]) { first += 1 }
            while last > first && Self.isWhitespace(input[last - 1]) { last -= 1 }
            if first == last { continue }  // JSON Lines allows no blank lines; we skip them.
            let index = recordIndex
            recordIndex += 1
            return try lineRecord(from: first, to: last, lineStart: lineStart, index: index)
        }
    }

    private func lineRecord(
        from first: Int, to last: Int, lineStart: Int, index: Int
    ) throws(ImportError) -> ImportRecord {
        let keyPath = JSONRecordConverter.keyPath("", index: index)
        let column = 1 + (first - lineStart)  // Leading whitespace is ASCII.
        let position = SourcePosition(
            file: file, line: lineNumber, column: column, byteOffset: Int64(first),
            keyPath: keyPath)
        let bytes = input.bytes(from: first, to: last)
        return try keepingText(bytes) { () throws(ImportError) in
            try lineRecord(bytes, position: position, column: column)
        }
    }

    private func lineRecord(
        _ bytes: UnsafeBufferPointer<UInt8>, position: SourcePosition, column: Int
    ) throws(ImportError) -> ImportRecord {
        let first = Int(position.byteOffset)
        let keyPath = position.keyPath ?? ""
        let node = try Self.parseNode(
            bytes, file: file, start: first, line: lineNumber, column: column, keyPath: keyPath)
        let converter = JSONRecordConverter(
            file: file, limits: limits, bytes: bytes, startOffset: first)
        return try converter.record(node, position: position, group: nil)
    }
}
