/// Which element (entity, attribute or relationship) of one version
/// continues which element of an older version, as Core Data's inferred
/// mapping pairs them, plus Strata's explicit `renamedFrom`.
///
/// Core Data pairs a destination element with the source element whose
/// renaming identifier (Xcode's `elementID`, defaulting to the name) is the
/// same. So `isSilenced` with identifier `mutedStatus` in one version and
/// `mutedStatus` (identifier unset, so `mutedStatus`) in the next are one
/// property, renamed. Strata's `renamedFrom` names the element's name in
/// the previous version and is matched first. Each older element continues
/// in at most one newer element.
///
/// Two rules beyond Core Data's keep values a stray identifier would lose
/// (real histories have them: an `elementID` left on an entity for one
/// release): a newer element whose identifier is the *name* of an older
/// element (that carries another identifier) continues it; and a newer
/// element whose identifier names nothing of the older version at all is
/// paired by its name, the identifier ignored (``strayIdentifiers(_:among:)``
/// lists them, for a warning). Neither takes an older element that Core
/// Data's rule pairs with another.
package enum RenamingPairing {
    /// One element, as the pairing sees it.
    package struct Element: Hashable, Sendable {
        package var name: String
        package var renamedFrom: String?
        var renamingIdentifier: String?

        /// Core Data's renaming identifier: the one set, else the name.
        package var identifier: String { renamingIdentifier ?? name }
    }

    /// How a newer element found its older one.
    enum Rule: Hashable, Sendable {
        /// Its `renamedFrom` names the older element.
        case renamedFrom
        /// Both carry the same renaming identifier (equal names included):
        /// Core Data's rule.
        case renamingIdentifier
        /// Its renaming identifier is the older element's name, which
        /// carries another identifier; Core Data would not pair them.
        case identifierNamesOlder
        /// Its renaming identifier names nothing of the older version, so
        /// it is ignored and the names are equal; Core Data would not pair
        /// them.
        case sameName

        /// Whether Core Data's inferred mapping pairs elements by this rule
        /// (`renamedFrom` is Strata's own).
        var isCoreData: Bool { self == .renamingIdentifier }
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
        // The rules beyond Core Data's, only for what its rule left over.
        for element in newer where pairs[element.name] == nil {
            if olderNames.contains(element.identifier),
                claimed.insert(element.identifier).inserted
            {
                pairs[element.name] = (element.identifier, .identifierNamesOlder)
            }
        }
        let known = olderNames.union(byIdentifier.keys)
        for element in newer where pairs[element.name] == nil {
            if element.renamingIdentifier != nil, !known.contains(element.identifier),
                olderNames.contains(element.name), claimed.insert(element.name).inserted
            {
                pairs[element.name] = (element.name, .sameName)
            }
        }
        return pairs
    }

    /// The elements of `newer` whose renaming identifier names nothing of
    /// `older` (no element has it as its name or identifier): identifiers
    /// left behind, which the pairing ignores.
    static func strayIdentifiers(_ newer: [Element], among older: [Element]) -> [Element] {
        let known = Set(older.map(\.name)).union(older.map(\.identifier))
        return newer.filter { element in
            guard let identifier = element.renamingIdentifier else { return false }
            return identifier != element.name && !known.contains(identifier)
        }
    }
}

extension RenamingPairing.Element {
    package init(_ entity: Entity) {
        self.init(
            name: entity.name, renamedFrom: entity.renamedFrom,
            renamingIdentifier: entity.renamingIdentifier)
    }

    package init(_ attribute: Attribute) {
        self.init(
            name: attribute.name, renamedFrom: attribute.renamedFrom,
            renamingIdentifier: attribute.renamingIdentifier)
    }

    package init(_ relationship: Relationship) {
        self.init(
            name: relationship.name, renamedFrom: relationship.renamedFrom,
            renamingIdentifier: relationship.renamingIdentifier)
    }
}
