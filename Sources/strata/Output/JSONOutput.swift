import Strata

/// The JSON written by `--json`: pretty, with sorted keys, so output is
/// stable from run to run; built by Strata's one JSON writer in the layout
/// Foundation's `JSONEncoder` pretty-prints.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        try RecordValue(encoding: value).jsonText(pretty: true)
    }
}
