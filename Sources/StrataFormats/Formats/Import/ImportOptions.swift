import Foundation

/// How an import maps, converts, checks and writes records.
///
/// ```swift
/// var options = ImportOptions(entity: "Contact")
/// options.fieldMap["born"] = "birthday"
/// options.uniqueKey = ["email"]
/// options.errorPolicy = .skip
/// ```
public struct ImportOptions: Sendable {
    /// What happens to a record that cannot be imported.
    public enum ErrorPolicy: String, Sendable, CaseIterable {
        /// The whole import is one transaction: the first bad record stops
        /// it and the store is left as it was.
        case abort
        /// Bad records are left out (and written to the rejects file); the
        /// rest commit in batches.
        case skip
    }

    /// What happens when one input holds two records with the same unique key.
    public enum DuplicatePolicy: String, Sendable, CaseIterable {
        /// The first record wins; later ones are counted and left out.
        case first
        /// Each later record updates the object the earlier one wrote.
        case last
        /// A duplicate is an error (or a rejected record, when skipping).
        case error
    }

    /// The input's format (`--format`); nil guesses it from the file's name
    /// (``ImportFormat/guess(path:)``). Used by ``Importer/import(_:into:model:options:progress:)``.
    public var format: ImportFormat?
    /// How the input's text is split (`--delimiter`, `--quote`,
    /// `--no-header`, `--encoding`); also reachable as ``delimiter``,
    /// ``quote``, ``hasHeader`` and ``encoding``.
    public var reading = ImportReadingOptions()
    /// Where records that cannot be imported go (`--rejects`), written in
    /// the input's format when the import ends; nil writes none.
    public var rejectsFile: URL?
    /// Whether an existing rejects file may be replaced (`--force`).
    public var replacesRejects = false
    /// The entity records become; nil lets the importer pick the only
    /// entity the fields fit (or a plist/JSON group's name).
    public var entity: String?
    /// The entity of the records of each JSON path (`--path tools=Tool`;
    /// ``ImportReadingOptions/paths``), ahead of ``entity``.
    public var pathEntities: [String: String] = [:]
    /// Input field → attribute or relationship name, before any guessing;
    /// an empty name ignores the field.
    public var fieldMap: [String: String] = [:]
    /// Attributes computed from the record's fields by an expression.
    public var computed: [ComputedAttribute] = []
    /// The names of a headerless CSV or txt-lines input's fields, by position.
    public var columns: [String]?
    /// Whether fields that match no property are ignored rather than refused.
    public var ignoresUnknownFields = false
    /// Attributes whose values identify an object: records with a known key
    /// update it (upsert). Nil uses the entity's first uniqueness constraint.
    public var uniqueKey: [String]?
    /// Duplicates inside one input, when there is a unique key.
    public var duplicates: DuplicatePolicy = .last
    /// What happens to a record that cannot be imported.
    public var errorPolicy: ErrorPolicy = .abort
    /// Records per uniqueness lookup (one query per batch).
    public var batchSize = 1_000
    /// Records per transaction when skipping bad records.
    public var commitInterval = 10_000
    /// Parse, map and check everything, write nothing.
    public var isDryRun = false
    /// Cell texts that mean "no value" (`--null NA,NULL`), as R, pandas and
    /// spreadsheets write it: for every attribute that is not text, such a
    /// cell stores no value, whatever the type, and a relationship's field
    /// that is one links nothing. Text and URI attributes keep the text
    /// unless ``fieldNulls`` names them. Empty by default: an
    /// import is strict, and a value that fails and is a common token (`NA`,
    /// `NULL`, `N/A`, …) says `--null` in its error.
    public var nulls: [String] = []
    /// Property name → the cell texts that mean no value for it (the
    /// mapping file's `"fieldNulls"`), text attributes included; replaces
    /// ``nulls`` for that attribute or relationship.
    public var fieldNulls: [String: [String]] = [:]
    /// A date format (Unicode patterns, POSIX locale) used for every date
    /// field instead of ISO 8601; an attribute's own `dateFormat` wins.
    public var dateFormat: String?
    /// Read numeric date fields as seconds since 1970 (Unix time).
    public var unixDates = false
    /// The time zone of dates that name none (`dateFormat` dates).
    public var timeZone = TimeZone(identifier: "UTC") ?? TimeZone.current
    /// The folder that binary fields naming files are relative to; nil means
    /// the input file's folder. Paths may not leave it.
    public var mediaFolder: URL?
    /// How long to wait for a migration that holds the store's lock, in seconds.
    public var lockTimeout: TimeInterval = 60
    /// The bounds every reader keeps to.
    public var limits = ImportLimits()
    /// txt-files only (`--file-name-into`, a mapping file's
    /// `"fileNameInto"`): the field, and so the attribute, that gets each
    /// record's file name: its name within the folder, extension kept, as
    /// on disk (`2024-05-01 Market.txt`). Nil records none. Another format
    /// refuses it (``ImportReaders/open(_:format:reading:limits:fileNameInto:)``).
    public var fileNameInto: String?

    /// Options for records of `entity` (nil: guessed), everything else default.
    public init(entity: String? = nil) {
        self.entity = entity
    }
}

// The reading options, reachable from the one options value.
extension ImportOptions {
    /// The field delimiter of CSV and txt lines (`--delimiter`); nil guesses
    /// it from a CSV header.
    public var delimiter: UInt8? {
        get { reading.delimiter }
        set { reading.delimiter = newValue }
    }
    /// The quote character of CSV (`--quote`); nil reads no quoting.
    public var quote: UInt8? {
        get { reading.quote }
        set { reading.quote = newValue }
    }
    /// Whether a CSV or txt-lines input starts with a header row
    /// (`--no-header` sets false); nil for the format's default.
    public var hasHeader: Bool? {
        get { reading.hasHeader }
        set { reading.hasHeader = newValue }
    }
    /// The input's text encoding (`--encoding`).
    public var encoding: TextEncoding {
        get { reading.encoding }
        set { reading.encoding = newValue }
    }
}
