import StrataCore

/// Turns the line and column of a ``JSONSyntaxError`` (which carries no
/// byte offset; values do) back into its byte offset in the record's text.
///
/// Asked in document order, the cursor only moves forward, one pass over
/// the bytes. It breaks
/// lines as the reader does (LF, CR, CRLF) and counts columns in scalars.
struct JSONTextCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let startLine: Int
    let startColumn: Int
    private var index = 0
    private var line: Int
    private var column: Int
    // In ASCII text a column is a byte, so moving along a line up to the
    // next non-ASCII byte is a jump.
    private var nextNonASCII = -1

    /// A cursor over `bytes`, whose first byte is at `line` and `column`.
    init(bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) {
        self.bytes = bytes
        startLine = line
        startColumn = column
        self.line = line
        self.column = column
    }

    /// The index in ``bytes`` of the character at `line` and `column`
    /// (the end of the bytes when the text is shorter).
    mutating func index(line targetLine: Int, column targetColumn: Int) -> Int {
        if targetLine < line || (targetLine == line && targetColumn < column) {
            index = 0
            line = startLine
            column = startColumn
            nextNonASCII = -1
        }
        let count = bytes.count
        while line < targetLine && index < count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x0D {
                if index < count && bytes[index] == 0x0A { index += 1 }
                line += 1
                column = 1
            }
        }
        while column < targetColumn && index < count {
            if nextNonASCII < index {
                let rest = UnsafeBufferPointer(rebasing: bytes[index...])
                nextNonASCII = index + (UTF8Validator.firstNonASCII(in: rest) ?? rest.count)
            }
            let jump = min(targetColumn - column, nextNonASCII - index)
            if jump > 0 {
                index += jump
                column += jump
                continue
            }
            index += 1
            // Skip the continuation bytes (10xxxxxx) of a multibyte scalar.
            while index < count && bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index
    }
}
