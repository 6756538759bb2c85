// MARK: - Errors of the parser, located in the file

extension JSONRecordReader {
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
            let bad = firstInvalidUTF8(in: bytes, from: index)
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

    /// The index of the first byte at or after `start` that is not part of
    /// valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
    /// above U+10FFFF), or nil when all of it is valid.
    static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            for offset in 1..<length {
                guard index + offset < count else { return index }
                let byte = bytes[index + offset]
                let (lower, upper) = offset == 1 ? (low, high) : (0x80, 0xBF)
                if byte < lower || byte > upper { return index }
            }
            index += length
        }
        return nil
    }

    /// Two uppercase hexadecimal digits.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// The byte at a place where something else was expected, for messages:
    /// `','`, `byte 0xFF` or `end of input`.
    static func describe(_ byte: UInt8?) -> String {
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
