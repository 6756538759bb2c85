/// Which element (entity, attribute or relationship) of one version
/// continues which element of the version before, as Core Data's inferred
/// mapping pairs them, plus Strata's explicit `renamedFrom`.
///
/// Core Data pairs a destination element with the source element whose
/// renaming identifier (Xcode's `elementID`, defaulting to the name) is the
/// same. So `isSilenced` with identifier `mutedStatus` in one version and
/// `mutedStatus` (identifier unset, so `mutedStatus`) in the next are one
/// property, renamed. Strata's `renamedFrom` names the element's name in
/// the previous version and is matched first. Each older element continues
/// in at most one newer element.
enum RenamingPairing {
    /// One element, as the pairing sees it.
    struct Element: Hashable, Sendable {
        var name: String
        var renamedFrom: String?
        var renamingIdentifier: String?

        /// Core Data's renaming identifier: the one set, else the name.
        var identifier: String { renamingIdentifier ?? name }
    }

    /// How a newer element found its older one.
    enum Rule: Hashable, Sendable {
        /// Its `renamedFrom` names the older element.
        case renamedFrom
        /// Both carry the same renaming identifier (equal names included).
        case renamingIdentifier
    }

    /// Older element name and rule, by newer element name.
    static func pair(
        _ newer: [Element], with older: [Element]
    ) -> [String: (older: String, rule: Rule)] {
        var pairs: [String: (older: String, rule: Rule)] = [:]
        var claimed: Set<String> = []
        let olderNames = Set(older.map(\.name))
        for element in newer {
            if let former = element.renamedFrom, olderNames.contains(former),
                claimed.insert(former).inserted
            {
                pairs[element.name] = (former, .renamedFrom)
            }
        }
        var byIdentifier: [String: String] = [:]
        for element in older where byIdentifier[element.identifier] == nil {
            byIdentifier[element.identifier] = element.name
        }
        for element in newer where pairs[element.name] == nil {
            if let former = byIdentifier[element.identifier], claimed.insert(former).inserted {
                pairs[element.name] = (former, .renamingIdentifier)
            }
        }
        return pairs
    }
}

extension RenamingPairing.Element {
    init(_ entity: Entity) {
        self.init(
            name: entity.name, renamedFrom: entity.renamedFrom,
            renamingIdentifier: entity.renamingIdentifier)
    }

    init(_ attribute: Attribute) {
        self.init(
            name: attribute.name, renamedFrom: attribute.renamedFrom,
            renamingIdentifier: attribute.renamingIdentifier)
    }

    init(_ relationship: Relationship) {
        self.init(
            name: relationship.name, renamedFrom: relationship.renamedFrom,
            renamingIdentifier: relationship.renamingIdentifier)
    }
}
