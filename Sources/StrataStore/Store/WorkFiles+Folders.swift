import Foundation
import StrataCore

#if canImport(Glibc)
    import Glibc
#endif

// Work folders throw the store's error: a folder that cannot be made beside a
// store is the store's read-only problem, which commands report as such.
extension WorkFiles {
    /// Creates this process's private work folder for `activity` beside
    /// `target` (mode 0700), replacing one a killed process of the same id
    /// left.
    ///
    /// - Throws: A file-system error when the target's folder does not
    ///   allow it.
    public static func makeFolder(for target: URL, activity: String) throws -> URL {
        let folder = url(for: target, activity: activity)
        remove(folder)  // A leftover of a killed run of this very process id.
        guard mkdir(folder.path, 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            let shown = target.deletingLastPathComponent().relativePath
            throw StoreError(
                .readOnly, path: target.relativePath,
                message: "cannot make a work folder beside it in \(shown.isEmpty ? "." : shown) "
                    + "(\(reason)); nothing was changed")
        }
        return folder
    }

    /// Creates this process's private work folder for `activity` beside
    /// `target` (``makeFolder(for:activity:)``), or, when the target's
    /// folder does not allow one (a store only read, in a folder the user
    /// cannot write), a private folder (0700) of its own in the temporary
    /// folder: a read needs its scratch somewhere.
    ///
    /// - Throws: A file-system error when neither can be made.
    package static func makeFolderBesideOrPrivate(for target: URL, activity: String) throws -> URL {
        do {
            return try makeFolder(for: target, activity: activity)
        } catch {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-\(activity)-\(UUID().uuidString)")
            guard mkdir(folder.path, 0o700) == 0 else { throw error }
            return folder
        }
    }
}
