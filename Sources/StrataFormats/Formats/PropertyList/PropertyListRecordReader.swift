import Foundation
import StrataCore

/// Reads the records of a property list, XML or binary, one at a time.
///
/// Two shapes of plist hold records:
///
/// - an array of dicts: each dict is a record, whose ``ImportRecord/group``
///   is nil and whose key path is its index, `[3]`;
/// - a dict whose values are arrays of dicts: each dict is a record whose
///   group is the key of its array (`recipes`), key path `recipes[3]`.
///   Every value of such a root dict must be an array of dicts: any other
///   value (`<key>version</key><integer>2</integer>`) is a
///   ``ImportError/Code/structure`` error naming its key, thrown when the
///   reader reaches it; the reader can go on with the next key after it.
///
/// Any other root (a string, an array of strings, …) is a `.structure`
/// error naming the key path and what was expected.
///
/// Each record's fields are its dict's entries in file order: `<string>`
/// becomes ``RecordValue/text(_:)`` (white space kept), `<integer>`
/// ``RecordValue/integer(_:)``, or ``RecordValue/unsignedInteger(_:)`` above
/// 2⁶³−1 up to 2⁶⁴−1, `<real>` ``RecordValue/real(_:)`` (`nan`,
/// `+infinity`, `-infinity` included), `<true/>`/`<false/>`
/// ``RecordValue/boolean(_:)``, `<date>` (`2024-01-31T12:00:00Z`)
/// ``RecordValue/date(_:)``, `<data>` (base64) ``RecordValue/data(_:)``,
/// and nested arrays and dicts ``RecordValue/array(_:)`` and
/// ``RecordValue/dictionary(_:)``. Every field carries its key path, such as
/// `[3].ingredients[0].name`.
///
/// A key that occurs twice in one dict is a `.structure` error (Apple's
/// parser silently keeps the last value; an importer must not guess which
/// one was meant). Nesting deeper than ``ImportLimits/maximumDepth``
/// (counting the root container as 1), a dict or array of more than
/// ``ImportLimits/maximumFieldCount`` entries, a record longer than
/// ``ImportLimits/maximumRecordBytes`` or a value longer than
/// ``ImportLimits/maximumFieldBytes`` is a ``ImportError/Code/tooLarge``
/// error. After an error inside one record, or a root entry that is not a
/// record, the reader goes on with the next record; after a syntax error
/// of the file, every call throws it again.
///
/// XML plists are streamed through ``XMLStreamReader``: only the record
/// being read is in memory, and DTD entity declarations (the "billion
/// laughs", external entities) are refused. Their positions have a line,
/// a column and a byte offset. Binary plists (`bplist00`) have their
/// directory at the end of the file, so they are read whole, up to
/// ``maximumBinaryFileBytes``; their positions have a key path and the byte
/// offset of the object, and line 0.
///
/// ```swift
/// let reader = try PropertyListRecordReader(path: "recipes.plist")
/// while let record = try reader.nextRecord() {
///     print(record.position, record.fields.map(\.key))
/// }
/// ```
public final class PropertyListRecordReader: TreeRecordReader {
    /// The two encodings of a property list.
    public enum Format: String, Hashable, Sendable {
        /// An XML property list (Apple's `PropertyList-1.0.dtd`).
        case xml
        /// A binary property list (`bplist00`).
        case binary
    }

    /// The largest binary plist read (256 MiB): a binary plist is read into
    /// memory whole.
    public static let maximumBinaryFileBytes: Int64 = 256 * 1024 * 1024

    /// The input's path as given.
    public let file: String
    /// The encoding the file turned out to have.
    public let format: Format
    /// The size of the file in bytes.
    public let totalBytes: Int64?
    private let source: PropertyListRecordSource

    /// Opens a property list and finds its format; nothing is read yet
    /// past its first bytes (a binary plist is read whole).
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limits: The bounds on nesting and sizes.
    /// - Throws: ``ImportError`` `.unreadable` when the file cannot be
    ///   opened, `.tooLarge` for a binary plist over
    ///   ``maximumBinaryFileBytes``, `.syntax` for a damaged binary plist's
    ///   header, `.structure` for an OpenStep (text) plist.
    public convenience init(path: String, limits: ImportLimits = .init()) throws {
        try self.init(path: path, limits: limits, maximumBinaryBytes: Self.maximumBinaryFileBytes)
    }

    /// Opens a property list with a binary size limit of its own, so tests
    /// can reach it with small files.
    init(path: String, limits: ImportLimits, maximumBinaryBytes: Int64) throws {
        file = path
        let start = SourcePosition(file: path)
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw ImportError(
                .unreadable, at: start, "cannot open the file (no such file or no access)")
        }
        defer { try? handle.close() }  // Only read; nothing to report.
        let head: Data
        let size: Int64
        do {
            size = Int64(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            head = try handle.read(upToCount: 64) ?? Data()
        } catch {
            throw ImportError(.unreadable, at: start, "cannot read the file (\(error))")
        }
        totalBytes = size
        if head.starts(with: Array("bplist".utf8)) {
            guard head.starts(with: Array("bplist00".utf8)) else {
                throw ImportError(
                    .syntax, at: start,
                    "binary property list of an unknown version; expected bplist00")
            }
            guard size <= maximumBinaryBytes else {
                throw ImportError(
                    .tooLarge, at: start,
                    "binary property list of \(size) bytes; at most \(maximumBinaryBytes)"
                        + " are read (binary plists are read whole)")
            }
            let data: Data
            do {
                try handle.seek(toOffset: 0)
                // Never more than the limit, even if the file grew meanwhile.
                data = try handle.read(upToCount: Int(size)) ?? Data()
            } catch {
                throw ImportError(.unreadable, at: start, "cannot read the file (\(error))")
            }
            format = .binary
            source = try BinaryPropertyListRecords(file: path, data: data, limits: limits)
        } else {
            // An OpenStep plist starts with `{` or `(` after white space and
            // perhaps a UTF-8 byte-order mark; XML would fail on it less clearly.
            let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]
            if let first = text.first(where: { !Self.isSpace($0) }),
                first == UInt8(ascii: "{") || first == UInt8(ascii: "(")
            {
                throw ImportError(
                    .structure, at: start,
                    "an OpenStep (text) property list; expected an XML or binary property list")
            }
            format = .xml
            source = try XMLPropertyListRecords(file: path, limits: limits)
        }
    }

    /// The bytes of the input consumed so far.
    public var bytesRead: Int64 { source.bytesRead }

    /// The next record, or nil after the last one.
    ///
    /// - Throws: ``ImportError`` located at the offending element: `.syntax`
    ///   for malformed XML or a damaged binary plist, `.structure` for a
    ///   root that does not hold records or a duplicate key,
    ///   `.invalidValue` for a value that does not read as its type,
    ///   `.tooLarge` past a limit.
    public func nextRecord() throws -> ImportRecord? {
        try source.nextRecord()
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// One encoding's way of producing a plist's records.
protocol PropertyListRecordSource: AnyObject {
    /// The bytes of the input consumed so far.
    var bytesRead: Int64 { get }
    /// The next record, or nil after the last one.
    func nextRecord() throws -> ImportRecord?
}
