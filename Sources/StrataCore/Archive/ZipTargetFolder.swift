import CArchive
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder a ``ZipExtraction`` writes into, held open by descriptor;
/// every path inside it is walked with `O_NOFOLLOW`.
final class ZipTargetFolder {
    /// The folder's path, for errors.
    let path: String
    let descriptor: Int32

    /// What an extraction has placed so far, to undo it on failure.
    struct Placed {
        /// Files linked into place, relative to the folder.
        var files: [String] = []
        /// Folders created, relative, parents before children.
        var folders: [String] = []
    }

    init(_ path: String) throws {
        self.path = path
        descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ArchiveError(
                .io, path: path,
                message: "cannot open the target folder: \(String(cString: strerror(errno)))")
        }
    }

    /// A folder made inside another one, removed with its files.
    init(staging name: String, in parent: ZipTargetFolder) throws {
        path = parent.path + "/" + name
        guard mkdirat(parent.descriptor, name, 0o700) == 0 else {
            throw ArchiveError(
                .io, path: parent.path,
                message: "cannot create a staging folder: \(String(cString: strerror(errno)))")
        }
        descriptor = openat(
            parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        self.parent = parent
        self.name = name
        guard descriptor >= 0 else {
            unlinkat(parent.descriptor, name, AT_REMOVEDIR)
            throw ArchiveError(
                .io, path: path,
                message: "cannot open the staging folder: \(String(cString: strerror(errno)))")
        }
    }

    private var parent: ZipTargetFolder?
    private var name: String?
    private var written: [String] = []

    deinit {
        Glibc.close(descriptor)  // Only a directory: close cannot lose data.
    }

    /// A fresh hidden staging folder inside this one.
    func makeStaging() throws -> ZipTargetFolder {
        try ZipTargetFolder(staging: ".strata-extract-\(UUID().uuidString)", in: self)
    }

    private func failure(_ code: ArchiveError.Code, _ entry: String, _ message: String)
        -> ArchiveError
    {
        ArchiveError(code, path: path, entry: entry, message: message)
    }

    // MARK: - Planning

    /// Refuses a destination whose file exists, or whose folders are links
    /// or files.
    func checkFree(_ name: ZipName.Checked, entry: String) throws {
        var current = dup(descriptor)
        defer { if current >= 0 { Glibc.close(current) } }
        for (position, component) in name.components.enumerated() {
            let last = position == name.components.count - 1
            var info = stat()
            guard fstatat(current, component, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { return }  // Missing from here down: all new.
                throw failure(
                    .io, entry, "cannot inspect \(component): \(String(cString: strerror(errno)))")
            }
            let type = info.st_mode & S_IFMT
            if last && !name.isDirectory {
                throw failure(
                    .alreadyExists, entry,
                    "\(name.path) already exists in the target; not overwriting it")
            }
            guard type == S_IFDIR else {
                throw failure(
                    type == S_IFLNK ? .unsafeTarget : .alreadyExists, entry,
                    "\(name.components[0...position].joined(separator: "/")) in the target is "
                        + (type == S_IFLNK ? "a symbolic link" : "not a folder"))
            }
            if last { return }
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                throw failure(.unsafeTarget, entry, "cannot open the folder \(component) safely")
            }
            Glibc.close(current)
            current = next
        }
    }

    // MARK: - Staging

    /// Writes a new staged file; `fill` gets a function that appends bytes.
    func write(
        name: String,
        _ fill: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let file = openat(
            descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            throw ArchiveError(
                .io, path: path,
                message: "cannot create a staged file: \(String(cString: strerror(errno)))")
        }
        written.append(name)
        var open = true
        defer { if open { Glibc.close(file) } }  // After a failure: the file is dropped anyway.
        try fill { chunk in
            var done = 0
            while done < chunk.count, let base = chunk.baseAddress {
                let count = Glibc.write(file, base + done, chunk.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw ArchiveError(
                        .io, path: self.path,
                        message: "cannot write: \(String(cString: strerror(errno)))")
                }
                done += count
            }
        }
        open = false
        // A delayed write error (a full disk on some file systems) shows here.
        guard Glibc.close(file) == 0 else {
            throw ArchiveError(
                .io, path: path, message: "cannot write: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the staged files and the staging folder (best effort: a
    /// leftover is clutter, never data in the target).
    func remove() {
        for name in written { unlinkat(descriptor, name, 0) }
        written = []
        if let parent, let name { unlinkat(parent.descriptor, name, AT_REMOVEDIR) }
    }

    // MARK: - Placing

    /// Creates the destination's folders and links the staged file (if any)
    /// into place, recording both.
    func place(
        _ name: ZipName.Checked, from staged: (folder: ZipTargetFolder, name: String)?,
        entry: String, placed: inout Placed
    ) throws {
        let folders = name.isDirectory ? name.components : Array(name.components.dropLast())
        var current = dup(descriptor)
        defer { if current >= 0 { Glibc.close(current) } }
        var relative: [String] = []
        for component in folders {
            relative.append(component)
            if mkdirat(current, component, 0o755) == 0 {
                placed.folders.append(relative.joined(separator: "/"))
            } else if errno != EEXIST {
                throw failure(
                    .io, entry,
                    "cannot create the folder \(relative.joined(separator: "/")): \(String(cString: strerror(errno)))"
                )
            }
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                throw failure(
                    .unsafeTarget, entry,
                    "\(relative.joined(separator: "/")) in the target is a symbolic link or not a folder"
                )
            }
            Glibc.close(current)
            current = next
        }
        guard let staged, let last = name.components.last else { return }
        guard linkat(staged.folder.descriptor, staged.name, current, last, 0) == 0 else {
            let code = errno
            throw failure(
                code == EEXIST ? .alreadyExists : .io, entry,
                code == EEXIST
                    ? "\(name.path) appeared in the target; not overwriting it"
                    : "cannot place \(name.path): \(String(cString: strerror(code)))")
        }
        placed.files.append(name.path)
    }

    /// Removes what an extraction placed, newest first.
    func undo(_ placed: Placed) {
        for file in placed.files.reversed() { unlinkat(descriptor, file, 0) }
        for folder in placed.folders.reversed() { unlinkat(descriptor, folder, AT_REMOVEDIR) }
    }

    /// Flushes the file system holding the folder to disk: every file
    /// written so far and the names made (one `syncfs(2)`, not one `fsync`
    /// per file).
    ///
    /// - Throws: ``ArchiveError/Code/io`` when the disk reports an error.
    func synchronize() throws {
        guard strata_syncfs(descriptor) == 0 else {
            throw ArchiveError(
                .io, path: path,
                message: "cannot flush to disk: \(String(cString: strerror(errno)))")
        }
    }
}
