import StrataSchema

// MARK: - Attributes

extension StepFinder {
    /// Where the values of a property declared by a newer entity come from.
    enum Origin {
        /// The older entity declared the property itself (maybe renamed).
        case own(String)
        /// An ancestor of the older entity declared it: it moved down.
        case movedDown(String, from: String)
        /// A subentity declared it: it moved up.
        case movedUp(String, from: String, subentity: String)
        /// Nothing in the older version: it is new.
        case none
    }

    /// Where property `name`, declared by the newer `entity`, comes from;
    /// `formerName` looks a property up in the matches of a newer entity.
    func origin(
        of name: String, declaredBy entity: String,
        formerName: (_ entity: String, _ name: String) -> String?
    ) -> Origin {
        // A new entity has no values of its own, but may take them from
        // subentities (a property moving up to a new parent).
        if let former = context.formerEntity(of: entity), let old = formerName(entity, name) {
            let owner = PlanContext.declaringEntity(of: old, from: former, in: source)
            if let owner, owner != former { return .movedDown(old, from: owner) }
            return .own(old)
        }
        for subentity in destination.entityTree(rootedAt: entity).dropFirst() {
            guard let old = formerName(subentity.name, name),
                let oldSubentity = context.formerEntity(of: subentity.name),
                let owner = PlanContext.declaringEntity(of: old, from: oldSubentity, in: source)
            else { continue }
            return .movedUp(old, from: owner, subentity: subentity.name)
        }
        return .none
    }

    /// The concrete older entities, in the tree of `owner`, whose objects
    /// hold values of property `name` (declared by `owner`) that no newer
    /// property continues: a property pushed down from a removed abstract
    /// parent to every subentity loses nothing.
    func entitiesLosing(
        _ name: String, declaredBy owner: String,
        matches: (_ newerEntity: String) -> [String: String]?
    ) -> [String] {
        source.entityTree(rootedAt: owner).filter { member in
            guard !member.isAbstract else { return false }
            guard let newer = context.match.newerEntity(continuing: member.name),
                let continued = matches(newer)
            else { return true }
            return !continued.values.contains { old in
                old == name
                    && PlanContext.declaringEntity(of: old, from: member.name, in: source) == owner
            }
        }.map(\.name)
    }

    /// The older declarations (entity, property) that some newer property
    /// continues, for attributes or relationships.
    func continuedDeclarations(_ matches: [String: [String: String]]) -> Set<[String]> {
        var kept: Set<[String]> = []
        for (entity, properties) in matches {
            guard let former = context.formerEntity(of: entity) else { continue }
            for old in properties.values {
                if let owner = PlanContext.declaringEntity(of: old, from: former, in: source) {
                    kept.insert([owner, old])
                }
            }
        }
        return kept
    }

    mutating func findAttributeSteps() {
        for entity in destination.entitiesInNumberingOrder {
            let isNew = context.formerEntity(of: entity.name) == nil
            let tables = context.tables(ofEntity: entity.name)
            for attribute in entity.attributes where !attribute.isTransient {
                let origin = origin(of: attribute.name, declaredBy: entity.name) {
                    context.match.attributes[$0]?[$1]
                }
                var step = MigrationStep(
                    .addAttribute, entity: entity.name, property: attribute.name,
                    label: .inferred, reason: "", tables: tables)
                let oldName: String
                let oldOwner: String
                switch origin {
                case .none:
                    // A new entity's own properties come with its add-entity step.
                    if isNew { continue }
                    (step.label, step.reason) = Self.newValues(
                        attribute.isOptional, attribute.defaultValue != nil, what: "attribute")
                    steps.append(step)
                    continue
                case .own(let name):
                    (oldName, oldOwner) = (name, context.formerEntity(of: entity.name) ?? "")
                case .movedDown(let name, let owner):
                    (oldName, oldOwner) = (name, owner)
                    step.kind = .moveProperty
                    // From a removed parent, the losses of the other
                    // subentities are remove-attribute steps of their own.
                    let losing =
                        context.match.newerEntity(continuing: owner) == nil
                        ? []
                        : entitiesLosing(name, declaredBy: owner) {
                            context.match.attributes[$0]
                        }
                    step.label = losing.isEmpty ? .inferred : .lossy
                    step.reason =
                        "moves down from \(owner)"
                        + (losing.isEmpty
                            ? "; every object that had it keeps its value"
                            : "; objects of \(losing.joined(separator: ", ")) lose their values")
                    steps.append(step)
                case .movedUp(let name, let owner, _):
                    (oldName, oldOwner) = (name, owner)
                    step.kind = .moveProperty
                    let filled = attribute.isOptional || attribute.defaultValue != nil
                    step.label = filled ? .inferred : .needsMapping
                    step.reason =
                        "moves up from \(owner); other objects of \(entity.name) "
                        + (filled
                            ? "get \(attribute.defaultValue == nil ? "nil" : "the default")"
                            : "need values from a mapping (required, no default)")
                    steps.append(step)
                }
                guard
                    let old = source.allAttributes(of: oldOwner).first(where: {
                        $0.name == oldName
                    })
                else { continue }
                compare(old, attribute, entity: entity.name, tables: tables)
            }
        }
        findRemovedAttributes()
    }

    private mutating func findRemovedAttributes() {
        let kept = continuedDeclarations(context.match.attributes)
        for entity in source.entitiesInNumberingOrder {
            guard let newer = context.match.newerEntity(continuing: entity.name) else {
                findOrphanedProperties(of: entity, attributes: true)
                continue
            }
            for attribute in entity.attributes
            where !attribute.isTransient && !kept.contains([entity.name, attribute.name]) {
                steps.append(
                    MigrationStep(
                        .removeAttribute, entity: newer, property: attribute.name, label: .lossy,
                        reason: "attribute is gone; its values are dropped",
                        tables: context.tables(ofEntity: newer)))
            }
        }
    }

    /// For a removed entity: each property it declared that a continuing
    /// concrete subentity loses (it was not pushed down to it) is a
    /// removal on that subentity's newer entity.
    mutating func findOrphanedProperties(of entity: Entity, attributes: Bool) {
        let names =
            attributes
            ? entity.attributes.filter { !$0.isTransient }.map(\.name)
            : entity.relationships.filter { !$0.isTransient }.map(\.name)
        for name in names {
            let losing = entitiesLosing(name, declaredBy: entity.name) {
                attributes ? context.match.attributes[$0] : context.match.relationships[$0]
            }
            for member in losing {
                guard let newer = context.match.newerEntity(continuing: member) else { continue }
                let old = attributes ? nil : entity.relationship(named: name)
                steps.append(
                    MigrationStep(
                        attributes ? .removeAttribute : .removeRelationship, entity: newer,
                        property: name, label: .lossy,
                        reason: (attributes ? "attribute" : "relationship")
                            + " of the removed \(entity.name) is not kept by \(newer); its "
                            + (attributes ? "values" : "links") + " are dropped",
                        tables: attributes
                            ? context.tables(ofEntity: newer)
                            : linkTables(nil, of: newer, old: old, of: entity.name)))
            }
        }
    }

    /// The label and reason of a property that is new for existing objects.
    static func newValues(
        _ isOptional: Bool, _ hasDefault: Bool, what: String
    ) -> (MigrationLabel, String) {
        if hasDefault { return (.inferred, "new \(what); existing objects get the default") }
        if isOptional { return (.inferred, "new optional \(what); nil in existing objects") }
        return (
            .needsMapping,
            "new required \(what) without a default: existing objects need values from a mapping"
        )
    }

    private mutating func compare(
        _ old: Attribute, _ new: Attribute, entity: String, tables: [String]
    ) {
        func add(_ kind: MigrationStepKind, _ label: MigrationLabel, _ reason: String) {
            appendPropertyStep(
                kind, label, reason, entity: entity, property: new.name, formerName: old.name,
                tables: tables)
        }
        if old.name != new.name {
            add(
                .renameAttribute, .inferred,
                "renamed from \(old.name) " + Self.pairing(.init(old), .init(new)))
        }
        if old.isOptional && !new.isOptional {
            if new.defaultValue != nil {
                add(.makeRequired, .inferred, "becomes required; nil values get the default")
            } else {
                add(
                    .makeRequired, .needsMapping,
                    "becomes required without a default: nil values need a mapping")
            }
        } else if !old.isOptional && new.isOptional {
            add(.makeOptional, .inferred, "becomes optional")
        }
        if old.type != new.type {
            let (kind, label) = Self.typeChange(from: old.type, to: new.type)
            let what =
                switch label {
                case .inferred: "every old value fits"
                case .lossy: "values that do not fit lose precision or range"
                case .needsMapping: "values need a conversion from a mapping"
                }
            add(kind, label, "type \(old.type.rawValue) becomes \(new.type.rawValue); \(what)")
        }
        if old.isIndexed != new.isIndexed {
            add(
                new.isIndexed ? .addIndex : .removeIndex, .inferred,
                new.isIndexed ? "becomes indexed" : "is no longer indexed")
        }
        if old.allowsExternalStorage != new.allowsExternalStorage {
            add(
                .changeVersionHash, .needsMapping,
                "external storage turns \(new.allowsExternalStorage ? "on" : "off"): stored "
                    + "values change their encoding, which SQL cannot do")
        }
        var hashOnly: [String] = []
        if old.versionHashModifier != new.versionHashModifier {
            hashOnly.append(
                "versionHashModifier \(Self.quote(old.versionHashModifier)) becomes "
                    + Self.quote(new.versionHashModifier))
        }
        if old.preservesValueOnDeletion != new.preservesValueOnDeletion {
            hashOnly.append("preserve-after-deletion changes")
        }
        if !hashOnly.isEmpty {
            add(
                .changeVersionHash, .inferred,
                hashOnly.joined(separator: ", ") + "; only the version hash changes")
        }
    }

    /// A widening keeps every value and is inferred (Boolean → integers,
    /// Integer 16 → 32 → 64, integers → Double, Float → Double, see
    /// ``AttributeType/widens(to:)``); every other change, narrowings
    /// included, needs a conversion from a mapping, and the dry run counts
    /// the values that would not fit the new type.
    static func typeChange(
        from old: AttributeType, to new: AttributeType
    ) -> (MigrationStepKind, MigrationLabel) {
        old.widens(to: new) ? (.widenType, .inferred) : (.changeType, .needsMapping)
    }
}
