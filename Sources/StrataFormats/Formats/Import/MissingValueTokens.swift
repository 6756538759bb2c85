/// The cell texts that mean "no value" for one attribute (`--null NA,NULL`,
/// a mapping file's `"nulls"` and `"fieldNulls"`), compared as bytes.
struct MissingValueTokens {
    /// Each token's UTF-8 bytes.
    private let tokens: [[UInt8]]

    /// The tokens of `texts`; nil when there are none (the common case costs
    /// one nil check per cell).
    init?(_ texts: [String]) {
        guard !texts.isEmpty else { return nil }
        tokens = texts.map { Array($0.utf8) }
    }

    /// Whether `bytes` is one of the tokens, exactly.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        tokens.contains { token in
            token.count == bytes.count && token.withUnsafeBufferPointer { $0.elementsEqual(bytes) }
        }
    }

    /// How R, pandas, spreadsheets and databases write "no value": a value
    /// that fails to convert and is one of these gets a hint to `--null`.
    static let common: Set<String> = [
        "NA", "N/A", "n/a", "NULL", "null", "Null", "NaN", "nan", "-", "--", "None", "none",
        "nil", "#N/A", "missing", ".", "?",
    ]

    /// The hint a failed value adds when it is a common token; nil when not.
    static func hint(for bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count <= 8 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard common.contains(text) else { return nil }
        let option = text.contains(",") || text.contains(" ") ? "'\(text)'" : text
        return "if '\(text)' means no value here, give --null \(option)"
    }
}
