import StrataCore
import StrataSchema

// MARK: - A JSON document: an array of objects, or an object of such arrays

/// Where a document reader is in the shape around its records.
enum DocumentState {
    /// Before the root value.
    case start
    /// After an array's `[`: an element or `]` comes next.
    case arrayOpen(group: String?)
    /// After an element: `,` or `]` comes next.
    case arrayNext(group: String?)
    /// After a `,` between elements: an element comes next.
    case arrayComma(group: String?)
    /// After the root object's `{`: a key or `}` comes next.
    case objectOpen
    /// After an array in the root object: `,` or `}` comes next.
    case objectNext(group: String)
    /// After a `,` in the root object: a key comes next.
    case objectComma
    /// After the root value: only whitespace may follow.
    case end
    /// Done, or failed.
    case finished
}

extension JSONRecordReader {
    private static let expectedShape =
        "expected an array of objects, or an object whose values are arrays of objects "
        + "(for one object per line, read the file as JSON Lines)"

    /// The next record of the document.
    func nextDocumentRecord() throws(ImportError) -> ImportRecord? {
        while true {
            switch state {
            case .start:
                try readRoot()
            case .arrayOpen(let group), .arrayComma(let group):
                let byte = try skipWhitespace()
                if byte == UInt8(ascii: "]") {
                    if case .arrayComma = state {
                        throw fail(syntax("expected a value after ',', found ']'"))
                    }
                    offset += 1
                    state = group.map { .objectNext(group: $0) } ?? .end
                    continue
                }
                guard let byte, byte != UInt8(ascii: ",") else {
                    throw fail(syntax("expected an element or ']', found \(Self.describe(byte))"))
                }
                let index = recordIndex
                recordIndex += 1
                state = .arrayNext(group: group)
                return try readElement(index: index, group: group)
            case .arrayNext(let group):
                let byte = try skipWhitespace()
                if byte == UInt8(ascii: ",") {
                    offset += 1
                    state = .arrayComma(group: group)
                } else if byte == UInt8(ascii: "]") {
                    offset += 1
                    state = group.map { .objectNext(group: $0) } ?? .end
                } else {
                    let element = (group ?? "") + "[\(recordIndex - 1)]"
                    throw fail(
                        syntax(
                            "expected ',' or ']' after the element \(element), "
                                + "found \(Self.describe(byte))"))
                }
            case .objectOpen, .objectComma:
                try readGroupKey()
            case .objectNext(let group):
                let byte = try skipWhitespace()
                if byte == UInt8(ascii: ",") {
                    offset += 1
                    state = .objectComma
                } else if byte == UInt8(ascii: "}") {
                    offset += 1
                    state = closedObjectState()
                } else {
                    throw fail(
                        syntax(
                            "expected ',' or '}' after the array \"\(group)\", "
                                + "found \(Self.describe(byte))"))
                }
            case .end:
                if let byte = try skipWhitespace() {
                    throw fail(
                        syntax(
                            "expected the end of the input after the root value, "
                                + "found \(Self.describe(byte))"))
                }
                try finishDocument()
                state = .finished
                consumed = input.end
            case .finished:
                return nil
            }
        }
    }

    /// A syntax error at the current offset.
    private func syntax(_ message: String) -> ImportError {
        ImportError(.syntax, at: position(at: offset), message)
    }

    /// Skips JSON whitespace; returns the next byte without consuming it,
    /// or nil at the end of the input.
    private func skipWhitespace() throws(ImportError) -> UInt8? {
        while true {
            input.keepFrom = offset
            guard try input.ensure(offset) else { return nil }
            let byte = input[offset]
            guard Self.isWhitespace(byte) else { return byte }
            offset += 1
            consumed = offset
        }
    }

    private func readRoot() throws(ImportError) {
        let byte = try skipWhitespace()
        switch byte {
        case UInt8(ascii: "[") where !selectedPaths.isEmpty:
            throw fail(
                ImportError(
                    .structure, at: position(at: offset),
                    "the root value is an array; --path leads through objects to an array"))
        case UInt8(ascii: "["):
            offset += 1
            recordIndex = 0
            state = .arrayOpen(group: nil)
        case UInt8(ascii: "{"):
            offset += 1
            state = .objectOpen
        case nil:
            throw fail(syntax("expected a JSON array or object, found end of input"))
        case .some(let byte):
            let kind = Self.kind(startingWith: byte)
            if kind.hasPrefix("not") {
                throw fail(syntax("expected a JSON array or object, found \(Self.describe(byte))"))
            }
            throw fail(
                ImportError(
                    .structure, at: position(at: offset),
                    "the root value is \(kind); \(Self.expectedShape)"))
        }
    }

    /// Reads `"key": [` in the root object and starts that array.
    private func readGroupKey() throws(ImportError) {
        let byte = try skipWhitespace()
        if byte == UInt8(ascii: "}") {
            if case .objectComma = state {
                throw fail(syntax("expected a string key after ',', found '}'"))
            }
            offset += 1
            state = closedObjectState()
            return
        }
        guard byte == UInt8(ascii: "\"") else {
            let expected = state.isObjectOpen ? "a string key or '}'" : "a string key after ','"
            throw fail(syntax("expected \(expected), found \(Self.describe(byte))"))
        }
        let keyStart = offset
        let keyPlace = position(at: keyStart)
        scanner.reset()
        var cursor = keyStart
        var keyEnd: Int?
        while keyEnd == nil {
            if cursor < input.end {
                keyEnd = scanner.scan(input.bytes(from: cursor, to: input.end), base: cursor)
                cursor = input.end
            }
            if keyEnd == nil {
                if cursor - keyStart > limits.maximumFieldBytes {
                    throw fail(
                        ImportError(
                            .tooLarge, at: keyPlace,
                            "a key longer than the limit of \(limits.maximumFieldBytes) bytes"))
                }
                guard try input.fill() else {
                    throw fail(
                        ImportError(
                            .syntax, at: keyPlace,
                            "unterminated string: expected '\"' before end of input"))
                }
            }
        }
        guard let keyEnd else { return }
        let bytes = input.bytes(from: keyStart, to: keyEnd)
        let node: RecordField
        do {
            node = try Self.parseNode(
                bytes, file: file, start: keyStart, line: keyPlace.line, column: keyPlace.column,
                keyPath: "")
        } catch {
            throw fail(error)
        }
        guard case .text(let key) = node.value else {
            throw fail(syntax("expected a string key"))
        }
        offset = keyEnd
        let colon = try skipWhitespace()
        guard colon == UInt8(ascii: ":") else {
            throw fail(
                syntax("expected ':' after the key \"\(key)\", found \(Self.describe(colon))"))
        }
        offset += 1
        let value = try skipWhitespace()
        let path = (objectPath + [key]).joined(separator: ".")
        let isArray = value == UInt8(ascii: "[")
        if !selectedPaths.isEmpty {
            if selectedPaths.contains(path), !isArray {
                let found = value.map { Self.kind(startingWith: $0) } ?? "missing (end of input)"
                throw fail(
                    ImportError(
                        .structure, at: position(at: offset, keyPath: path),
                        "the value of \"\(path)\" is \(found); --path leads to an array of objects")
                )
            }
            if !selectedPaths.contains(path) {
                if selectedPrefixes.contains(path), value == UInt8(ascii: "{") {
                    offset += 1
                    objectPath.append(key)
                    state = .objectOpen
                } else {
                    try skipMember(path)
                    state = .objectNext(group: key)
                }
                return
            }
        } else if !isArray {
            if keepsNonArrayMembers {
                try keepMember(key)
            } else {
                guard value != nil else {
                    throw fail(
                        ImportError(
                            .syntax, at: position(at: offset, keyPath: key),
                            "expected the value of \"\(key)\", found end of input"))
                }
                passedOverMembers.append(key)
                try skipMember(key)
            }
            state = .objectNext(group: key)
            return
        }
        offset += 1
        recordIndex = 0
        arrayMembers.append(path)
        state = .arrayOpen(group: path)
    }

    /// The state after an object's `}`: the enclosing object's, or the end
    /// after the root object.
    private func closedObjectState() -> DocumentState {
        guard let key = objectPath.popLast() else { return .end }
        return .objectNext(group: key)
    }
}

extension DocumentState {
    fileprivate var isObjectOpen: Bool {
        if case .objectOpen = self { return true }
        return false
    }
}
