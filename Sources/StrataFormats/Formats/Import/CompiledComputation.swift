import StrataCore
import StrataQuery

/// A computed attribute of a flat input whose expression is a simple
/// conversion, compiled once into an operation on the row's cells: what
/// lets a mapping of renames, casts, constants and concatenations take the
/// direct insert path instead of a value tree per row.
///
/// Compiled: a field (`last`, `string(last)`), an expression without fields
/// (a constant, computed and converted once), `concatenate(…)` and `a + b`
/// of fields and string literals, `integer(field)` and `number(field)`.
/// Anything else leaves the whole mapping to the interpreter
/// (``compile(_:index:fieldNames:coercer:plan:evaluator:maximumBytes:)``
/// returns nil).
///
/// Results are the interpreter's: a field is no value when it is empty and
/// unquoted, the result is converted by the attribute's rules as a text
/// (``ValueCoercer/cell(utf8:quoted:index:plan:)``, as quoted), and a value
/// the operation does not settle itself (a number that is not plain
/// decimal digits, a result past the size limit) is ``Outcome/interpret``:
/// the caller evaluates the expression for that row.
final class CompiledComputation {
    /// A piece of a joined text.
    private enum Piece {
        case field(Int)
        case text([UInt8])
    }

    private enum Operation {
        /// The field's text.
        case copy(Int)
        /// The same cell every row.
        case constant(ImportCell)
        /// The pieces joined; with `nullIfAnyIsNull` (`+`) no value when a
        /// field has none, else (`concatenate`) those are skipped and the
        /// result is no value only when every field is.
        case join([Piece], nullIfAnyIsNull: Bool)
        case integer(Int)
        case number(Int)
    }

    /// What a row gives.
    enum Outcome {
        case cell(ImportCell)
        /// Evaluate the expression with the interpreter for this row.
        case interpret
    }

    /// The computed attribute, by index in the plan.
    let attribute: Int
    /// The computation as written, for messages and the interpreter.
    let source: ComputedAttribute
    private let operation: Operation
    /// The largest text a join may give (the interpreter's limit).
    private let maximumBytes: Int
    /// The joined text of the current row, in storage kept from row to row
    /// (no allocation per row) that a `.utf8` cell may point into.
    private var joined = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)
    private var joinedCount = 0

    private init(
        attribute: Int, source: ComputedAttribute, operation: Operation, maximumBytes: Int
    ) {
        self.attribute = attribute
        self.source = source
        self.operation = operation
        self.maximumBytes = maximumBytes
    }

    deinit {
        joined.deallocate()
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if joinedCount + bytes.count > joined.count {
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(
                capacity: max(joined.count * 2, joinedCount + bytes.count))
            _ = larger.initialize(fromContentsOf: joined[0..<joinedCount])
            joined.deallocate()
            joined = larger
        }
        _ = UnsafeMutableBufferPointer(rebasing: joined[joinedCount...]).initialize(
            fromContentsOf: bytes)
        joinedCount += bytes.count
    }

    /// Compiles `source` (for attribute `index`) against the input's
    /// `fieldNames`, or returns nil when the expression is not a simple
    /// conversion. `maximumBytes` is the evaluator's result limit.
    static func compile(
        _ source: ComputedAttribute, index: Int, fieldNames: [String], coercer: ValueCoercer,
        plan: EntityImportPlan, evaluator: ExpressionEvaluator, maximumBytes: Int
    ) -> CompiledComputation? {
        // The last field of a name wins, as in the interpreter's values.
        var columns: [String: Int] = [:]
        for (column, name) in fieldNames.enumerated() { columns[name] = column }
        func piece(_ node: ExpressionNode) -> Piece? {
            switch node {
            case .keyPath(let path, _):
                return columns[path.joined(separator: ".")].map(Piece.field)
            case .value(.string(let text), _):
                // A NUL is refused by the coercer's typed path; leave it to it.
                return text.utf8.contains(0) ? nil : .text(Array(text.utf8))
            case .function("string", let arguments, _) where arguments.count == 1:
                return piece(arguments[0])
            default:
                return nil
            }
        }
        func sum(_ node: ExpressionNode) -> [Piece]? {
            if case .binary(.add, let left, let right, _) = node {
                guard let left = sum(left), let right = sum(right) else { return nil }
                return left + right
            }
            return piece(node).map { [$0] }
        }
        let node = source.node
        let operation: Operation
        if source.fields.isEmpty {
            guard let value = try? evaluator.evaluate(node, [:]),
                let cell = try? coercer.cell(RecordValue(value), index: index, plan: plan)
            else { return nil }
            operation = .constant(cell.owned)
        } else if case .field(let column)? = piece(node) {
            operation = .copy(column)
        } else if case .function("concatenate", let arguments, _) = node {
            let pieces = arguments.compactMap(piece)
            guard pieces.count == arguments.count else { return nil }
            operation = .join(pieces, nullIfAnyIsNull: false)
        } else if case .binary(.add, _, _, _) = node, let pieces = sum(node) {
            operation = .join(pieces, nullIfAnyIsNull: true)
        } else if case .function(let name, let arguments, _) = node, arguments.count == 1,
            name == "integer" || name == "number", case .field(let column)? = piece(arguments[0])
        {
            operation = name == "integer" ? .integer(column) : .number(column)
        } else {
            return nil
        }
        return CompiledComputation(
            attribute: index, source: source, operation: operation,
            maximumBytes: maximumBytes)
    }

    /// The attribute's cell for the reader's current row. A ``Outcome/cell(_:)``
    /// holding text may point into the row or into this computation: use
    /// it before the next row or the next call.
    ///
    /// - Throws: ``ValueCoercer/Failure`` when the result does not convert
    ///   to the attribute's type.
    func outcome<Reader: FieldRecordReader>(
        _ reader: Reader, coercer: ValueCoercer, plan: EntityImportPlan
    ) throws(ValueCoercer.Failure) -> Outcome {
        func isGiven(_ column: Int) -> Bool {
            column < reader.fieldCount && (!reader.field(column).isEmpty || reader.isQuoted(column))
        }
        switch operation {
        case .constant(let cell):
            return .cell(cell)
        case .copy(let column):
            guard isGiven(column) else { return .cell(.null) }
            return .cell(
                try coercer.cell(
                    utf8: reader.field(column), quoted: true, index: attribute, plan: plan))
        case .join(let pieces, let nullIfAnyIsNull):
            joinedCount = 0
            var anyGiven = false
            for piece in pieces {
                switch piece {
                case .text(let text):
                    text.withUnsafeBufferPointer { append($0) }
                    anyGiven = true
                case .field(let column):
                    if isGiven(column) {
                        append(reader.field(column))
                        anyGiven = true
                    } else if nullIfAnyIsNull {
                        return .cell(.null)
                    }
                }
            }
            guard anyGiven else { return .cell(.null) }
            // The interpreter refuses a result past its limit: its error.
            guard joinedCount <= maximumBytes else { return .interpret }
            return .cell(
                try coercer.cell(
                    utf8: UnsafeBufferPointer(rebasing: joined[0..<joinedCount]), quoted: true,
                    index: attribute, plan: plan))
        case .integer(let column), .number(let column):
            guard isGiven(column) else { return .cell(.null) }
            // Plain decimals only: what the interpreter's leading-number
            // reading gives for them is their value; other text is its.
            let bytes = reader.field(column)
            guard Self.isPlainDecimal(bytes), let number = ValueCoercer.parseDouble(bytes),
                number.isFinite
            else { return .interpret }
            if case .number = operation {
                return .cell(try coercer.cell(.real(number), index: attribute, plan: plan))
            }
            guard let whole = Int64(exactly: number.rounded(.towardZero)) else {
                return .interpret
            }
            return .cell(try coercer.cell(.integer(whole), index: attribute, plan: plan))
        }
    }

    /// `[-+]?digits(.digits)?` in ASCII.
    private static func isPlainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if index < bytes.count,
            bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
        {
            index += 1
        }
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        guard digits() > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }
}
