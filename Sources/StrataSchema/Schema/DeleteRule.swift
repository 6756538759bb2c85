/// What happens to the destination objects of a relationship when its source
/// object is deleted.
///
/// The raw value is the spelling used in `strata-schema/1` files.
public enum DeleteRule: String, CaseIterable, Hashable, Sendable {
    /// Remove the deleted object from the inverse relationship (the default).
    case nullify
    /// Delete the destination objects as well.
    case cascade
    /// Refuse the delete while the relationship holds any object.
    case deny
    /// Do nothing; the inverse keeps pointing at the deleted object.
    case noAction

    /// Core Data's `NSDeleteRule` code, as stored in model caches.
    public var coreDataCode: Int {
        switch self {
        case .noAction: 0
        case .nullify: 1
        case .cascade: 2
        case .deny: 3
        }
    }

    /// The rule whose ``coreDataCode`` is `code`, if any.
    public init?(coreDataCode code: Int64) {
        guard let rule = Self.allCases.first(where: { Int64($0.coreDataCode) == code }) else {
            return nil
        }
        self = rule
    }
}
