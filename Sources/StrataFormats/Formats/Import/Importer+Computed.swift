import Foundation
import StrataCore
import StrataQuery

// MARK: - Computed attributes (`compute` in a mapping file)

extension Importer {
    /// The fields of a flat input (a header or ``ImportOptions/columns``),
    /// whose values are all text: every expression must name only them and
    /// fit text values, or nothing is read.
    ///
    /// - Throws: ``ImportError`` at the expression in its mapping file.
    func checkComputed(fieldNames names: [String]) throws {
        guard !options.computed.isEmpty else { return }
        var fields: [String: ExpressionType] = [:]
        for name in names { fields[name] = .string }
        for computation in options.computed { try computation.check(fields: fields) }
    }

    /// Notes the fields of a record of nested values: the fields such an
    /// input has are known only from its records, so an expression's field
    /// must appear in one of those read before the first commit (see
    /// ``checkComputedFieldsSeen()``).
    func noteComputedFields(of fields: [RecordField]) {
        guard var state = computedFieldsState else { return }
        for field in fields {
            state.unseen.remove(field.key)
            if state.seen.count < options.limits.maximumFieldCount {
                state.seen.insert(field.key)
            }
        }
        // Once every field has been seen, nothing is left to note or check.
        computedFieldsState = state.unseen.isEmpty ? nil : state
    }

    /// Throws when a field an expression names has been in none of the
    /// records read: called before every commit and at the end, so such a
    /// mapping writes nothing.
    ///
    /// - Throws: ``ImportError`` at the expression in its mapping file.
    func checkComputedFieldsSeen() throws {
        guard let state = computedFieldsState else { return }
        var fields: [String: ExpressionType] = [:]
        for name in state.seen { fields[name] = .null }
        for computation in options.computed { try computation.check(fields: fields) }
    }

    /// Sets the computed attributes from the record's fields.
    func compute(
        _ fields: [RecordField], at position: SourcePosition, plan: EntityImportPlan,
        into prepared: inout PreparedRecord
    ) throws {
        guard let coercer else { return }
        noteComputedFields(of: fields)
        var values: [String: MappingValue] = [:]
        for field in fields { values[field.key] = MappingValue(importing: field.value) }
        for (index, computation) in plan.computed {
            let attribute = plan.attributes[index]
            do {
                let result = try evaluator.evaluate(computation.node, values)
                prepared.cells[index] = try coercer.cell(
                    RecordValue(result), index: index, plan: plan)
            } catch let error as ExpressionError {
                throw ImportError(
                    .invalidValue, at: position,
                    "computing \(attribute.name) with \(computation.expression) (column "
                        + "\(error.column)): \(error.message)")
            } catch let error as ValueCoercer.Failure {
                throw ImportError(
                    error.code, at: position,
                    "computing \(attribute.name) with \(computation.expression): \(error.message)")
            }
        }
    }
}

/// The fields of an input of nested values that expressions name and no
/// record has had yet, and the names records had.
struct ComputedFieldsState {
    var unseen: Set<String>
    var seen: Set<String> = []
}
