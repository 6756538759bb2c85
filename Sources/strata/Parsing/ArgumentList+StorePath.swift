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
        let given = try positional(label)
        let real = try StorePath.resolve(URL(fileURLWithPath: given))
        WorkFiles.removeLeftovers(of: real)
        return real.relativePath
    }
}
