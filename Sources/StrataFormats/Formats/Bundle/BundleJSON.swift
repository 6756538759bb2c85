import StrataCore

/// The JSON text of a bundle's manifest, written by hand so
/// that the same content always gives the same bytes (keys in a fixed
/// order, no whitespace that depends on anything).
enum BundleJSON {
    /// The manifest's text up to its file list: keys in the order of
    /// ``BundleManifest``'s documentation, maps sorted by key, then
    /// `,\n"files":[`.
    static func manifestHead(_ manifest: BundleManifest) -> [UInt8] {
        var text = JSONWriter()
        text.openObject()
        text.member("format", .text(manifest.format))
        text.member("createdBy", .text(manifest.createdBy))
        text.member(
            "model",
            .dictionary([
                field("name", .text(manifest.model.name)),
                field("version", .integer(Int64(manifest.model.version))),
                field("versionIdentifier", .text(manifest.model.versionIdentifier)),
                field(
                    "hashes",
                    .dictionary(
                        sortedKeys(manifest.model.hashes).map {
                            field($0, .text(manifest.model.hashes[$0] ?? ""))
                        })),
            ]))
        text.member(
            "counts",
            .dictionary(
                sortedKeys(manifest.counts).map {
                    field($0, .integer(Int64(manifest.counts[$0] ?? 0)))
                }))
        return text.bytes + Array(",\n\"files\":[".utf8)
    }

    /// One file of the list, on its own line (after a comma unless first).
    static func manifestLine(_ file: BundleManifest.File, first: Bool) -> [UInt8] {
        var line = JSONWriter()
        line.value(
            .dictionary([
                field("path", .text(file.path)), field("bytes", .integer(file.bytes)),
                field("sha256", .text(file.sha256)),
            ]))
        return Array((first ? "\n" : ",\n").utf8) + line.bytes
    }

    /// What ends the manifest.
    static let manifestTail = Array("\n]}\n".utf8)

    /// The keys of `map` in byte order.
    static func sortedKeys<Value>(_ map: [String: Value]) -> [String] {
        map.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private static func field(_ key: String, _ value: RecordValue) -> RecordField {
        RecordField(key: key, value: value)
    }
}
