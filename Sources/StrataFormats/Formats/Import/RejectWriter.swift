import Foundation

/// A record the importer left out, with why.
public struct RejectedRecord: Sendable {
    /// What was wrong, and where.
    public var error: ImportError
    /// The record's text as it was in the input, when the reader could give it.
    public var originalText: Data?
    /// The record's values, for formats written from values (plists).
    public var record: ImportRecord?

    /// Creates a rejected record.
    public init(error: ImportError, originalText: Data?, record: ImportRecord?) {
        self.error = error
        self.originalText = originalText
        self.record = record
    }
}

/// Writes rejected records to a file in the input's own format, with the
/// reason in a `strata_error` field (or comment), so the file can be fixed
/// and imported again: the importer ignores that field.
public protocol RejectWriter: AnyObject {
    /// Writes one rejected record.
    func write(_ rejected: RejectedRecord) throws
    /// Flushes and closes the file.
    func finish() throws
}
