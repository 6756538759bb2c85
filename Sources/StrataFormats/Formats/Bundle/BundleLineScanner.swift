import StrataCore
import StrataSchema

/// A cursor over one line of a bundle's data file that reads the JSON
/// pieces a line is made of — whitespace, punctuation, strings, integers,
/// literals — straight from its bytes, making no `String`s and no tree.
///
/// It is the fast path of ``BundleObjectDecoder``: every method answers
/// nil or false for anything it does not read exactly as strict JSON
/// (RFC 8259) would, and the decoder then reads the line again with the
/// general ``JSONReader``, whose errors name what is wrong. So the scanner
/// may decline what is valid, but never accepts what is not.
struct BundleLineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index of the next byte to read.
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// Skips JSON whitespace: space, tab, line feed, carriage return.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then `byte` if it comes next.
    ///
    /// - Returns: Whether `byte` was there.
    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Skips whitespace and answers the next byte without reading it.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Reads `null` if it comes next; what follows is the caller's to check
    /// (a `,`, `]` or `}`).
    mutating func consumeNull() -> Bool {
        let start = position
        if peek() == UInt8(ascii: "n"), scalar() == .null { return true }
        position = start
        return false
    }

    /// Reads a string that holds no escape, as its bytes in the line: a
    /// member's name. Declines escapes (a name is matched byte for byte,
    /// so one spelled with escapes is left to the general reader) and
    /// control characters.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
        }
        return nil
    }

    /// Reads a string, appending its text (escapes resolved) to `output` as
    /// UTF-8. Declines control characters, unknown escapes, unpaired
    /// surrogates and bytes that are not UTF-8; `output` then holds part of
    /// the string, which the caller drops.
    package mutating func string(into output: inout [UInt8]) -> Bool {
        guard consume(UInt8(ascii: "\"")) else { return false }
        while position < bytes.count {
            // A run of plain ASCII is copied at once.
            let run = position
            while position < bytes.count {
                let byte = bytes[position]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""),
                    byte != UInt8(ascii: "\\")
                else { break }
                position += 1
            }
            if position > run {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<position]))
            }
            guard position < bytes.count else { return false }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return true
            } else if byte == UInt8(ascii: "\\") {
                guard escape(into: &output) else { return false }
            } else if byte >= 0x80 {
                let length = UTF8Validator.sequenceLength(in: bytes, at: position)
                guard length > 0 else { return false }
                output.append(
                    contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<(position + length)])
                )
                position += length
            } else {
                return false  // A control character.
            }
        }
        return false
    }

    /// Reads a number, `true`, `false` or `null` with the general reader's
    /// own parser (``JSONParser``), so that numbers are classified and
    /// checked exactly as there; nil for anything else.
    mutating func scalar() -> RecordValue? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"),
            UInt8(ascii: "f"), UInt8(ascii: "n"):
            break
        default:
            return nil  // Strings, arrays and objects are read otherwise.
        }
        // From here on: its columns start at 1, not counted from the line's start.
        var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: bytes[position...]), line: 1)
        guard let node = try? parser.parseValue() else { return nil }
        position += parser.index
        return node.value
    }

    // MARK: - Pieces of strings

    /// Reads one escape (`\n`, `\u00e9`, a surrogate pair…) at the cursor.
    private mutating func escape(into output: inout [UInt8]) -> Bool {
        guard position + 1 < bytes.count else { return false }
        let letter = bytes[position + 1]
        position += 2
        let simple: UInt8? =
            switch letter {
            case UInt8(ascii: "\""): 0x22
            case UInt8(ascii: "\\"): 0x5C
            case UInt8(ascii: "/"): 0x2F
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            output.append(simple)
            return true
        }
        guard letter == UInt8(ascii: "u"), var scalar = hexQuad() else { return false }
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by an escaped low one.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { return false }
            position += 2
            guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return false }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            return false
        }
        guard let unicode = Unicode.Scalar(scalar), let encoded = UTF8.encode(unicode) else {
            return false
        }
        output.append(contentsOf: encoded)
        return true
    }

    /// Reads four hexadecimal digits.
    private mutating func hexQuad() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
