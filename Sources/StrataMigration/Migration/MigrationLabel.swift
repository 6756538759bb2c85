/// How a ``MigrationStep`` can be carried out, from safest to hardest.
public enum MigrationLabel: String, CaseIterable, Hashable, Sendable, Comparable {
    /// Core Data's lightweight rules decide the new data: no value is lost and
    /// no choice is left open.
    case inferred
    /// The step can run without help, but it throws data away (values of a
    /// removed attribute, the order of a relationship, objects beyond the
    /// first of a to-many turned to-one).
    case lossy
    /// The step cannot run until a mapping supplies what the schemas do not
    /// say (values of a new required attribute without a default, say).
    case needsMapping

    /// How the label is written in plans: `inferred`, `lossy`,
    /// `needs-mapping`.
    public var text: String {
        switch self {
        case .inferred: "inferred"
        case .lossy: "lossy"
        case .needsMapping: "needs-mapping"
        }
    }

    /// Orders labels from safest (`inferred`) to hardest (`needsMapping`).
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
