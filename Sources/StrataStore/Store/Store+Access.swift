import Foundation
import StrataCore

// MARK: - What the file system allows

extension Store {
    /// Refuses, before SQLite touches anything, a path that cannot be opened
    /// as `mode` asks, saying what is wrong rather than SQLite's "disk I/O
    /// error" or "attempt to write a readonly database".
    ///
    /// A directory is not a store. Reading needs a readable file. Writing
    /// needs a writable file and a writable folder: SQLite creates the
    /// `-wal`, `-shm` and `-journal` files beside the store, and a store
    /// opened read-write on a read-only file would otherwise be left with
    /// empty `-wal` and `-shm` files. (As root, `access(2)` grants writing
    /// whatever the mode bits say; SQLite's own read-only answer is checked
    /// after opening too, see ``refuseReadOnlyConnection(_:path:)``.)
    package static func checkAccess(path: String, mode: Mode) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StoreError(.notFound, path: path, message: "no such file")
        }
        if isDirectory.boolValue {
            throw StoreError(
                .notADatabase, path: path, message: "a directory, not a store file")
        }
        guard fileManager.isReadableFile(atPath: path) else {
            throw StoreError(
                .readOnly, path: path, message: "cannot read the store file: permission denied")
        }
        guard mode == .readWrite else { return }
        guard fileManager.isWritableFile(atPath: path) else {
            throw StoreError(
                .readOnly, path: path,
                message: "read-only: its permissions do not allow writing the store file; "
                    + "nothing was changed")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let shownFolder = folder.isEmpty ? "." : folder
        guard fileManager.isWritableFile(atPath: shownFolder) else {
            throw StoreError(
                .readOnly, path: path,
                message: "its folder \(shownFolder) is read-only: SQLite cannot create the "
                    + "store's -wal, -shm or -journal files beside it, so the store cannot be "
                    + "written; nothing was changed")
        }
    }

    /// Refuses a connection SQLite opened read-only although writing was
    /// asked for (it falls back silently when the file cannot be written).
    static func refuseReadOnlyConnection(_ connection: Connection, path: String) throws {
        guard connection.isReadOnly else { return }
        throw StoreError(
            .readOnly, path: path,
            message: "read-only: SQLite can only open it for reading; nothing was changed")
    }
}
