import StrataSchema

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
        guard !columns.checkBounds.isEmpty, batch.count > 0 else { return }
        let object = batch.count - 1
        let first = object * columns.attributes.count
        // Plain bounds first (no reference counted per value); the full
        // check only for a value they do not accept, to say what is wrong.
        for index in columns.checkBounds.indices {
            let (slot, bounds) = columns.checkBounds[index]
            let value = batch.values[first + slot]
            switch value.kind {
            case .null:
                // A medium read from its file is held apart from the values.
                if bounds.isOptional
                    || batch.media.last(where: { $0.object == object && $0.slot == slot }) != nil
                {
                    continue
                }
            case .text:
                if bounds.accepts(textOfBytes: value.count) { continue }
            case .integer:
                if bounds.accepts(number: Double(value.payload)) { continue }
            case .real:
                if bounds.accepts(number: Double(bitPattern: UInt64(bitPattern: value.payload))) {
                    continue
                }
            case .blob:
                continue
            }
            if let violation = check(value, in: batch, against: columns.checks[index].check) {
                throw LineError(message: violation.message)
            }
        }
    }

    /// The rule `value` breaks, checked in full.
    private func check(
        _ value: BundleObjectBatch.Value, in batch: BundleObjectBatch, against check: AttributeCheck
    ) -> AttributeCheck.Violation? {
        switch value.kind {
        case .null:
            return check.checkMissing()
        case .text:
            let start = Int(value.payload)
            return batch.bytes.withUnsafeBufferPointer {
                check.check(utf8: UnsafeBufferPointer(rebasing: $0[start..<(start + value.count)]))
            }
        case .integer:
            return check.check(number: Double(value.payload))
        case .real:
            return check.check(number: Double(bitPattern: UInt64(bitPattern: value.payload)))
        case .blob:
            return nil
        }
    }
}
