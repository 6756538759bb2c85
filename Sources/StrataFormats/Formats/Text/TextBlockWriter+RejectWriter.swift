extension TextBlockWriter: RejectWriter {
    /// Writes a rejected block, its reason on a `#strata-error:` line before it.
    public func write(_ rejected: RejectedRecord) throws {
        var record = rejected.record ?? ImportRecord(fields: [], position: rejected.error.position)
        record.originalText = rejected.originalText ?? record.originalText
        try write(record, reason: rejected.error.description)
    }

    /// Closes the file.
    public func finish() throws { try close() }
}
