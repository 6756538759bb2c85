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
        guard coercer != nil else { return }
        noteComputedFields(of: fields)
        var values: [String: MappingValue] = [:]
        for field in fields { values[field.key] = MappingValue(importing: field.value) }
        for (index, computation) in plan.computed {
            prepared.cells[index] = try interpretedCell(
                computation, index: index, values: values, at: position, plan: plan)
        }
    }

    /// The cell of attribute `index` computed by the interpreter from the
    /// record's `values`.
    ///
    /// - Throws: ``ImportError`` at `position` naming the attribute and the
    ///   expression.
    func interpretedCell(
        _ computation: ComputedAttribute, index: Int, values: [String: MappingValue],
        at position: SourcePosition, plan: EntityImportPlan
    ) throws -> ImportCell {
        guard let coercer else { return .null }
        let attribute = plan.attributes[index]
        do {
            let result = try evaluator.evaluate(computation.node, values)
            return try coercer.cell(RecordValue(result), index: index, plan: plan)
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

    /// The computed attributes of a flat row whose expressions are all
    /// compiled (``CompiledComputation``), or nil when one is not a simple
    /// conversion (the row is then prepared as a record).
    func compiledComputations(
        fieldNames names: [String], plan: EntityImportPlan
    ) -> [CompiledComputation]? {
        guard compilesComputations, let coercer else { return nil }
        var compiled: [CompiledComputation] = []
        for (index, computation) in plan.computed {
            // A touched attribute is stamped whatever the expression gives.
            guard !plan.touched.contains(index),
                let one = CompiledComputation.compile(
                    computation, index: index, fieldNames: names, coercer: coercer, plan: plan,
                    evaluator: evaluator, maximumBytes: options.limits.maximumFieldBytes)
            else { return nil }
            compiled.append(one)
        }
        return compiled
    }

    /// The cell of a compiled computation for the reader's current row
    /// (`names` are the input's fields, for the rows the interpreter
    /// settles).
    ///
    /// - Throws: ``ImportError`` at the record, as ``compute(_:at:plan:into:)``.
    func computedCell<Reader: FieldRecordReader>(
        _ computation: CompiledComputation, reader: Reader, names: [String],
        plan: EntityImportPlan
    ) throws -> ImportCell {
        guard let coercer else { return .null }
        do {
            if case .cell(let cell) = try computation.outcome(reader, coercer: coercer, plan: plan)
            {
                return cell
            }
        } catch {
            let attribute = plan.attributes[computation.attribute]
            throw ImportError(
                error.code, at: reader.recordPosition,
                "computing \(attribute.name) with \(computation.source.expression): \(error.message)"
            )
        }
        var values: [String: MappingValue] = [:]
        for (column, name) in names.enumerated() where column < reader.fieldCount {
            let bytes = reader.field(column)
            guard !bytes.isEmpty || reader.isQuoted(column) else { continue }
            values[name] = .string(String(decoding: bytes, as: UTF8.self))
        }
        return try interpretedCell(
            computation.source, index: computation.attribute, values: values,
            at: reader.recordPosition, plan: plan)
    }
}

/// The fields of an input of nested values that expressions name and no
/// record has had yet, and the names records had.
struct ComputedFieldsState {
    var unseen: Set<String>
    var seen: Set<String> = []
}
