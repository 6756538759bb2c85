import StrataCore

extension JSONOutput {
    /// `value` as one line of JSON, keys sorted: the form read line by line,
    /// as `strata migrate --json` on several stores writes one per store.
    static func line(_ value: some Encodable) throws -> String {
        var writer = JSONWriter(
            style: JSONWriter.Style(indent: nil, uppercaseHex: false, wholeRealsAsIntegers: true))
        writer.value(try RecordValue(encoding: value), sortingKeys: true)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
