/// The bounds a ``ZipReader`` holds an archive to, so a hostile zip (a
/// bomb) is refused before it fills the disk or the memory.
///
/// Every check uses the sizes the central directory declares, so an archive
/// beyond a limit is refused when it is opened, before a byte is extracted;
/// reading then makes sure no entry inflates beyond what it declared.
///
/// The defaults suit a diary bundle or a Day One export of many years:
///
/// | limit | default |
/// |---|---|
/// | ``maxEntries`` | 100,000 entries |
/// | ``maxEntrySize`` | 4 GiB per entry |
/// | ``maxTotalSize`` | 32 GiB for all entries |
/// | ``maxCompressionRatio`` | 200 : 1, for entries over ``ratioFloor`` (1 MiB) |
///
/// A writer should keep its own archives within these limits: a deflated
/// entry over 1 MiB of very repetitive bytes (a run of zeros, its base64)
/// can pass 200 : 1 and would then be refused; store such an entry, or
/// read such archives with a higher ``maxCompressionRatio``.
///
/// ```swift
/// var limits = ZipLimits()
/// limits.maxEntries = 10
/// limits.maxTotalSize = 100 << 20
/// ```
public struct ZipLimits: Sendable, Hashable {
    /// The most entries (files and folders) an archive may list.
    public var maxEntries: Int = 100_000
    /// The most bytes one entry may inflate to.
    public var maxEntrySize: Int64 = 4 << 30
    /// The most bytes all entries together may inflate to.
    public var maxTotalSize: Int64 = 32 << 30
    /// The highest inflated : compressed ratio an entry may claim.
    ///
    /// Text deflates 3–20 : 1 and deflate cannot do better than about
    /// 1030 : 1, so a ratio above this marks a bomb.
    public var maxCompressionRatio: Int64 = 200
    /// Entries of at most this many inflated bytes skip the ratio check: a
    /// small run of zeros compresses far but harms nothing.
    public var ratioFloor: Int64 = 1 << 20

    /// The default limits (see the table above).
    public init() {}
}
