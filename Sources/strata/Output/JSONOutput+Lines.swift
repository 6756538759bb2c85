import Strata

extension JSONOutput {
    /// `value` as one line of JSON, keys sorted: the form read line by line,
    /// as `strata migrate --json` on several stores writes one per store.
    static func line(_ value: some Encodable) throws -> String {
        try RecordValue(encoding: value).jsonText(pretty: false)
    }
}
