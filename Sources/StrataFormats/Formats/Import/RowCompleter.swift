import Foundation
import StrataSchema
import StrataStore

/// Finishes a row before it is written: applies defaults to attributes the
/// input left out, stamps `touch: "save"` dates, and checks every rule of
/// the schema (required values, lengths, patterns, bounds) — the rules a
/// context's save checks, so an import never writes what a save would refuse.
struct RowCompleter {
    /// The moment the import started: the value of `now` defaults and touches.
    let now: Double

    /// Fills defaults into `cells` of a new row of `plan` and checks it.
    ///
    /// - Throws: ``ValueCoercer/Failure`` naming the attribute and rule.
    func completeInsert(_ cells: inout [ImportCell], plan: EntityImportPlan) throws(ValueCoercer
        .Failure)
    {
        for index in cells.indices {
            if case .absent = cells[index] { cells[index] = .null }
        }
        for (index, value, externalStorage) in plan.defaults {
            if case .null = cells[index] {
                cells[index] = defaultCell(value, externalStorage: externalStorage)
            }
        }
        for index in plan.touched { cells[index] = .real(now) }
        try check(cells, plan: plan, isUpdate: false)
    }

    /// Stamps touched dates on an update of an existing row and checks the
    /// values the update writes (absent ones keep what the store has).
    func completeUpdate(_ cells: inout [ImportCell], plan: EntityImportPlan) throws(ValueCoercer
        .Failure)
    {
        for index in plan.touched { cells[index] = .real(now) }
        try check(cells, plan: plan, isUpdate: true)
    }

    /// The cell of a default value (`now` is the import's start).
    func defaultCell(_ value: AttributeDefault, externalStorage: Bool) -> ImportCell {
        switch value {
        case .now: return .real(now)
        case .uuid: return .blob(withUnsafeBytes(of: UUID().uuid) { Data($0) })
        case .literal(let literal):
            switch literal {
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .string(let text): return .text(text)
            case .boolean(let flag): return .integer(flag ? 1 : 0)
            case .date(let seconds): return .real(seconds)
            case .data(let bytes):
                return .blob(externalStorage ? ExternalBinary.encodeInline(bytes) : bytes)
            case .uuid(let uuid): return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
            }
        }
    }

    private func check(
        _ cells: [ImportCell], plan: EntityImportPlan, isUpdate: Bool
    ) throws(ValueCoercer.Failure) {
        for index in plan.checkedAttributes {
            guard let bounds = plan.bounds[index] else { continue }
            do {
                try check(
                    cells[index], attribute: index, bounds: bounds, plan: plan, isUpdate: isUpdate)
            } catch {
                var located = error
                located.attribute = index
                throw located
            }
        }
    }

    /// Checks one cell of attribute `index` against its rules, `bounds`
    /// first (a new row's cell: ``ImportCell/absent`` counts as no value).
    func check(
        _ cell: ImportCell, attribute index: Int, bounds: AttributeCheck.Bounds,
        plan: EntityImportPlan, isUpdate: Bool
    ) throws(ValueCoercer.Failure) {
        switch cell {
        case .absent where isUpdate:
            return
        case .absent, .null:
            if !bounds.isOptional {
                throw ValueCoercer.Failure(
                    "\(plan.attributes[index].name) is required, and the record gives no value",
                    code: .missingField)
            }
        case .text(let text):
            if bounds.accepts(textOfBytes: text.utf8.count) { return }
            try checkText(cell, check: plan.checks[index])
        case .utf8(let bytes):
            if bounds.accepts(textOfBytes: bytes.count) { return }
            try checkText(cell, check: plan.checks[index])
        case .integer(let number):
            if bounds.accepts(number: Double(number)) { return }
            try checkBounds(Double(number), check: plan.checks[index])
        case .real(let number):
            if bounds.accepts(number: number) { return }
            try checkBounds(number, check: plan.checks[index])
        case .blob:
            return
        }
    }

    private func checkText(
        _ cell: ImportCell, check: AttributeCheck?
    ) throws(ValueCoercer.Failure) {
        guard let check else { return }
        let violation: AttributeCheck.Violation?
        switch cell {
        case .utf8(let bytes): violation = check.check(utf8: bytes)
        case .text(let value): violation = check.check(text: value)
        default: return
        }
        guard let violation else { return }
        guard let pattern = violation.mismatchedPattern else {
            throw ValueCoercer.Failure(violation.message, code: .validation)
        }
        // The importer's input is the user's own: the text is shown.
        let excerpt: String
        switch cell {
        case .utf8(let bytes): excerpt = ValueCoercer.excerpt(bytes)
        case .text(let value): excerpt = ValueCoercer.excerpt(value)
        default: excerpt = ""
        }
        throw ValueCoercer.Failure(
            "\(check.name) '\(excerpt)' does not match \(pattern)", code: .validation)
    }

    /// Checks `number` against the schema's bounds (an import, like a save,
    /// does not hold dates to the range of the text formats).
    private func checkBounds(
        _ number: Double, check: AttributeCheck?
    ) throws(ValueCoercer.Failure) {
        guard let check, check.hasValueBounds, let violation = check.check(number: number)
        else { return }
        throw ValueCoercer.Failure(violation.message, code: .validation)
    }
}
