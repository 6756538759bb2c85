import Foundation

/// Writes `contacts.txt` as the rows of Core Data's `ZCONTACT` table, a CSV
/// with the header `Z_PK,Z_ENT,Z_OPT,ZFIRSTNAME,ZLASTNAME,ZNICKNAME`, for the
/// `sqlite3` shell's `.import` to load as is.
///
/// The file is made once per corpus, outside any timed run, and streamed:
/// memory does not grow with the input.
enum ContactCSV {
    /// The header line.
    static let header = "Z_PK,Z_ENT,Z_OPT,ZFIRSTNAME,ZLASTNAME,ZNICKNAME"

    /// Returns the CSV for `corpus`, writing it first if needed.
    ///
    /// - Parameter entity: The `Z_ENT` of `Contact`.
    /// - Throws: ``BenchError`` (`input`) on a malformed line, or a file error.
    static func prepare(for corpus: Corpus, entity: Int) throws -> URL {
        let target = corpus.directory.appendingPathComponent("zcontact-\(entity).csv")
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: target.path) { return target }
        let partial = corpus.directory.appendingPathComponent(
            ".zcontact.\(ProcessInfo.processInfo.processIdentifier).partial")
        guard fileManager.createFile(atPath: partial.path, contents: nil) else {
            throw BenchError(.setup, "cannot write \(partial.path)")
        }
        let output = try FileHandle(forWritingTo: partial)
        defer { try? output.close() }  // Closed explicitly below; this covers errors.

        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 20)
        chunk.append(contentsOf: (header + "\n").utf8)
        let reader = try LineReader(path: corpus.contactsText.path)
        var key = 0
        try reader.forEachLine { bytes, line in
            let contact = try ContactLine(bytes, line: line, path: reader.path)
            key += 1
            chunk.append(contentsOf: "\(key),\(entity),1,".utf8)
            appendField(contact.firstName, to: &chunk)
            chunk.append(UInt8(ascii: ","))
            appendField(contact.lastName, to: &chunk)
            chunk.append(UInt8(ascii: ","))
            // The shell imports an empty field as '' rather than NULL; the
            // generator never leaves a nickname empty.
            appendField(contact.nickname ?? "", to: &chunk)
            chunk.append(UInt8(ascii: "\n"))
            if chunk.count >= 1 << 20 {
                try output.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try output.write(contentsOf: chunk)
        try output.close()
        try fileManager.moveItem(at: partial, to: target)
        return target
    }

    /// Appends `field`, quoted as RFC 4180 requires when it holds a comma,
    /// a quote or a line break.
    private static func appendField(_ field: String, to chunk: inout [UInt8]) {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else {
            chunk.append(contentsOf: field.utf8)
            return
        }
        chunk.append(UInt8(ascii: "\""))
        chunk.append(contentsOf: field.replacingOccurrences(of: "\"", with: "\"\"").utf8)
        chunk.append(UInt8(ascii: "\""))
    }
}
