/// An error from compressing or decompressing data with zlib.
///
/// `code` is zlib's return code (`Z_DATA_ERROR` = -3, `Z_BUF_ERROR` = -5, …),
/// or 0 when Strata itself refused the data, for example because it would
/// inflate beyond the caller's limit.
///
/// ```swift
/// do {
///     _ = try RawDeflate.inflate(blob, limit: 1 << 20)
/// } catch let error as CompressionError {
///     print(error)  // "Compression error -3: invalid block type"
/// }
/// ```
public struct CompressionError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words.
    public var message: String
    /// zlib's return code, or 0 for a limit that Strata enforces.
    public var code: Int32

    /// Creates an error from a message and a zlib return code.
    public init(message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    /// `Compression error <code>: <message>`.
    public var description: String {
        "Compression error \(code): \(message)"
    }
}
