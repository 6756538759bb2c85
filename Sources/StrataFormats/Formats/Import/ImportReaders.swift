import Foundation
import StrataCore

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
    /// - Parameter fileNameInto: txt-files: the field that gets each
    ///   record's file name (``ImportOptions/fileNameInto``).
    /// - Throws: ``ImportError`` (`unreadable`) when the input cannot be
    ///   opened; (`structure`) for `fileNameInto` with another format than
    ///   txt-files.
    public static func open(
        _ path: String, format: ImportFormat, reading: ImportReadingOptions, limits: ImportLimits,
        fileNameInto: String? = nil
    ) throws -> ImportSource {
        if let fileNameInto, format != .txtFiles {
            throw ImportError(
                .structure, at: SourcePosition(file: path),
                "a file name goes into '\(fileNameInto)' only for txt-files (a folder of .txt "
                    + "files, one record each); the input is \(format.rawValue)")
        }
        switch format {
        case .csv where reading.delimiter == nil:
            // The delimiter comes from the header; the rest from the options.
            return .fields(
                try CSVReader(
                    path: path,
                    guessingDelimiterWith: CSVDialect(
                        quote: reading.quote, hasHeader: reading.hasHeader ?? true,
                        encoding: reading.encoding),
                    limits: limits))
        case .csv, .tsv, .txtLines:
            return .fields(
                try CSVReader(path: path, dialect: dialect(format, reading), limits: limits))
        case .plist:
            return .records(try PropertyListRecordReader(path: path, limits: limits))
        case .json, .ndjson:
            let reader = try JSONRecordReader(
                path: path, lines: format == .ndjson ? true : nil, limits: limits)
            reader.selectedPaths = reading.paths
            return .records(reader)
        case .txtBlocks:
            return .records(
                try TextBlockReader(path: path, limits: limits, encoding: reading.encoding))
        case .txtFiles:
            return .records(
                try TextFileReader(
                    folder: path, limits: limits, fileNameKey: fileNameInto,
                    encoding: reading.encoding))
        }
    }

    /// A rejects writer at `path` for records of `source`, in `format`.
    /// `name` is the file the rejects end up in, when `path` is a work file
    /// beside it: a JSON input's rejects named `.json` are one JSON array,
    /// any other name JSON Lines (`.jsonl`), so each reads back as named.
    public static func rejectWriter(
        _ path: String, format: ImportFormat, source: ImportSource, reading: ImportReadingOptions,
        name: String? = nil
    ) throws -> any RejectWriter {
        switch format {
        case .csv, .tsv:
            guard case .fields(let reader) = source else { break }
            return try CSVRejectWriter(
                path: path, header: reader.header, fieldCount: reader.header?.count ?? 0,
                delimiter: (reader as? CSVReader)?.dialect.delimiter ?? UInt8(ascii: ","))
        case .plist:
            return try PropertyListRecordWriter(path: path)
        case .json, .ndjson:
            return try JSONRecordWriter(
                path: path,
                asArray: URL(fileURLWithPath: name ?? path).pathExtension.lowercased() == "json")
        case .txtBlocks:
            return try TextBlockWriter(path: path)
        case .txtFiles, .txtLines:
            return try LineRejectWriter(path: path)
        }
        throw ImportError(
            .unreadable, at: SourcePosition(file: path),
            "no rejects writer for \(format.rawValue) yet")
    }

    /// The CSV dialect of `format` with the reading options.
    static func dialect(_ format: ImportFormat, _ reading: ImportReadingOptions) -> CSVDialect {
        switch format {
        case .tsv:
            return CSVDialect(
                delimiter: UInt8(ascii: "\t"), quote: reading.quote,
                hasHeader: reading.hasHeader ?? true, encoding: reading.encoding)
        case .txtLines:
            var dialect =
                reading.delimiter.map {
                    CSVDialect.lines(separatedBy: $0, encoding: reading.encoding)
                }
                ?? CSVDialect(
                    delimiter: nil, quote: nil, hasHeader: false, encoding: reading.encoding)
            dialect.hasHeader = reading.hasHeader ?? false
            return dialect
        default:
            return CSVDialect(
                delimiter: reading.delimiter ?? UInt8(ascii: ","), quote: reading.quote,
                hasHeader: reading.hasHeader ?? true, encoding: reading.encoding)
        }
    }
}
