import CSQLite
import Foundation

extension Connection {
    /// Replaces the whole content of the database behind `destination` with
    /// this connection's, page by page, with SQLite's online backup API.
    ///
    /// The destination changes in one write transaction: every connection
    /// to its file (in this process or another) sees either the old content
    /// or the new, and — unlike replacing the file — keeps working on the
    /// same file afterwards. A source with a WAL is read through it, so
    /// nothing needs a checkpoint first.
    ///
    /// ```swift
    /// let copy = try Connection(path: "copy.sqlite")
    /// try store.connection.copyContents(to: copy)
    /// ```
    ///
    /// - Parameters:
    ///   - destination: An open connection, not inside a transaction.
    ///   - pagesPerStep: Pages copied between progress calls.
    ///   - progress: Called after each step with (pages done, pages in all).
    /// - Throws: ``SQLiteError`` (``ResultCode/busy`` when another connection
    ///   holds the destination's write lock past its busy timeout;
    ///   ``ResultCode/readOnly`` when the page sizes of a WAL destination
    ///   and the source differ).
    public func copyContents(
        to destination: Connection, pagesPerStep: Int32 = 4096,
        progress: (_ done: Int32, _ total: Int32) -> Void = { _, _ in }
    ) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            // The reason is on the destination connection (e.g. it is in a
            // transaction).
            throw SQLiteError(
                resultCode: sqlite3_extended_errcode(destination.handle),
                handle: destination.handle, sql: nil)
        }
        var code: CInt
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED {
                // The destination's busy handler has already waited its
                // timeout for the lock; giving up is the answer.
                break
            }
            let total = sqlite3_backup_pagecount(backup)
            progress(total - sqlite3_backup_remaining(backup), total)
        } while code == SQLITE_OK
        // finish releases the destination's lock and rolls back a copy that
        // stopped half-way; its result repeats the step's error, if any.
        let finished = sqlite3_backup_finish(backup)
        if code != SQLITE_DONE {
            throw SQLiteError(
                code: ResultCode(rawValue: code),
                message: "copying \(path) into \(destination.path): "
                    + String(cString: sqlite3_errstr(code)), sql: nil)
        }
        try destination.check(finished)
    }

    /// Writes a consistent copy of this connection's database to a new file
    /// at `path` (which must not exist), as it is at one moment.
    ///
    /// When the WAL holds nothing, the main file alone is the database: it
    /// is copied as a file (a clone sharing its blocks where
    /// the file system can, else the kernel's copy) inside
    /// a read transaction, during which no checkpoint may write to it.
    /// Otherwise the pages are copied with ``copyContents(to:pagesPerStep:progress:)``,
    /// reading through the WAL. Either way the source's files are only read.
    ///
    /// - Throws: ``SQLiteError`` (``ResultCode/cantOpen`` when `path`
    ///   exists); a file-system error when it cannot be written.
    public func copyDatabase(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw SQLiteError(
                code: .cantOpen, message: "copying \(self.path): \(path) exists already")
        }
        let copiedAsFile: Bool = try inTransaction(.deferred) {
            try fixSnapshot()
            var status = stat()
            let walPath = self.path + "-wal"
            guard stat(walPath, &status) != 0 || status.st_size == 0 else { return false }
            try FileClone.copy(from: self.path, to: path)
            return true
        }
        guard !copiedAsFile else { return }
        let copy = try Connection(path: path, mode: .readWriteCreate)
        do {
            try copyContents(to: copy)
            try copy.close()
        } catch {
            try? copy.close()  // The copy's error is the one to report.
            throw error
        }
    }

    /// `PRAGMA data_version`: a number that changes when another connection
    /// commits a change to the database (this connection's own commits do
    /// not change it).
    ///
    /// - Throws: ``SQLiteError``.
    public var dataVersion: Int64 {
        get throws { try scalar("PRAGMA data_version")?.int64Value ?? 0 }
    }
}
