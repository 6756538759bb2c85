import Foundation
import StrataCore
import StrataSchema

extension BundleManifest {
    /// Why `manifest.json` could not be read: a message naming the JSON
    /// path (`files[3].bytes`) or the place of a syntax error.
    package struct ReadError: Error, Sendable {
        /// What was wrong, and where.
        package let message: String
    }

    /// Reads `manifest.json` through Strata's one JSON reader
    /// (``JSONReader``); members it does not know are ignored, as the
    /// format's later minor versions may add some.
    ///
    /// - Throws: ``ReadError`` for bytes that are not JSON (with line and
    ///   column), a member missing (`no 'files'`) or of the wrong type
    ///   (`'files[3].bytes' is not an integer`).
    package init(json data: Data) throws(ReadError) {
        let root: RecordField
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw ReadError(message: "not JSON (\(error))")
        }
        let top = try Self.object(root, at: "")
        let model = try Self.object(Self.member(top, "model", at: ""), at: "model")
        var hashes: [String: String] = [:]
        for member in try Self.object(Self.member(model, "hashes", at: "model"), at: "model.hashes")
        {
            hashes[member.key] = try Self.string(member, at: "model.hashes.\(member.key)")
        }
        var counts: [String: Int] = [:]
        for member in try Self.object(Self.member(top, "counts", at: ""), at: "counts") {
            counts[member.key] = Int(try Self.integer(member, at: "counts.\(member.key)"))
        }
        var files: [File] = []
        guard case .array(let items) = try Self.member(top, "files", at: "").value else {
            throw ReadError(message: "'files' is not an array")
        }
        for (index, item) in items.enumerated() {
            let path = "files[\(index)]"
            let file = try Self.object(item, at: path)
            files.append(
                File(
                    path: try Self.string(Self.member(file, "path", at: path), at: path + ".path"),
                    bytes: try Self.integer(
                        Self.member(file, "bytes", at: path), at: path + ".bytes"),
                    sha256: try Self.string(
                        Self.member(file, "sha256", at: path), at: path + ".sha256")))
        }
        self.init(
            format: try Self.string(Self.member(top, "format", at: ""), at: "format"),
            createdBy: try Self.string(Self.member(top, "createdBy", at: ""), at: "createdBy"),
            model: ModelVersion(
                name: try Self.string(Self.member(model, "name", at: "model"), at: "model.name"),
                version: Int(
                    try Self.integer(
                        Self.member(model, "version", at: "model"), at: "model.version")),
                versionIdentifier: try Self.string(
                    Self.member(model, "versionIdentifier", at: "model"),
                    at: "model.versionIdentifier"),
                hashes: hashes),
            counts: counts, files: files)
    }

    private static func object(_ node: RecordField, at path: String) throws(ReadError)
        -> [RecordField]
    {
        guard case .dictionary(let members) = node.value else {
            throw ReadError(
                message: path.isEmpty
                    ? "the manifest is not an object" : "'\(path)' is not an object")
        }
        return members
    }

    /// The last member named `key` (as a decoder of a dictionary keeps it).
    private static func member(_ members: [RecordField], _ key: String, at path: String)
        throws(ReadError) -> RecordField
    {
        guard let found = members.last(where: { $0.key == key }) else {
            throw ReadError(message: "no '\(path.isEmpty ? key : path + "." + key)'")
        }
        return found
    }

    private static func string(_ node: RecordField, at path: String) throws(ReadError) -> String {
        guard case .text(let text) = node.value else {
            throw ReadError(message: "'\(path)' is not a string")
        }
        return text
    }

    private static func integer(_ node: RecordField, at path: String) throws(ReadError) -> Int64 {
        guard case .integer(let number) = node.value else {
            throw ReadError(message: "'\(path)' is not an integer")
        }
        return number
    }
}
