import StrataCore
import StrataSchema
import StrataStore

/// The insert of plain rows of flat fields, prepared once per run: one
/// statement of its own, whose parameters for `Z_ENT`, `Z_OPT`, touched
/// dates, defaults of attributes the input does not give and to-one keys
/// are bound once; each row binds only its key and its fields.
struct DirectInsert {
    /// What one input field writes.
    struct Column {
        /// The attribute's index in the plan, or -1 for a field left out.
        let attribute: Int
        /// The statement's parameter of the attribute.
        let parameter: Int32
        /// The attribute's rules as plain numbers, when it has any.
        let bounds: AttributeCheck.Bounds?
        /// Whether that default is a fresh UUID, made per row.
        var defaultsToFreshUUID = false
    }

    /// An attribute computed by a compiled expression (``CompiledComputation``).
    struct Computed {
        let computation: CompiledComputation
        /// The statement's parameter of the attribute.
        let parameter: Int32
        /// The attribute's rules as plain numbers, when it has any.
        let bounds: AttributeCheck.Bounds?
        /// The default taken when the expression gives no value (not a
        /// fresh UUID, made per row).
        let defaultCell: ImportCell?
        let defaultsToFreshUUID: Bool
    }

    let statement: Statement
    /// One entry per input field (plain values only: the row loop reads
    /// them without retaining anything).
    let columns: [Column]
    /// Per input field, the default taken when the field gives no value.
    let defaultCells: [ImportCell?]

    /// Attributes bound per row although no field gives them: those whose
    /// default is a fresh UUID.
    let freshUUIDs: [Int32]
    /// A required attribute no field and no default gives: every row is
    /// refused with this failure.
    let missing: ValueCoercer.Failure?
    /// The computed attributes, bound per row after the fields.
    let computed: [Computed]

    /// Prepares the insert of `plan` for fields mapped by `targets` and
    /// attributes computed by `computations` (none of them touched).
    init?(
        plan: EntityImportPlan, targets: [FieldTarget],
        computations: [CompiledComputation] = [], importer: Importer
    ) throws {
        var freshUUIDs: [Int32] = []
        var missing: ValueCoercer.Failure?
        guard let writer = importer.writer else { return nil }
        let completer = importer.completer
        /// What an empty cell of attribute `index` becomes: its default's
        /// cell, or a fresh UUID per row for a `uuid` default.
        func defaultOf(_ index: Int) -> (cell: ImportCell?, freshUUID: Bool) {
            guard let fallback = plan.defaults.first(where: { $0.index == index }) else {
                return (nil, false)
            }
            guard fallback.value != .uuid else { return (nil, true) }
            return (
                completer.defaultCell(fallback.value, externalStorage: fallback.externalStorage),
                false
            )
        }
        var given = Set<Int>()
        var columns: [Column] = []
        var defaultCells: [ImportCell?] = []
        for target in targets {
            guard case .attribute(let index) = target, !plan.touched.contains(index) else {
                columns.append(Column(attribute: -1, parameter: 0, bounds: nil))
                defaultCells.append(nil)
                continue
            }
            given.insert(index)
            let fallback = defaultOf(index)
            columns.append(
                Column(
                    attribute: index, parameter: EntityRowLayout.parameter(ofColumn: index),
                    bounds: plan.bounds[index], defaultsToFreshUUID: fallback.freshUUID))
            defaultCells.append(fallback.cell)
        }
        var computed: [Computed] = []
        for computation in computations {
            let index = computation.attribute
            given.insert(index)
            let fallback = defaultOf(index)
            computed.append(
                Computed(
                    computation: computation, parameter: EntityRowLayout.parameter(ofColumn: index),
                    bounds: plan.bounds[index], defaultCell: fallback.cell,
                    defaultsToFreshUUID: fallback.freshUUID))
        }
        let statement = try writer.rows.newInsertStatement(for: plan.layout)
        for index in 0..<plan.cellCount where !given.contains(index) {
            var cell = ImportCell.null
            if index < plan.attributes.count {
                if plan.touched.contains(index) {
                    cell = .real(completer.now)
                } else if let value = plan.defaults.first(where: { $0.index == index }) {
                    cell = completer.defaultCell(
                        value.value, externalStorage: value.externalStorage)
                }
                if plan.defaults.contains(where: { $0.index == index && $0.value == .uuid }) {
                    freshUUIDs.append(EntityRowLayout.parameter(ofColumn: index))
                } else if !cell.hasValue, let bounds = plan.bounds[index], !bounds.isOptional,
                    missing == nil
                {
                    missing = ValueCoercer.Failure(
                        "\(plan.attributes[index].name) is required, and the record gives no value",
                        code: .missingField)
                }
            }
            try cell.bind(to: statement, at: EntityRowLayout.parameter(ofColumn: index))
        }
        self.statement = statement
        self.columns = columns
        self.defaultCells = defaultCells
        self.freshUUIDs = freshUUIDs
        self.missing = missing
        self.computed = computed
    }
}
