extension PropertyListRecordWriter: RejectWriter {
    /// Writes a rejected record as a dict with its reason under `strata_error`.
    public func write(_ rejected: RejectedRecord) throws {
        let record = rejected.record ?? ImportRecord(fields: [], position: rejected.error.position)
        try write(record, error: rejected.error.description)
    }

    /// Ends the plist and closes the file.
    public func finish() throws { try close() }
}
