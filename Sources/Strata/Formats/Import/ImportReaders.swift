import Foundation

/// An opened input: flat text fields or nested records.
public enum ImportSource {
    /// CSV, TSV, txt lines.
    case fields(any FieldRecordReader)
    /// Plists, JSON, NDJSON, txt blocks and files.
    case records(any TreeRecordReader)
}

/// Opens the reader of each format, and the matching rejects writer.
public enum ImportReaders {
    /// The reader of `path` in `format`.
    ///
    /// - Throws: ``ImportError`` (`unreadable`) when the input cannot be opened.
    public static func open(
        _ path: String, format: ImportFormat, reading: ImportReadingOptions, limits: ImportLimits
    ) throws -> ImportSource {
        switch format {
        case .txtBlocks:
            return .records(try TextBlockReader(path: path, limits: limits))
        case .txtFiles:
            return .records(try TextFileReader(folder: path, limits: limits))
        default:
            throw ImportError(.unreadable, at: SourcePosition(file: path), "\(format.rawValue) is not readable yet")
        }
    }

    /// A rejects writer at `path` for records of `source`, in `format`.
    public static func rejectWriter(
        _ path: String, format: ImportFormat, source: ImportSource, reading: ImportReadingOptions
    ) throws -> any RejectWriter {
        switch format {
        case .txtBlocks:
            return try TextBlockWriter(path: path)
        case .txtFiles, .txtLines:
            return try LineRejectWriter(path: path)
        default:
            throw ImportError(.unreadable, at: SourcePosition(file: path), "no rejects writer for \(format.rawValue) yet")
        }
    }
}
