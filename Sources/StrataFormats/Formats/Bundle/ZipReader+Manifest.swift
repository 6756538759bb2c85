import StrataCore

extension ZipReader {
    /// Streams `entry` to `body`, checking its bytes against `sha256`, a
    /// bundle manifest's digest, when one is given — then the CRC-32, which
    /// proves less of the same bytes, is not computed; without one, the
    /// CRC-32 is checked as for any read.
    ///
    /// The digest is compared once every byte has reached `body`, so a body
    /// that fails part-way (a line that does not fit) can note its error
    /// and let the read go on: the damage, when there is some, is the cause
    /// to report.
    ///
    /// - Parameters:
    ///   - entry: One of ``entries``.
    ///   - sha256: The manifest's SHA-256 of the entry, or nil.
    ///   - bundle: The bundle's path, for the error.
    ///   - body: Called with each chunk of inflated bytes.
    /// - Throws: ``BundleError`` `checksumMismatch` naming the entry;
    ///   ``ArchiveError`` from the read; what `body` throws.
    package func read(
        _ entry: ZipEntry, sha256: String?, bundle: String,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var hash = SHA256()
        try read(entry, checksCRC: sha256 == nil) { chunk in
            if sha256 != nil { hash.update(chunk) }
            try body(chunk)
        }
        if let sha256, SHA256.hex(hash.finalize()) != sha256 {
            throw BundleError.damaged(path: bundle, entry: entry.path)
        }
    }
}
