import CArchive
import Foundation

extension ZipWriter {
    /// Checks the name and writes the entry's header.
    ///
    /// - Parameter size: The exact byte count when known (libarchive then
    ///   avoids zip64 for entries under 4 GiB), else `nil`.
    func begin(path name: String, size: Int64?, compression: ZipCompression) throws {
        try usable()
        let checked = try ZipName.check(Array(name.utf8), archive: path)
        guard !checked.isDirectory, checked.path == name else {
            throw ArchiveError(
                .invalidName, path: path, entry: name,
                message: "a file's name must be plain: no \"./\", \"//\" or trailing \"/\"")
        }
        try names.insert(checked, archive: path)
        switch compression {
        case .deflated:
            try check(strata_archive_write_zip_set_compression_deflate(handle), entry: name)
        case .stored: try check(strata_archive_write_zip_set_compression_store(handle), entry: name)
        }
        guard let entry = strata_archive_entry_new() else {
            throw fail(ArchiveError(.library, path: path, entry: name, message: "out of memory"))
        }
        defer { strata_archive_entry_free(entry) }
        strata_archive_entry_set_pathname_utf8(entry, name)
        // AE_IFREG, a cast macro Swift cannot import.
        strata_archive_entry_set_filetype(entry, 0o100000)
        strata_archive_entry_set_perm(entry, 0o644)
        // No mtime: libarchive then writes DOS 1980-01-01 00:00 in every time
        // zone and an extended-timestamp field without a time.
        if let size { strata_archive_entry_set_size(entry, size) }
        try check(strata_archive_write_header(handle, entry), entry: name)
    }

    /// Hands bytes of the current entry to libarchive.
    func write(_ bytes: UnsafeRawBufferPointer, entry name: String) throws {
        try usable()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let written = strata_archive_write_data(handle, base, bytes.count)
        guard written == bytes.count else {
            throw fail(
                ArchiveError(
                    .library, path: path, entry: name,
                    message: "cannot write the entry's data: \(libraryMessage())"))
        }
    }

    /// Ends the current entry (libarchive writes the data descriptor).
    func end(path name: String) throws {
        try usable()
        try check(strata_archive_write_finish_entry(handle), entry: name)
    }

    /// Throws the first failure again: after one, the archive is unusable.
    func usable() throws {
        if let failed { throw failed }
        precondition(!finished, "ZipWriter: the archive is finished")
    }

    /// Records `error` as the writer's failure and returns it.
    func fail(_ error: ArchiveError) -> ArchiveError {
        if failed == nil { failed = error }
        return error
    }

    /// The one funnel for libarchive's return codes: warnings pass,
    /// anything worse fails the writer.
    func check(_ code: Int32, entry: String? = nil) throws {
        guard code < ARCHIVE_WARN else { return }
        throw fail(ArchiveError(.library, path: path, entry: entry, message: libraryMessage()))
    }

    /// libarchive's message for the last error.
    func libraryMessage() -> String {
        strata_archive_error_string(handle).map { String(cString: $0) } ?? "libarchive failed"
    }
}
