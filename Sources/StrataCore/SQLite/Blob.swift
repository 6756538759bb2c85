import CSQLite
import Foundation

/// The C handle of an open blob (`sqlite3_blob *`).
typealias SQLiteBlobHandle = OpaquePointer

/// One BLOB value of one row, read or written in pieces (SQLite's
/// incremental blob I/O), so a large value never has to be in memory whole.
///
/// The row is found by its rowid (a Core Data table's `Z_PK`). A blob can
/// only be written in place: make room with ``Statement/bindZeroBlob(count:at:)``
/// first. Any change to the row through SQL makes the handle stale.
///
/// ```swift
/// let blob = try Blob(connection, table: "ZMEDIUM", column: "ZDATA", rowID: 12)
/// try blob.forEachChunk(from: 1) { chunk in hasher.update(chunk) }
/// ```
public final class Blob {
    /// The connection the blob belongs to; kept alive by it.
    public let connection: Connection
    /// The blob's size in bytes.
    public let count: Int
    private let handle: SQLiteBlobHandle

    /// Opens the value of `column` in the row `rowID` of `table`.
    ///
    /// - Throws: ``SQLiteError`` when the table, column or row does not
    ///   exist, or the value is not a blob or text.
    public init(
        _ connection: Connection, table: String, column: String, rowID: Int64,
        writable: Bool = false
    ) throws {
        self.connection = connection
        var opened: SQLiteBlobHandle?
        let code = sqlite3_blob_open(
            connection.handle, "main", table, column, rowID, writable ? 1 : 0, &opened)
        guard code == SQLITE_OK, let opened else {
            // sqlite3_blob_open leaves the handle NULL on failure; nothing to close.
            try connection.check(code == SQLITE_OK ? SQLITE_ERROR : code)
            throw SQLiteError(resultCode: SQLITE_ERROR, handle: connection.handle, sql: nil)
        }
        handle = opened
        count = Int(sqlite3_blob_bytes(opened))
    }

    deinit {
        // Closing a read handle cannot fail; a write's errors were thrown by write().
        sqlite3_blob_close(handle)
    }

    /// Calls `body` with the bytes from `offset` to the end, in chunks of at
    /// most `chunkSize` bytes (valid only during the call).
    ///
    /// - Throws: ``SQLiteError``, or what `body` throws.
    public func forEachChunk(
        from offset: Int = 0, chunkSize: Int = 1 << 18,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard offset < count else { return }
        let size = min(chunkSize, count - offset)
        try withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
            guard let base = buffer.baseAddress else { return }
            var position = offset
            while position < count {
                let length = min(size, count - position)
                try connection.check(
                    sqlite3_blob_read(handle, base, Int32(length), Int32(position)))
                try body(UnsafeRawBufferPointer(start: base, count: length))
                position += length
            }
        }
    }

    /// Writes `bytes` at `offset`; the blob's size does not change.
    ///
    /// - Throws: ``SQLiteError`` (`SQLITE_ERROR` when the bytes would pass
    ///   the end).
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try connection.check(sqlite3_blob_write(handle, base, Int32(bytes.count), Int32(offset)))
    }
}

extension Statement {
    /// Binds a blob of `count` zero bytes, to be filled later through
    /// ``Blob`` without holding the value in memory.
    ///
    /// - Throws: ``SQLiteError`` (``ResultCode/tooBig`` past SQLite's limit).
    public func bindZeroBlob(count: Int, at index: Int32) throws {
        let code = sqlite3_bind_zeroblob64(handle, index, sqlite3_uint64(count))
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }
}
