import StrataSchema

/// Finds the steps between two versions: compares every entity, property,
/// index and constraint of the newer version with the older element it
/// continues, and labels each difference.
struct StepFinder {
    let context: PlanContext
    var steps: [MigrationStep] = []

    init(_ context: PlanContext) {
        self.context = context
    }

    var source: Model { context.source }
    var destination: Model { context.destination }

    /// Every step, sorted by entity number (newer numbering; removed entities
    /// last by their older number), then property name, then kind.
    mutating func findSteps() -> [MigrationStep] {
        findEntitySteps()
        findAttributeSteps()
        findRelationshipSteps()
        findIndexSteps()
        suggestRenames()
        let kinds = MigrationStepKind.allCases
        let removedOffset = destination.entities.count
        func key(_ step: MigrationStep) -> (Int, String, Int) {
            let number =
                step.kind == .removeEntity
                ? removedOffset + (context.sourceNumbers[step.entity] ?? 0)
                : context.destinationNumbers[step.entity] ?? 0
            return (number, step.property ?? "", kinds.firstIndex(of: step.kind) ?? 0)
        }
        return steps.sorted { lhs, rhs in
            let (left, right) = (key(lhs), key(rhs))
            if left.0 != right.0 { return left.0 < right.0 }
            if left.1 != right.1 { return left.1.utf8.lexicographicallyPrecedes(right.1.utf8) }
            return left.2 < right.2
        }
    }

    // MARK: - Entities

    private mutating func findEntitySteps() {
        for entity in destination.entitiesInNumberingOrder {
            let tables = context.tables(ofEntity: entity.name)
            guard let formerName = context.formerEntity(of: entity.name),
                let former = source.entity(named: formerName)
            else {
                let table = context.destinationTable(of: entity.name) ?? "?"
                steps.append(
                    MigrationStep(
                        .addEntity, entity: entity.name, label: .inferred,
                        reason: "new entity; its objects go in table \(table)",
                        tables: tables + ["Z_PRIMARYKEY"]))
                continue
            }
            if formerName != entity.name {
                var step = MigrationStep(
                    .renameEntity, entity: entity.name, label: .inferred,
                    reason: "renamed from \(formerName) "
                        + Self.pairing(.init(former), .init(entity))
                        + "; its objects keep their keys",
                    tables: tables + ["Z_PRIMARYKEY"])
                step.formerEntity = formerName
                steps.append(step)
            }
            let (old, new) = (
                context.sourceNumbers[formerName] ?? 0, context.destinationNumbers[entity.name] ?? 0
            )
            if old != new {
                steps.append(
                    MigrationStep(
                        .renumberEntity, entity: entity.name, label: .inferred,
                        reason: "entity number \(old) becomes \(new), as Core Data numbers "
                            + "entities by name and inheritance; Z_ENT values are rewritten",
                        tables: tables + ["Z_PRIMARYKEY"]))
            }
            findParentStep(entity, former: former, tables: tables)
            if former.isAbstract != entity.isAbstract {
                steps.append(
                    entity.isAbstract
                        ? MigrationStep(
                            .changeAbstract, entity: entity.name, label: .needsMapping,
                            reason: "becomes abstract: its existing objects need a mapping "
                                + "to a subentity", tables: tables)
                        : MigrationStep(
                            .changeAbstract, entity: entity.name, label: .inferred,
                            reason: "becomes concrete; no object changes"))
            }
            if former.versionHashModifier != entity.versionHashModifier {
                steps.append(
                    MigrationStep(
                        .changeVersionHash, entity: entity.name, label: .inferred,
                        reason: "versionHashModifier \(Self.quote(former.versionHashModifier))"
                            + " becomes \(Self.quote(entity.versionHashModifier)); only the "
                            + "version hash changes"))
            }
        }
        let continued = Set(context.match.entities.values)
        for entity in source.entitiesInNumberingOrder where !continued.contains(entity.name) {
            // An abstract entity has no objects of its own: its rows are its
            // subentities', which stay with them where those continue.
            let heirs = source.entityTree(rootedAt: entity.name).dropFirst().compactMap {
                context.match.newerEntity(continuing: $0.name)
            }
            let reason =
                !entity.isAbstract
                ? "entity is gone; its objects are deleted"
                : heirs.isEmpty
                    ? "abstract entity is gone; it has no objects of its own"
                    : "abstract entity is gone; it has no objects of its own, and its "
                        + "subentities' objects stay with " + heirs.joined(separator: ", ")
            steps.append(
                MigrationStep(
                    .removeEntity, entity: entity.name,
                    label: entity.isAbstract ? .inferred : .lossy, reason: reason,
                    tables: [context.sourceTable(of: entity.name), "Z_PRIMARYKEY"]
                        .compactMap { $0 }))
        }
    }

    private mutating func findParentStep(_ entity: Entity, former: Entity, tables: [String]) {
        let newParent = entity.parent.flatMap { destination.entity(named: $0) }
        let continuedParent = newParent.flatMap { context.formerEntity(of: $0.name) }
        guard continuedParent != former.parent || (newParent != nil) != (former.parent != nil)
        else { return }
        let label: MigrationLabel
        let reason: String
        if let newParent {
            let oldRoot = source.rootEntity(of: former.name)?.name
            let parentRoot = continuedParent.flatMap { source.rootEntity(of: $0)?.name }
            let merged = continuedParent == nil ? mergedRoots(underRootOf: entity.name) : []
            if merged.count > 1 {
                // A new parent over entities of several old hierarchies.
                label = .needsMapping
                reason =
                    "gets the new parent \(newParent.name), which merges the hierarchies of "
                    + merged.joined(separator: " and ")
                    + ": Core Data cannot merge hierarchies (primary keys of their tables "
                    + "could collide)"
            } else if continuedParent == nil {
                label = .inferred
                reason =
                    "gets the new parent \(newParent.name); its objects move to the "
                    + "table of \(destination.rootEntity(of: entity.name)?.name ?? newParent.name)"
            } else if parentRoot == oldRoot {
                label = .inferred
                reason = "moves under \(newParent.name) in the same hierarchy"
            } else {
                label = .needsMapping
                reason =
                    "joins the hierarchy of \(newParent.name): Core Data cannot merge "
                    + "hierarchies (primary keys of two tables could collide)"
            }
        } else {
            label = .inferred
            reason =
                "leaves the hierarchy of \(former.parent ?? "?"); its objects move to "
                + "their own table \(context.destinationTable(of: entity.name) ?? "?")"
        }
        steps.append(
            MigrationStep(
                .changeParent, entity: entity.name, label: label, reason: reason,
                tables: tables + ["Z_PRIMARYKEY"]))
    }

    /// The roots of the older version whose rows the table of `entity`'s
    /// newer root takes, by name: more than one when a change of parent
    /// merges hierarchies.
    private func mergedRoots(underRootOf entity: String) -> [String] {
        guard let root = destination.rootEntity(of: entity) else { return [] }
        let roots = destination.entityTree(rootedAt: root.name).compactMap { member in
            context.formerEntity(of: member.name).flatMap { source.rootEntity(of: $0)?.name }
        }
        return Array(Set(roots)).sorted()
    }

    // MARK: - Did you mean renamedFrom?

    /// Marks an added element that has the shape of a removed one in the
    /// same place: an attribute of the same type, a relationship to the same
    /// destination, an entity with the same property names.
    ///
    /// A hint needs evidence besides the shape: the names are alike
    /// (``namesAreAlike(_:_:)``), or the pair is the only one of its shape
    /// in the entity (one removed, one added). It never names the same name
    /// on both sides, and each removed element is offered once, to the
    /// added element whose name is nearest.
    private mutating func suggestRenames() {
        var used: Set<Int> = []
        func name(_ step: MigrationStep) -> String { step.property ?? step.entity }
        func sameKind(_ removedKind: MigrationStepKind, _ step: MigrationStep) -> [Int] {
            steps.indices.filter { index in
                steps[index].kind == removedKind
                    && (step.kind == .addEntity || steps[index].entity == step.entity)
                    && name(steps[index]) != name(step)
                    && looksLikeRename(of: steps[index], as: step)
            }
        }
        for added in steps.indices {
            let step = steps[added]
            guard [.addEntity, .addAttribute, .addRelationship].contains(step.kind) else {
                continue
            }
            let removedKind: MigrationStepKind =
                switch step.kind {
                case .addEntity: .removeEntity
                case .addAttribute: .removeAttribute
                default: .removeRelationship
                }
            let lookalikes = sameKind(removedKind, step)
            // Other added elements the same removed ones could be.
            let rivals = steps.indices.filter { other in
                other != added && steps[other].kind == step.kind
                    && (step.kind == .addEntity || steps[other].entity == step.entity)
                    && lookalikes.contains { looksLikeRename(of: steps[$0], as: steps[other]) }
            }
            let onlyPair = lookalikes.count == 1 && rivals.isEmpty
            // Nearest name first; among equals, one as optional as the new one.
            let candidate = lookalikes.filter { index in
                !used.contains(index)
                    && (onlyPair || Self.namesAreAlike(name(steps[index]), name(step)))
            }.min { lhs, rhs in
                func rank(_ index: Int) -> (Int, Int) {
                    (
                        Self.editDistance(name(steps[index]), name(step)),
                        isOptional(steps[index], in: source) == isOptional(step, in: destination)
                            ? 0 : 1
                    )
                }
                return rank(lhs) < rank(rhs)
            }
            guard let removed = candidate else { continue }
            used.insert(removed)
            let oldName = name(steps[removed])
            let newName = name(step)
            steps[added].suggestedRenamedFrom = oldName
            steps[added].reason += "; did you mean renamedFrom: \"\(oldName)\"?"
            steps[removed].reason += "; did you mean \(newName) with renamedFrom: \"\(oldName)\"?"
        }
    }

    /// Whether two element names are alike enough to be one renamed: one
    /// holds the other (`url` → `urlString`), or they differ by at most a
    /// quarter of the shorter name's letters (`colour` → `color`), ignoring
    /// case.
    static func namesAreAlike(_ old: String, _ new: String) -> Bool {
        let (a, b) = (old.lowercased(), new.lowercased())
        if a == b { return true }
        if min(a.count, b.count) >= 3 && (a.contains(b) || b.contains(a)) { return true }
        return editDistance(a, b) <= max(1, min(a.count, b.count) / 4)
    }

    /// The Levenshtein distance between two names, ignoring case.
    static func editDistance(_ old: String, _ new: String) -> Int {
        let a = Array(old.lowercased())
        let b = Array(new.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = Swift.min(
                    previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    private func looksLikeRename(of removed: MigrationStep, as added: MigrationStep) -> Bool {
        switch added.kind {
        case .addEntity:
            func shape(_ model: Model, _ name: String) -> Set<String> {
                Set(model.allAttributes(of: name).map { "\($0.name):\($0.type.rawValue)" })
            }
            let old = shape(source, removed.entity)
            return !old.isEmpty && old == shape(destination, added.entity)
        case .addAttribute:
            guard let name = added.property, let oldName = removed.property,
                let new = destination.allAttributes(of: added.entity).first(where: {
                    $0.name == name
                }),
                let formerEntity = context.formerEntity(of: added.entity),
                let old = source.allAttributes(of: formerEntity).first(where: {
                    $0.name == oldName
                })
            else { return false }
            return new.type == old.type
        default:
            guard let name = added.property, let oldName = removed.property,
                let new = destination.allRelationships(of: added.entity).first(where: {
                    $0.name == name
                }),
                let formerEntity = context.formerEntity(of: added.entity),
                let old = source.allRelationships(of: formerEntity).first(where: {
                    $0.name == oldName
                })
            else { return false }
            return context.formerEntity(of: new.destination) == old.destination
                && new.isToMany == old.isToMany
        }
    }

    /// Whether the property a step names is optional in `model` (false for
    /// an entity step). Removed properties are looked up in the older entity.
    private func isOptional(_ step: MigrationStep, in model: Model) -> Bool {
        guard let name = step.property else { return false }
        let entity =
            model == source ? context.formerEntity(of: step.entity) ?? step.entity : step.entity
        return model.allAttributes(of: entity).first { $0.name == name }?.isOptional
            ?? model.allRelationships(of: entity).first { $0.name == name }?.isOptional ?? false
    }

    /// How a renamed element was paired with its older self, for the plan:
    /// `(renamedFrom)` or `(renaming identifier "mutedStatus")`; across
    /// several versions the newest element's own key tells which form the
    /// chain used.
    static func pairing(_ old: RenamingPairing.Element, _ new: RenamingPairing.Element) -> String {
        if new.renamedFrom == old.name { return "(renamedFrom)" }
        if new.identifier == old.identifier {
            return "(renaming identifier \"\(new.identifier)\")"
        }
        if new.renamedFrom != nil { return "(renamedFrom)" }
        return "(renaming identifier \"\(new.identifier)\", through the versions between)"
    }

    static func quote(_ text: String?) -> String {
        text.map { "\"\($0)\"" } ?? "(none)"
    }
}

extension StepFinder {
    /// Records a step about property `property` of `entity`, noting its
    /// former name when it was renamed.
    mutating func appendPropertyStep(
        _ kind: MigrationStepKind, _ label: MigrationLabel, _ reason: String, entity: String,
        property: String, formerName: String, tables: [String]
    ) {
        var step = MigrationStep(
            kind, entity: entity, property: property, label: label, reason: reason, tables: tables)
        if formerName != property { step.formerProperty = formerName }
        steps.append(step)
    }
}
