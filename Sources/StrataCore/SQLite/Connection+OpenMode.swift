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
        /// Reads a file that nothing else changes, without locking and
        /// without creating or touching `-wal`/`-shm` files (SQLite's
        /// `immutable=1`). A `-wal` file beside it is ignored, so use this
        /// only for a file whose WAL is empty or absent.
        case immutable

        /// The `sqlite3_open_v2` flags for this mode.
        ///
        /// Always `SQLITE_OPEN_NOMUTEX`: a `Connection` is not `Sendable`, so
        /// Swift's checking already keeps it on one thread at a time and the
        /// per-call mutex of `FULLMUTEX` would only cost time. `SQLITE_OPEN_URI`
        /// is passed only for ``immutable``, whose path is turned into a URI
        /// with every special character escaped (see ``fileName(for:)``).
        var flags: CInt {
            let access: CInt
            switch self {
            case .readOnly: access = SQLITE_OPEN_READONLY
            // The immutable flag can only be given as a URI parameter.
            case .immutable: access = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            case .readWrite: access = SQLITE_OPEN_READWRITE
            case .readWriteCreate: access = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
            return access | SQLITE_OPEN_NOMUTEX
        }

        /// The name handed to `sqlite3_open_v2`: the path itself, or for
        /// ``immutable`` a `file:` URI whose path bytes are percent-escaped
        /// (so `?`, `#` and `%` in a file name cannot become URI syntax).
        func fileName(for path: String) -> String {
            guard self == .immutable else { return path }
            var uri = "file:"
            for byte in path.utf8 {
                let isPlain =
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                    || (byte >= 0x61 && byte <= 0x7A) || "/-._~".utf8.contains(byte)
                uri += isPlain ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
            }
            return uri + "?immutable=1"
        }
    }
}
