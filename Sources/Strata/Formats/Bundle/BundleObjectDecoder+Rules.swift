// MARK: - The schema's rules

extension BundleObjectDecoder {
    /// Checks the values of the last object of `batch` against every rule
    /// of the schema (``EntityColumns/checks``), as either reading of the
    /// line left them: the one check, so both readings accept alike.
    ///
    /// Only attributes with rules are looked at; a text's length is mostly
    /// settled by its byte count, so a line costs a few comparisons.
    ///
    /// - Throws: ``LineError`` naming the attribute and the rule broken.
    func checkRules(ofLastIn batch: BundleObjectBatch) throws {
        let columns = batch.columns
        guard !columns.checks.isEmpty, batch.count > 0 else { return }
        let object = batch.count - 1
        let first = object * columns.attributes.count
        for (slot, check) in columns.checks {
            let value = batch.values[first + slot]
            let violation: AttributeCheck.Violation?
            switch value.kind {
            case .null:
                // A medium read from its file is held apart from the values.
                violation =
                    batch.media.last(where: { $0.object == object && $0.slot == slot }) == nil
                    ? check.checkMissing() : nil
            case .text:
                let start = Int(value.payload)
                violation = batch.bytes.withUnsafeBufferPointer {
                    check.check(
                        utf8: UnsafeBufferPointer(rebasing: $0[start..<(start + value.count)]))
                }
            case .integer:
                violation = check.check(number: Double(value.payload))
            case .real:
                violation = check.check(
                    number: Double(bitPattern: UInt64(bitPattern: value.payload)))
            case .blob:
                violation = nil
            }
            if let violation { throw LineError(message: violation.message) }
        }
    }
}
