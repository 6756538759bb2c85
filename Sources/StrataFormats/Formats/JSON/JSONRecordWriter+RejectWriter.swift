// MARK: - The importer's rejects file

extension JSONRecordWriter: RejectWriter {
    /// Writes one rejected record as one line, with its reason.
    ///
    /// - Throws: ``ImportError`` when the file cannot be written.
    public func write(_ rejected: RejectedRecord) throws {
        try write(error: rejected.error, text: rejected.originalText, record: rejected.record)
    }

    /// Writes what is pending and closes the file.
    ///
    /// - Throws: ``ImportError`` when the file cannot be written.
    public func finish() throws {
        try close()
    }
}
