import StrataCore

/// The JSON written by `--json`: pretty, with sorted keys, so output is
/// stable from run to run; built by Strata's one JSON writer in the layout
/// Foundation's `JSONEncoder` pretty-prints.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        var writer = JSONWriter(style: .pretty)
        writer.value(try RecordValue(encoding: value), sortingKeys: true)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
