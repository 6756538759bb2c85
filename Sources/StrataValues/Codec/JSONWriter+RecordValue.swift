import Foundation

extension JSONWriter {
    /// `value` as JSON: dates as ISO 8601 text (``date(_:)``), data as
    /// base64 text, sets as arrays, reals as the style says
    /// (``Style/wholeRealsAsIntegers``); a dictionary's keys in their order,
    /// or sorted by their UTF-8 bytes when `sortingKeys` (a key given twice
    /// then keeps its last value).
    package mutating func value(_ value: RecordValue, sortingKeys: Bool = false) {
        switch value {
        case .null: null()
        case .boolean(let flag): boolean(flag)
        case .integer(let number): integer(number)
        case .unsignedInteger(let number), .uid(let number): integer(number)
        case .real(let number): style.wholeRealsAsIntegers ? self.number(number) : real(number)
        case .text(let text): string(text)
        case .date(let date): self.date(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): data(bytes)
        case .array(let elements), .set(let elements):
            openArray()
            for element in elements { self.value(element.value, sortingKeys: sortingKeys) }
            closeArray()
        case .dictionary(let fields) where sortingKeys:
            var entries: [String: RecordValue] = [:]
            for field in fields { entries[field.key] = field.value }
            openObject()
            for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                self.key(key)
                if let entry = entries[key] { self.value(entry, sortingKeys: true) }
            }
            closeObject()
        case .dictionary(let fields):
            openObject()
            for field in fields {
                key(field.key)
                self.value(field.value)
            }
            closeObject()
        }
    }
}

extension RecordValue {
    /// The value as JSON text, keys sorted by their UTF-8 bytes: `pretty`
    /// in the layout Foundation's `JSONEncoder` pretty-prints (two spaces
    /// per level, `" : "`), else on one line; whole reals without a
    /// fraction, dates as ISO 8601 text, bytes as base64 text.
    ///
    /// ```swift
    /// struct Summary: Encodable { var rows: Int }
    /// let text = try RecordValue(encoding: Summary(rows: 3)).jsonText(pretty: false)
    /// // {"rows":3}
    /// ```
    public func jsonText(pretty: Bool) -> String {
        var writer = JSONWriter(
            style: pretty
                ? .pretty
                : JSONWriter.Style(indent: nil, uppercaseHex: false, wholeRealsAsIntegers: true))
        writer.value(self, sortingKeys: true)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
