import StrataCore
import StrataSchema

// MARK: - Relationships

extension XcodeModelVersionReader {
    /// Xcode's `deletionRule` spellings (coredata-format.md §2.5).
    static let deleteRules: [String: DeleteRule] = [
        "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction,
    ]

    mutating func convertRelationship(_ element: XMLElement) -> Relationship? {
        let name = Self.text(element, "name") ?? ""
        if name.isEmpty { report(element, "a relationship needs a name") }
        let destination = Self.text(element, "destinationEntity")
        if destination == nil { report(element, "a relationship needs a destinationEntity") }
        let inverse = Self.text(element, "inverseName")
        if inverse == nil {
            // Core Data allows it (Xcode warns): a plain foreign key, or for
            // a to-many a join table of its own.
            warn(
                element,
                Self.flag(element, "toMany")
                    ? "no inverseName: Core Data allows it; Strata writes a join table of its own "
                        + "(layout unverified), and a deleted destination drops out of it"
                    : "no inverseName: Core Data allows it; deleting the destination leaves a key "
                        + "that reads as nil")
        }
        var relationship = Relationship(
            name: name, destination: destination ?? "", inverse: inverse ?? "",
            isToMany: Self.flag(element, "toMany"))
        relationship.isOrdered = Self.flag(element, "ordered")
        relationship.isOptional = Self.flag(element, "optional")
        relationship.isTransient = Self.flag(element, "transient")
        // Counts are hashed exactly as written: a to-one says maxCount="1",
        // old files also minCount="1"; absent means 0 (coredata-format.md §2.7).
        relationship.minCount = count(element, "minCount")
        relationship.maxCount = count(element, "maxCount")
        if let rule = element[attribute: "deletionRule"] {
            if let deleteRule = Self.deleteRules[rule] {
                relationship.deleteRule = deleteRule
            } else {
                // Not hashed, not laid out: Xcode's default rule, with a warning.
                let known = Self.deleteRules.keys.sorted().map { "\"\($0)\"" }
                warn(
                    element,
                    "unknown deletionRule \"\(rule)\" read as \"Nullify\"; expected one of "
                        + known.joined(separator: ", "))
            }
        }
        relationship.versionHashModifier = Self.text(element, "versionHashModifier")
        relationship.renamingIdentifier = Self.renamingIdentifier(
            of: element, named: relationship.name)
        relationship.userInfo = Self.userInfo(of: element)
        if let key = relationship.userInfo["relatedByAttribute"], !key.isEmpty {
            relationship.relatedBy = key
        }
        return relationship
    }

    /// A `minCount`/`maxCount`: an integer from 0, 0 when absent.
    package mutating func count(_ element: XMLElement, _ key: String) -> Int {
        guard let text = element[attribute: key] else { return 0 }
        guard let value = Int(text), value >= 0, value <= Int(Int32.max) else {
            report(element, "\(key) \"\(text)\" is not a count (an integer from 0)")
            return 0
        }
        return value
    }

    /// Every destination is an entity and every inverse a relationship of it
    /// (inherited ones included).
    package mutating func checkRelationships(of model: Model) {
        for entity in model.entities {
            for relationship in entity.relationships
            where !relationship.destination.isEmpty && !relationship.inverse.isEmpty {
                guard let element = relationshipElements[entity.name]?[relationship.name] else {
                    continue
                }
                guard model.entity(named: relationship.destination) != nil else {
                    report(
                        element,
                        "destinationEntity \"\(relationship.destination)\" is not an entity of "
                            + "the model")
                    continue
                }
                let candidates = model.allRelationships(of: relationship.destination)
                if !candidates.contains(where: { $0.name == relationship.inverse }) {
                    report(
                        element,
                        "inverse \"\(relationship.inverse)\" is not a relationship of "
                            + relationship.destination)
                }
            }
        }
    }

    /// MagicalRecord's `relatedByAttribute`: on a relationship it names the
    /// destination's attribute to find objects by; on an entity it is the
    /// default for every relationship leading to that entity. A key naming
    /// no attribute of the destination is left out with a warning.
    mutating func applyEntityRelatedBy(in model: inout Model, _ elements: [XMLElement]) {
        var defaults: [String: String] = [:]
        for entity in model.entities {
            if let key = entity.userInfo["relatedByAttribute"], !key.isEmpty {
                defaults[entity.name] = key
            }
        }
        for index in model.entities.indices {
            let entityName = model.entities[index].name
            model.entities[index].relationships = model.entities[index].relationships.map {
                relationship in
                var relationship = relationship
                if relationship.relatedBy == nil {
                    relationship.relatedBy = defaults[relationship.destination]
                }
                if let key = relationship.relatedBy,
                    !model.allAttributes(of: relationship.destination).contains(where: {
                        $0.name == key
                    })
                {
                    relationship.relatedBy = nil
                    if let element = relationshipElements[entityName]?[relationship.name] {
                        warn(
                            element,
                            "relatedByAttribute \"\(key)\" left out: it is not an attribute of "
                                + relationship.destination)
                    }
                }
                return relationship
            }
        }
    }
}
