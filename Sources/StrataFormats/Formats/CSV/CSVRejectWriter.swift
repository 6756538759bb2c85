import Foundation
import StrataCore

/// Writes rejected CSV (or TSV) records to a file of the same dialect: the
/// input's header plus a `strata_error` column, then each record as it was
/// in the input with the reason appended. Fixed and imported again, the
/// file needs no other options: the importer ignores `strata_error`.
public final class CSVRejectWriter: RejectWriter {
    private let handle: FileHandle
    private let delimiter: UInt8
    private let fieldCount: Int

    /// Creates (or replaces) the rejects file at `path`.
    ///
    /// - Parameters:
    ///   - header: The input's header; nil when it had none (then no
    ///     header is written either).
    ///   - fieldCount: Fields per record, for the empty fields of a record
    ///     the reader could not give.
    /// - Throws: ``ImportError`` (`unreadable`) when the file cannot be created.
    public init(path: String, header: [String]?, fieldCount: Int, delimiter: UInt8) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw ImportError(
                .unreadable, at: SourcePosition(file: path), "cannot create the rejects file")
        }
        self.handle = handle
        self.delimiter = delimiter
        self.fieldCount = fieldCount
        if let header {
            let names = (header + [FieldNameFolding.rejectReasonField]).map { quoted($0) }
            try write(names.joined(separator: String(UnicodeScalar(delimiter))) + "\r\n")
        }
    }

    /// Writes one rejected record and its reason.
    public func write(_ rejected: RejectedRecord) throws {
        var line: String
        if let text = rejected.originalText {
            line = String(decoding: text, as: UTF8.self)
        } else {
            line = String(
                repeating: String(UnicodeScalar(delimiter)), count: max(fieldCount - 1, 0))
        }
        line += String(UnicodeScalar(delimiter)) + quoted(rejected.error.description) + "\r\n"
        try write(line)
    }

    /// Closes the file.
    public func finish() throws {
        try handle.synchronize()
        try handle.close()
    }

    private func write(_ text: String) throws {
        try handle.write(contentsOf: Data(text.utf8))
    }

    private func quoted(_ field: String) -> String {
        let special = field.utf8.contains {
            $0 == delimiter || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n")
                || $0 == UInt8(ascii: "\r")
        }
        return special ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
