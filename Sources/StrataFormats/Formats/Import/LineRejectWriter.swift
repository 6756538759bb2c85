import Foundation
import StrataCore

/// Writes rejected records of formats with no room for a reason (txt
/// lines, txt files): the records verbatim to the rejects file, so it can
/// be fixed and imported as it is, and `file:line:column: reason` lines to
/// `<rejects>.reasons.txt` beside it.
public final class LineRejectWriter: RejectWriter {
    private let records: FileHandle
    private let reasons: FileHandle

    /// Creates (or replaces) the rejects file at `path` and its reasons file.
    ///
    /// - Throws: ``ImportError`` (`unreadable`) when a file cannot be created.
    public init(path: String) throws {
        func create(_ path: String) throws -> FileHandle {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let handle = FileHandle(forWritingAtPath: path)
            else {
                throw ImportError(
                    .unreadable, at: SourcePosition(file: path), "cannot create the rejects file")
            }
            return handle
        }
        records = try create(path)
        reasons = try create(path + ".reasons.txt")
    }

    /// Writes one rejected record and its reason.
    public func write(_ rejected: RejectedRecord) throws {
        if let text = rejected.originalText {
            try records.write(contentsOf: text + Data("\n".utf8))
        }
        try reasons.write(contentsOf: Data((rejected.error.description + "\n").utf8))
    }

    /// Closes both files.
    public func finish() throws {
        for handle in [records, reasons] {
            try handle.synchronize()
            try handle.close()
        }
    }
}
