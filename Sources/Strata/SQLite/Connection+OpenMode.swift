import CSQLite
import Foundation

extension Connection {
    /// How ``Connection/init(path:mode:)`` opens the database file.
    public enum OpenMode: Sendable {
        /// Reads only; every write fails with ``ResultCode/readOnly``.
        /// The file must exist.
        case readOnly
        /// Reads and writes; the file must exist.
        case readWrite
        /// Reads and writes, creating an empty database when the file is missing.
        case readWriteCreate

        /// The `sqlite3_open_v2` flags for this mode.
        ///
        /// Always `SQLITE_OPEN_NOMUTEX`: a `Connection` is not `Sendable`, so
        /// Swift's checking already keeps it on one thread at a time and the
        /// per-call mutex of `FULLMUTEX` would only cost time. `SQLITE_OPEN_URI`
        /// is never passed, so the path is a plain file path.
        var flags: CInt {
            let access: CInt
            switch self {
            case .readOnly: access = SQLITE_OPEN_READONLY
            case .readWrite: access = SQLITE_OPEN_READWRITE
            case .readWriteCreate: access = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
            return access | SQLITE_OPEN_NOMUTEX
        }
    }
}
