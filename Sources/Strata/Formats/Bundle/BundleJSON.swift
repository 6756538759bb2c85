/// The JSON text of a bundle's manifest and data lines, written by hand so
/// that the same content always gives the same bytes (keys in a fixed
/// order, no whitespace that depends on anything).
enum BundleJSON {
    /// The manifest's text: `files` one per line, everything else on the
    /// first lines, keys in the order of ``BundleManifest``'s documentation
    /// and maps sorted by key.
    static func manifest(
        _ manifest: BundleManifest, files: some Sequence<BundleManifest.File>
    ) -> [UInt8] {
        var text = JSONTextEncoder()
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
        var bytes = text.bytes
        bytes += Array(",\n\"files\":[".utf8)
        var first = true
        for file in files {
            var line = JSONTextEncoder()
            line.value(
                .dictionary([
                    field("path", .text(file.path)), field("bytes", .integer(file.bytes)),
                    field("sha256", .text(file.sha256)),
                ]))
            bytes += Array((first ? "\n" : ",\n").utf8)
            bytes += line.bytes
            first = false
        }
        bytes += Array("\n]}\n".utf8)
        return bytes
    }

    /// The keys of `map` in byte order.
    static func sortedKeys<Value>(_ map: [String: Value]) -> [String] {
        map.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    private static func field(_ key: String, _ value: ImportValue) -> ImportField {
        ImportField(key: key, value: value, position: Exporter.noPosition)
    }
}
