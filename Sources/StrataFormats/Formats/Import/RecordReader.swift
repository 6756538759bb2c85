import Foundation
import StrataCore

/// How far a reader has got through its input, for progress bars.
public protocol ImportProgressSource: AnyObject {
    /// Bytes of the input consumed so far.
    var bytesRead: Int64 { get }
    /// The size of the whole input in bytes, when known.
    var totalBytes: Int64? { get }
    /// What the reader guessed and the user should know, such as an
    /// encoding read as Windows-1252 (``TextEncoding/automatic``).
    var notes: [String] { get }
}

extension ImportProgressSource {
    /// None: a reader that guesses nothing.
    public var notes: [String] { [] }
}

/// A streaming reader of records whose fields are flat text: CSV, TSV and
/// txt lines.
///
/// Fields are handed out as UTF-8 bytes inside the reader's own buffer, so
/// reading a row allocates nothing; the bytes are valid until the next call
/// to ``nextRecord()``.
public protocol FieldRecordReader: ImportProgressSource {
    /// The input's path as given.
    var file: String { get }
    /// The field names of the header row, or nil when the input has none.
    var header: [String]? { get }
    /// Reads the next record.
    ///
    /// - Returns: false after the last record.
    /// - Throws: ``ImportError`` located at the offending byte (an unclosed
    ///   quote, bad encoding, a ragged row, a field over the size limit).
    ///   After a ragged row the reader can go on with the next record.
    func nextRecord() throws -> Bool
    /// The number of fields of the current record.
    var fieldCount: Int { get }
    /// The UTF-8 bytes of field `index` (0-based) of the current record,
    /// quotes removed and doubled quotes undoubled.
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8>
    /// Whether field `index` was quoted: `""` is an empty string, while an
    /// empty unquoted field is no value at all.
    func isQuoted(_ index: Int) -> Bool
    /// Where the current record starts.
    var recordPosition: SourcePosition { get }
    /// Where field `index` of the current record starts.
    func position(ofField index: Int) -> SourcePosition
    /// The current record as it is in the input (without its line ending),
    /// in UTF-8, for the rejects file.
    func recordText() -> Data
    /// Makes `count` declared field names (``ImportOptions/columns``) the
    /// shape of the records read from here on, in place of the header's or
    /// the first record's field count: a record may end before the last
    /// declared field (the missing trailing fields give no value) or go
    /// beyond it (the importer refuses the extra fields, or ignores them).
    func declareFieldCount(_ count: Int)
}

extension FieldRecordReader {
    /// Does nothing: a reader that checks no field count has no shape to
    /// change.
    public func declareFieldCount(_ count: Int) {}
}

/// A streaming reader of records made of nested values: plists, JSON,
/// NDJSON, txt blocks and txt files.
public protocol TreeRecordReader: ImportProgressSource {
    /// The input's path as given.
    var file: String { get }
    /// The next record, or nil after the last one.
    ///
    /// - Throws: ``ImportError`` located at the offending place. After an
    ///   error inside a record whose end the reader could still find (a bad
    ///   value in one JSON line), the reader can go on with the next record;
    ///   after a syntax error of the whole file, every call throws.
    func nextRecord() throws -> ImportRecord?
}
