import StrataCore

/// How a Day One import reads, checks and writes.
///
/// ```swift
/// var options = DayOneImportOptions()
/// options.errorPolicy = .abort  // the first problem stops it; nothing written
/// ```
public struct DayOneImportOptions: Sendable {
    /// What a problem (an invalid entry, a missing or unreferenced medium)
    /// does: ``ImportOptions/ErrorPolicy/skip`` (the default) reports it
    /// and imports the rest; ``ImportOptions/ErrorPolicy/abort`` stops at
    /// the first one and writes nothing.
    public var errorPolicy: ImportOptions.ErrorPolicy = .skip
    /// Read and check everything, write nothing.
    public var isDryRun = false
    /// The bounds the zip is held to (entries, sizes, compression ratios).
    public var zipLimits = ZipLimits()
    /// The bounds the JSON is held to (entry size, nesting).
    public var jsonLimits = ImportLimits()

    /// The default options.
    public init() {}
}
