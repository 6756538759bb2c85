import StrataSchema

// MARK: - Relationships

extension StepFinder {
    mutating func findRelationshipSteps() {
        for entity in destination.entitiesInNumberingOrder {
            let isNew = context.formerEntity(of: entity.name) == nil
            for relationship in entity.relationships where !relationship.isTransient {
                let origin = origin(of: relationship.name, declaredBy: entity.name) {
                    context.match.relationships[$0]?[$1]
                }
                var step = MigrationStep(
                    .addRelationship, entity: entity.name, property: relationship.name,
                    label: .inferred, reason: "",
                    tables: linkTables(relationship, of: entity.name, old: nil, of: nil))
                let oldName: String
                let oldOwner: String
                switch origin {
                case .none:
                    // A new entity's own properties come with its add-entity step.
                    if isNew { continue }
                    if relationship.isToMany {
                        // A to-many has no per-row value: it starts empty,
                        // as Core Data adds it; only a minimum makes the
                        // existing objects break a rule.
                        (step.label, step.reason) =
                            relationship.minCount > 0
                            ? (
                                .needsMapping,
                                "new to-many relationship with minCount "
                                    + "\(relationship.minCount): existing objects start with "
                                    + "none and need links from a mapping"
                            )
                            : (
                                .inferred,
                                "new to-many relationship; existing objects start with none"
                            )
                    } else {
                        (step.label, step.reason) = Self.newValues(
                            relationship.isOptional, false, what: "relationship")
                    }
                    steps.append(step)
                    continue
                case .own(let name):
                    (oldName, oldOwner) = (name, context.formerEntity(of: entity.name) ?? "")
                case .movedDown(let name, let owner), .movedUp(let name, let owner, _):
                    (oldName, oldOwner) = (name, owner)
                    step.kind = .moveProperty
                    step.reason = "moves from \(owner) to \(entity.name)"
                    step.label = relationship.isOptional ? .inferred : .needsMapping
                    if !relationship.isOptional {
                        step.reason += "; objects that had no such link need one from a mapping"
                    }
                    steps.append(step)
                }
                guard
                    let old = source.allRelationships(of: oldOwner).first(where: {
                        $0.name == oldName
                    })
                else { continue }
                compare(
                    old, relationship, entity: entity.name,
                    tables: linkTables(relationship, of: entity.name, old: old, of: oldOwner))
            }
        }
        let kept = continuedDeclarations(context.match.relationships)
        for entity in source.entitiesInNumberingOrder {
            guard let newer = context.match.newerEntity(continuing: entity.name) else {
                findOrphanedProperties(of: entity, attributes: false)
                continue
            }
            for relationship in entity.relationships
            where !relationship.isTransient && !kept.contains([entity.name, relationship.name]) {
                steps.append(
                    MigrationStep(
                        .removeRelationship, entity: newer, property: relationship.name,
                        label: .lossy, reason: "relationship is gone; its links are dropped",
                        tables: linkTables(nil, of: newer, old: relationship, of: entity.name)))
            }
        }
    }

    /// The tables that hold a relationship's links, before and after: the
    /// entity's own table for a to-one, the destination's when the inverse
    /// is to-one, the join table for a many-to-many.
    func linkTables(
        _ new: Relationship?, of entity: String, old: Relationship?, of former: String?
    ) -> [String] {
        var tables: [String] = []
        for (relationship, owner, model, layout) in [
            (new, entity, destination, context.destinationLayout),
            (old, former, source, context.sourceLayout),
        ] {
            guard let relationship, let owner, let ownerLayout = layout.entity(named: owner)
            else { continue }
            let inverse = model.allRelationships(of: relationship.destination)
                .first { $0.name == relationship.inverse }
            if !relationship.isToMany { tables.append(ownerLayout.tableName) }
            if inverse?.isToMany == false,
                let table = layout.entity(named: relationship.destination)?.tableName
            {
                tables.append(table)
            }
            if let join = ownerLayout.joinTables[relationship.name] { tables.append(join) }
        }
        return Array(Set(tables)).sorted()
    }

    private mutating func compare(
        _ old: Relationship, _ new: Relationship, entity: String, tables: [String]
    ) {
        func add(_ kind: MigrationStepKind, _ label: MigrationLabel, _ reason: String) {
            appendPropertyStep(
                kind, label, reason, entity: entity, property: new.name, formerName: old.name,
                tables: tables)
        }
        if old.name != new.name {
            add(
                .renameRelationship, .inferred,
                "renamed from \(old.name) " + Self.pairing(.init(old), .init(new)))
        }
        if context.formerEntity(of: new.destination) != old.destination {
            add(
                .changeType, .needsMapping,
                "destination \(old.destination) becomes \(new.destination): the links need a "
                    + "mapping")
            return
        }
        let inverse = destination.allRelationships(of: new.destination)
            .first { $0.name == new.inverse }
        if !old.isToMany && new.isToMany {
            let join = context.destinationLayout.entity(named: entity)?.joinTables[new.name]
            add(
                .toOneToToMany, .inferred,
                join.map { "becomes to-many; keys move to the join table \($0)" }
                    ?? "becomes to-many; the key stays with the to-one inverse "
                    + (inverse?.name ?? new.inverse))
        } else if old.isToMany && !new.isToMany {
            add(
                .toManyToToOne, .lossy,
                "becomes to-one: each object keeps one of its \(old.name) (the lowest "
                    + "primary key unless a mapping says which stays) and loses the others")
        } else if old.isToMany && old.isOrdered != new.isOrdered {
            add(
                new.isOrdered ? .makeOrdered : .makeUnordered,
                new.isOrdered ? .inferred : .lossy,
                new.isOrdered
                    ? "becomes ordered; existing objects are ordered by primary key"
                    : "becomes unordered; the order is dropped")
        }
        if old.isOptional && !new.isOptional && new.isToMany && new.minCount == 0 {
            add(
                .makeRequired, .inferred,
                "becomes required; a to-many without a minimum may stay empty")
        } else if old.isOptional && !new.isOptional {
            add(
                .makeRequired, .needsMapping,
                "becomes required: objects without \(new.name) need one from a mapping")
        } else if !old.isOptional && new.isOptional {
            add(.makeOptional, .inferred, "becomes optional")
        }
        var hashOnly: [String] = []
        if old.versionHashModifier != new.versionHashModifier {
            hashOnly.append(
                "versionHashModifier \(Self.quote(old.versionHashModifier)) becomes "
                    + Self.quote(new.versionHashModifier))
        }
        if old.isToMany == new.isToMany
            && (old.minCount != new.minCount || old.effectiveMaxCount != new.effectiveMaxCount)
        {
            hashOnly.append(
                "counts \(old.minCount)…\(old.effectiveMaxCount) become "
                    + "\(new.minCount)…\(new.effectiveMaxCount) (checked on save)")
        }
        // A to-one keeps its key column with or without an inverse.
        if !old.isToMany && !new.isToMany && old.hasInverse != new.hasInverse {
            hashOnly.append(
                new.hasInverse
                    ? "gains the inverse \(new.inverse)" : "loses its inverse \(old.inverse)")
        }
        // A to-many's links move between its own join table (no inverse),
        // a pair's join table and the inverse's key column.
        if old.isToMany && new.isToMany && old.hasInverse != new.hasInverse {
            let toOneInverse = new.hasInverse && inverse?.isToMany == false
            let join = context.destinationLayout.entity(named: entity)?.joinTables[new.name]
            add(
                .changeVersionHash, toOneInverse ? .lossy : .inferred,
                (new.hasInverse
                    ? "gains the inverse \(new.inverse)" : "loses its inverse \(old.inverse)")
                    + (toOneInverse
                        ? "; links move to its key column, and an object listed by several "
                            + "keeps only the lowest"
                        : "; links move to the join table " + (join ?? "")))
        }
        if !hashOnly.isEmpty {
            add(
                .changeVersionHash, .inferred,
                hashOnly.joined(separator: ", ") + "; only the version hash changes")
        }
    }
}
