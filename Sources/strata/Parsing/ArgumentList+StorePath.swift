import Foundation
import Strata

extension ArgumentList {
    /// Removes and returns the store path: the real file when the path given
    /// is a symbolic link (``StorePath``), resolved once here so the whole
    /// run locks, backs up, copies and journals beside the real file.
    ///
    /// Every command on a store goes through here, so this is also where the
    /// work files killed runs left beside the store are removed (those of
    /// processes still running are kept).
    ///
    /// - Throws: ``UsageError`` when missing; ``StoreError`` for a loop of
    ///   links or a link to nothing.
    mutating func storePath(_ label: String) throws -> String {
        try Self.storePath(resolving: try positional(label))
    }

    /// The real file of the store path `given`, with the work files killed
    /// runs left beside it removed, as ``storePath(_:)`` gives it: for
    /// commands that take several stores.
    ///
    /// - Throws: ``StoreError`` for a loop of links or a link to nothing.
    static func storePath(resolving given: String) throws -> String {
        let real = try StorePath.resolve(URL(fileURLWithPath: given))
        WorkFiles.removeLeftovers(of: real)
        return real.relativePath
    }
}
