import CSQLite
import Foundation

// MARK: - Column bytes without copying

extension Statement {
    /// The UTF-8 bytes of the text at `index` in the current row, inside
    /// SQLite's own buffer: no copy, no `String`. Valid until the next
    /// `step()`, `reset()` or another read of the same column. NULL and an
    /// empty text both give an empty buffer (ask ``isNull(at:)`` first).
    ///
    /// An exporter writing millions of fields uses it to move text straight
    /// into its output buffer.
    ///
    /// - Parameter index: The 0-based column index.
    public func utf8Bytes(at index: Int32) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < checkedColumnCount, "column index \(index) out of range")
        // Call order matters: text first, then bytes (SQLite's documented order).
        guard let text = sqlite3_column_text(handle, index) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeBufferPointer(start: text, count: count)
    }

    /// The bytes of the blob at `index` in the current row, inside SQLite's
    /// own buffer, with the same lifetime as ``utf8Bytes(at:)``. NULL and an
    /// empty blob both give an empty buffer.
    ///
    /// - Parameter index: The 0-based column index.
    public func blobBytes(at index: Int32) -> UnsafeRawBufferPointer {
        precondition(index >= 0 && index < checkedColumnCount, "column index \(index) out of range")
        // Call order matters: blob first, then bytes (SQLite's documented order).
        guard let bytes = sqlite3_column_blob(handle, index) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: bytes, count: count)
    }
}
