import StrataCore
import StrataSchema

// MARK: - Errors of the parser, located in the file

extension JSONRecordReader {
    /// `bytes` parsed as one JSON value, or the ``ImportError`` naming the
    /// place of its syntax error (see ``importError(_:file:bytes:start:line:column:keyPath:)``):
    /// they start at absolute offset `start`, at `line` and `column`.
    static func parseNode(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, start: Int, line: Int, column: Int,
        keyPath: String
    ) throws(ImportError) -> RecordField {
        do {
            return try JSONReader.parse(bytes: bytes, firstLine: line, firstColumn: column)
        } catch {
            throw importError(
                error, file: file, bytes: bytes, start: start, line: line, column: column,
                keyPath: keyPath)
        }
    }

    /// An ``ImportError`` for the parser's `error` in the record whose text
    /// is `bytes`, starting at absolute `start`, `line` and `column`.
    ///
    /// Invalid UTF-8 is reported at its first bad byte as
    /// ``ImportError/Code/encoding`` (the parser names only the string that
    /// holds it), an unpaired surrogate escape as `encoding` too, a number
    /// beyond a Double's range as ``ImportError/Code/invalidValue``, and
    /// nesting beyond the parser's own depth as ``ImportError/Code/tooLarge``.
    static func importError(
        _ error: JSONSyntaxError, file: String, bytes: UnsafeBufferPointer<UInt8>,
        start: Int, line: Int, column: Int, keyPath: String
    ) -> ImportError {
        var cursor = JSONTextCursor(bytes: bytes, line: line, column: column)
        let index = cursor.index(line: error.line, column: error.column)
        var position = SourcePosition(
            file: file, line: error.line, column: error.column,
            byteOffset: Int64(start + index), keyPath: keyPath)
        if error.kind == .encoding || (index < bytes.count && bytes[index] >= 0x80),
            let bad = UTF8Validator.firstProblem(in: bytes, from: index, allowingNUL: true)?.index
        {
            let place = cursor.lineAndColumn(ofIndex: bad)
            position.line = place.line
            position.column = place.column
            position.byteOffset = Int64(start + bad)
            return ImportError(
                .encoding, at: position,
                "invalid UTF-8: byte 0x\(hexByte(bytes[bad])) does not belong to a valid sequence")
        }
        switch error.kind {
        case .syntax: return ImportError(.syntax, at: position, error.message)
        case .encoding: return ImportError(.encoding, at: position, error.message)
        case .range: return ImportError(.invalidValue, at: position, error.message)
        case .depth: return ImportError(.tooLarge, at: position, error.message)
        }
    }

    /// Two uppercase hexadecimal digits.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The byte at a place where something else was expected, for messages:
    /// `','`, `byte 0xFF` or `end of input`.
    package static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x\(hexByte(byte))"
    }

    /// What a value starting with `byte` is: `a string`, `a number`…
    static func kind(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"): return "true"
        case UInt8(ascii: "f"): return "false"
        case UInt8(ascii: "n"): return "null"
        default: return "not a JSON value (\(describe(byte)))"
        }
    }
}

extension JSONTextCursor {
    /// The line and column of the byte at `target`, counted from the start.
    func lineAndColumn(ofIndex target: Int) -> (line: Int, column: Int) {
        var tracker = JSONLineTracker()
        tracker.line = startLine
        tracker.column = startColumn
        tracker.advance(over: UnsafeBufferPointer(rebasing: bytes[0..<min(target, bytes.count)]))
        return (tracker.line, tracker.column)
    }
}
