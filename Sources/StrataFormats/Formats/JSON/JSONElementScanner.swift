/// Finds where one JSON value ends without parsing it: it follows strings
/// (with their escapes) and the nesting of brackets, so the value's bytes
/// can be cut out of a larger document and parsed on their own.
///
/// The scanner resumes where it stopped when its bytes arrive in pieces.
/// It does not check the value's syntax, which the parser does afterwards,
/// but it stops at a closing bracket that does not match its opening one,
/// so the parser sees the mistake within the value's bytes.
struct JSONElementScanner {
    /// The nesting depth beyond which ``tooDeepOffset`` is set.
    let maximumDepth: Int
    /// The current depth of brackets.
    private(set) var depth = 0
    /// The absolute offset of the first bracket past ``maximumDepth``.
    private(set) var tooDeepOffset: Int?
    /// Whether the value is a bare number or literal, which ends at a
    /// delimiter rather than at a closing character.
    private(set) var isBareScalar = false
    private var inString = false
    private var escaped = false
    private var started = false
    // One bit per open bracket up to maximumDepth: set for '{', clear for '['.
    private var openers: [UInt64]

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
        openers = [UInt64](repeating: 0, count: max(1, (maximumDepth + 63) / 64))
    }

    /// Forgets the previous value, ready for the next one.
    mutating func reset() {
        depth = 0
        tooDeepOffset = nil
        isBareScalar = false
        inString = false
        escaped = false
        started = false
    }

    /// Whether the bytes so far end inside a string.
    var isInString: Bool { inString }

    /// Scans `bytes`, which start at absolute offset `base`, continuing the
    /// value begun in earlier calls.
    ///
    /// - Returns: the absolute offset one past the value's last byte, or nil
    ///   when the value goes on after `bytes`.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, base: Int) -> Int? {
        guard let pointer = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        if !started, count > 0 {
            started = true
            let first = pointer[0]
            isBareScalar =
                first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
                && first != UInt8(ascii: "\"")
        }
        while index < count {
            if inString {
                if escaped {
                    escaped = false
                    index += 1
                    continue
                }
                // The common case: plain text up to the closing quote, eight
                // bytes at a time while neither '"' nor '\\' is among them.
                while index + 8 <= count {
                    let word = UnsafeRawPointer(pointer + index).loadUnaligned(as: UInt64.self)
                    if SWAR.hasByte(word, UInt8(ascii: "\""))
                        || SWAR.hasByte(word, UInt8(ascii: "\\"))
                    {
                        break
                    }
                    index += 8
                }
                while index < count {
                    let byte = pointer[index]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                    index += 1
                }
                guard index < count else { return nil }
                if pointer[index] == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    inString = false
                    if depth == 0 { return base + index + 1 }
                }
                index += 1
                continue
            }
            let byte = pointer[index]
            switch byte {
            case UInt8(ascii: "\""):
                if isBareScalar { return base + index }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if isBareScalar { return base + index }
                if depth < maximumDepth {
                    setOpener(depth, isObject: byte == UInt8(ascii: "{"))
                } else if tooDeepOffset == nil {
                    tooDeepOffset = base + index
                }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return base + index }
                depth -= 1
                if depth < maximumDepth, isOpenerObject(depth) != (byte == UInt8(ascii: "}")) {
                    // A mismatched bracket: end here so the parser reports it.
                    return base + index + 1
                }
                if depth == 0 { return base + index + 1 }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
                if depth == 0 { return base + index }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    private mutating func setOpener(_ level: Int, isObject: Bool) {
        let bit = UInt64(1) << UInt64(level & 63)
        if isObject {
            openers[level >> 6] |= bit
        } else {
            openers[level >> 6] &= ~bit
        }
    }

    private func isOpenerObject(_ level: Int) -> Bool {
        openers[level >> 6] & (UInt64(1) << UInt64(level & 63)) != 0
    }
}
