import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// The data-aware half of a dry run: counts the rows each step touches in
/// the store as it is, decides how each step is resolved, and finds what
/// would stop the migration ("317 rows of Note.title are nil; version 4
/// requires it and gives no default").
///
/// Steps of later stages are traced back to the store's current version
/// through `renamedFrom`, so their counts come from today's tables; a step
/// on an entity that only exists later has no count.
///
/// Rows are counted only when something needs the number, one scan per
/// table: a run whose steps all resolve without data (adding a nullable
/// attribute, say) reads no table at all.
final class MigrationPreflight {
    let store: Store
    let chain: SchemaChain
    let current: Model
    let options: MigrationOptions
    let mapping: StoreMapping
    /// The chain's adjacent matches, shared with the route.
    let correspondences: ChainCorrespondences
    /// Per stage (by name): its one-version plans and spans, made once when
    /// a finding first names a mapping file.
    private var stagePairs: [String: StagePairs] = [:]
    /// Objects per entity of `current` counted so far, subentities included.
    private var counted: [String: Int64] = [:]
    /// The reader of the store's rows.
    var reader: RowReader { RowReader(store, tables: mapping) }

    init(
        store: Store, chain: SchemaChain, current: Model, options: MigrationOptions,
        correspondences: ChainCorrespondences? = nil
    ) throws {
        self.store = store
        self.chain = chain
        self.current = current
        self.options = options
        self.mapping = try StoreMapping(model: current, store: store)
        self.correspondences = correspondences ?? ChainCorrespondences(chain)
    }

    /// Objects of every entity of `current`, subentities included.
    func rowCounts() throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for entity in current.entities where mapping.entities[entity.name] != nil {
            counts[entity.name] = try rows(entity.name)
        }
        return counts
    }

    /// Objects of `entity` and its subentities; the first question about a
    /// table counts all its entities in one scan.
    func rows(_ entity: String) throws -> Int64 {
        if let known = counted[entity] { return known }
        guard let place = mapping.entities[entity] else { return 0 }
        let sharing = mapping.entities.values.filter { $0.table == place.table }
        var perNumber: [Int: Int64] = [:]
        var query = RowQuery(entity, [.entity, .count])
        query.entities = .table
        query.inKeyOrder = false
        if sharing.count == 1 {
            // One entity in the table: no Z_ENT filter, so SQLite may count
            // the smallest index instead of the table.
            perNumber[place.number] = try reader.count(query)
        } else {
            query.groupBy = [.entity]
            try reader.forEachRow(query) { row in
                perNumber[Int(row.int64(at: 0))] = row.int64(at: 1)
            }
        }
        for other in sharing {
            counted[other.name] = other.treeNumbers.reduce(0) { $0 + (perNumber[$1] ?? 0) }
        }
        return counted[entity] ?? 0
    }

    /// The stages with their steps' resolutions and the findings.
    ///
    /// - Parameter counting: Whether to count the rows of every step (a dry
    ///   run shows them) and find what only informs; a run only needs what
    ///   could stop it.
    func examine(_ stages: [MigrationStage], counting: Bool) throws -> (
        [MigrationPreview.StagePreview], [MigrationPreview.Finding]
    ) {
        var previews: [MigrationPreview.StagePreview] = []
        var findings: [MigrationPreview.Finding] = []
        for stage in stages {
            let back = backwards(to: stage.from)
            var steps: [MigrationPreview.StepPreview] = []
            for step in stage.plan.steps {
                let place = locate(step, back)
                let resolution = resolution(of: step, in: stage)
                let rows = try counting ? place.map { try self.rows($0.name) } : nil
                steps.append(.init(step: step, rows: rows, resolution: resolution))
                if let finding = try finding(for: step, resolution, place, stage, counting) {
                    findings.append(finding)
                }
            }
            findings += try unreadableValues(in: stage)
            findings += needlessDiscards(in: stage)
            findings += matchingFindings(in: stage)
            previews.append(.init(stage: stage, steps: steps))
        }
        return (previews, findings)
    }

    // MARK: - Resolution

    private func resolution(
        of step: MigrationStep, in stage: MigrationStage
    ) -> MigrationPreview.Resolution {
        if step.label == .inferred { return .inferred }
        if stage.mapping?.resolves(step) == true { return .mapping }
        if stage.customStep?.resolves(step) == true { return .customStep }
        if step.label == .lossy && options.acceptsLossySteps { return .acceptedLoss }
        // Core Data does not migrate duplicates into a unique constraint.
        if options.asCoreData && step.kind != .addUniquenessConstraint { return .asCoreData }
        return .unresolved
    }

    // MARK: - Locating a step in today's tables

    /// A step's entity and property as the current version names them.
    private struct Place {
        /// The entity's name at the current version.
        var name: String
        var entity: StoreMapping.EntityMapping
        var property: String?
    }

    /// Names at `version` → names at the current version.
    private struct Backwards {
        var entities: [String: String]
        var properties: [String: [String: String]]
    }

    private func backwards(to version: Int) -> Backwards {
        let match: SchemaCorrespondence
        if version > current.version, let through = stageMatch(from: current.version, to: version) {
            match = through
        } else {
            match = .identity(of: current)
        }
        var properties: [String: [String: String]] = [:]
        for (entity, names) in match.attributes {
            properties[entity, default: [:]].merge(names) { a, _ in a }
        }
        for (entity, names) in match.relationships {
            properties[entity, default: [:]].merge(names) { a, _ in a }
        }
        return Backwards(entities: match.entities, properties: properties)
    }

    private func locate(_ step: MigrationStep, _ back: Backwards) -> Place? {
        let atStageStart = step.formerEntity ?? step.entity
        guard let name = back.entities[atStageStart], let entity = mapping.entities[name] else {
            return nil
        }
        var property: String?
        if let stepProperty = step.formerProperty ?? step.property {
            property = back.properties[atStageStart]?[stepProperty]
        }
        return Place(name: name, entity: entity, property: property)
    }

    // MARK: - Findings

    private func finding(
        for step: MigrationStep, _ resolution: MigrationPreview.Resolution, _ place: Place?,
        _ stage: MigrationStage, _ counting: Bool
    ) throws -> MigrationPreview.Finding? {
        func found(_ severity: MigrationPreview.Finding.Severity, _ message: String)
            -> MigrationPreview.Finding
        {
            .init(severity: severity, stage: stage.name, step: step.names, message: message)
        }
        let target = "version \(stage.to)"
        // What to do, for a blocking finding only: finding the mapping file
        // of a fused stage looks at its version pairs.
        func how() -> String {
            let (file, entry) = mappingFile(for: step, in: stage)
            return step.label == .lossy
                ? "acknowledge it with \"discard\": [\"\(entry)\"] in \(file) or pass --accept-lossy"
                : "supply it in \(file)"
        }

        if step.kind == .addUniquenessConstraint, let place {
            let names = (step.property ?? "").split(separator: ",").map(String.init)
            guard !names.isEmpty, names.allSatisfy({ place.entity.attributeColumns[$0] != nil })
            else { return nil }
            var query = RowQuery(place.name, [.count])
            // A unique index lets NULLs repeat, as SQLite and Core Data do.
            query.filters = names.map { .isNotNull(.attribute($0)) }
            query.groupBy = names.map { .attribute($0) }
            query.minimumGroupSize = 2
            query.inKeyOrder = false
            let groups = try reader.count(query)
            guard groups > 0 else { return nil }
            return found(
                .blocking,
                "\(groups) groups of \(step.entity) objects share the same "
                    + "(\(names.joined(separator: ", "))); \(target) makes them unique")
        }
        // Accepted losses and defaults filling nils only make notes, which a
        // run does not show: it does not count for them.
        guard
            resolution == .unresolved || resolution == .asCoreData
                || (counting
                    && (resolution == .acceptedLoss
                        || (step.kind == .makeRequired && step.label == .inferred)))
        else { return nil }
        let coreDataTail =
            step.label == .lossy
            ? " (accepted: --as-core-data; Core Data drops them too)"
            : " (accepted: --as-core-data; left empty, as Core Data leaves them)"
        guard let place else {
            switch resolution {
            case .unresolved: return found(.blocking, "\(step.names): \(step.reason); \(how())")
            case .asCoreData:
                var note = found(.note, "\(step.names): \(step.reason)" + coreDataTail)
                note.isAccepted = true
                return note
            default: return nil
            }
        }
        let column = place.property.flatMap { place.entity.attributeColumns[$0] }
        // A property the store does not hold yet (an earlier stage of this
        // run adds it) holds only what the run itself put there: removing it
        // loses nothing of the store's.
        if step.kind == .removeAttribute || step.kind == .removeRelationship,
            place.property == nil
        {
            return nil
        }
        // An inferred relationship step (a to-many becoming required without
        // a minimum) touches no value: nothing to count.
        if step.label == .inferred, column == nil { return nil }
        let affected: Int64
        let sentence: String
        switch step.kind {
        case .makeRequired where column != nil:
            affected = try nils(place)
            let tail =
                step.label == .inferred
                ? "they get the default" : "\(target) requires it and gives no default"
            sentence = "\(affected) rows of \(step.entity).\(step.property ?? "") are nil; \(tail)"
            if step.label == .inferred {
                return affected > 0 ? found(.note, sentence) : nil
            }
        case .addRelationship
        where stage.plan.destination.allRelationships(of: step.entity)
            .first(where: { $0.name == step.property })?.isToMany == true:
            // Every existing object starts with no links at all.
            let minimum =
                stage.plan.destination.allRelationships(of: step.entity)
                .first { $0.name == step.property }?.minCount ?? 0
            affected = try rows(place.name)
            sentence =
                "\(affected) rows of \(step.entity) would have no \(step.property ?? "?"), "
                + "fewer than its minCount \(minimum); an added to-many starts empty"
        case .makeRequired
        where
            (stage.plan.destination.allRelationships(of: step.entity)
            .first(where: { $0.name == step.property })?.minCount ?? 0) > 0
            && place.property.flatMap { place.entity.toMany[$0] } != nil:
            let minimum =
                stage.plan.destination.allRelationships(of: step.entity)
                .first { $0.name == step.property }?.minCount ?? 0
            affected = try fewerLinks(than: minimum, place)
            sentence =
                "\(affected) rows of \(step.entity) have fewer \(step.property ?? "?") than its "
                + "minCount \(minimum) in \(target)"
        case .addAttribute, .addRelationship, .makeRequired:
            affected = try rows(place.name)
            sentence =
                "\(affected) rows of \(step.entity) need a value for \(step.property ?? "?"); "
                + "\(target) requires it and gives no default"
        case .removeAttribute where column != nil, .changeType where column != nil,
            .widenType where column != nil:
            affected = try rows(place.name) - (try nils(place))
            sentence =
                step.kind == .removeAttribute
                ? "\(affected) values of \(step.names) would be dropped"
                : "\(affected) values of \(step.names) need converting: \(step.reason)"
                    + (try misfits(of: step, place, in: stage).map {
                        "; \($0) of them would not fit"
                    } ?? "")
        case .removeRelationship where place.property != nil:
            // Only objects that hold a link lose one.
            affected = try linkedOwners(place.property ?? "", place)
            sentence =
                "\(affected) objects of \(step.entity) would lose their \(step.property ?? "?")"
        case .removeEntity:
            // Only the entity's own objects: its subentities have steps of
            // their own, and those that continue keep their objects.
            var query = RowQuery(place.name, [.count])
            query.entities = .exactly
            affected = try reader.count(query)
            sentence = "\(affected) objects of \(step.entity) would be dropped"
        case .toManyToToOne:
            affected = try ownersOfSeveral(step, place)
            sentence =
                "\(affected) \(step.entity) objects have more than one \(step.property ?? "?"); "
                + "only one can stay"
        default:
            affected = try rows(place.name)
            sentence = "\(step.names): \(step.reason) (\(affected) rows of \(step.entity))"
        }
        if resolution == .acceptedLoss || resolution == .asCoreData {
            guard affected > 0 else { return nil }
            var note = found(
                .note,
                sentence
                    + (resolution == .acceptedLoss ? " (accepted: --accept-lossy)" : coreDataTail))
            note.isAccepted = true
            return note
        }
        // An unresolved step that touches no data stops nothing.
        guard affected > 0 else { return nil }
        return found(.blocking, sentence + "; " + how())
    }

    /// The mapping file that can resolve `step`, and the `discard` entry
    /// that acknowledges its loss there. Mapping files join two adjacent
    /// versions, so for a fused stage it is the pair where the step
    /// happens: the first pair with a step of the same kind on the same
    /// entity and property (names followed through the versions between);
    /// else the stage's first pair. The entry names the entity and property
    /// as the pair's older version does.
    private func mappingFile(
        for step: MigrationStep, in stage: MigrationStage
    ) -> (file: String, entry: String) {
        let pairs = self.pairs(of: stage)
        for (index, (older, newer)) in zip(pairs.versions, pairs.versions.dropFirst()).enumerated()
        {
            guard let plan = pairs.plans[index] else { continue }
            // A removed entity is named as the older end knows it; anything
            // else as the newer end does.
            let entity: String? =
                step.kind == .removeEntity
                ? pairs.leading[index].newerEntity(continuing: step.entity)
                : pairs.trailing[index + 1].entities[step.entity]
            guard let entity,
                let found = plan.steps.first(where: {
                    $0.kind == step.kind && $0.entity == entity && Self.sameProperty($0, step)
                })
            else { continue }
            return (
                MigrationMapping.fileName(from: older, to: newer), Self.discardEntry(found, plan)
            )
        }
        let versions = pairs.versions
        return (
            MigrationMapping.fileName(
                from: versions.first ?? stage.from, to: versions.dropFirst().first ?? stage.to),
            Self.discardEntry(step, stage.plan)
        )
    }

    /// A stage's versions, the plan of each adjacent pair and the matches
    /// from the stage's start to each version (`leading`) and from each to
    /// its end (`trailing`).
    struct StagePairs {
        var versions: [Int]
        var plans: [MigrationPlan?]
        var leading: [SchemaCorrespondence]
        var trailing: [SchemaCorrespondence]
    }

    private func pairs(of stage: MigrationStage) -> StagePairs {
        if let known = stagePairs[stage.name] { return known }
        let versions = chain.versions.map(\.version).filter { $0 >= stage.from && $0 <= stage.to }
        let plans = zip(versions, versions.dropFirst()).map { older, newer -> MigrationPlan? in
            guard let source = chain.model(version: older),
                let destination = chain.model(version: newer),
                let match = correspondences.step(from: older)
            else { return nil }
            return MigrationPlan(source: source, destination: destination, correspondence: match)
        }
        let (leading, trailing) = correspondences.spans(from: stage.from, to: stage.to)
        let pairs = StagePairs(
            versions: versions, plans: plans, leading: leading, trailing: trailing)
        stagePairs[stage.name] = pairs
        return pairs
    }

    /// The matches from version `from` to `to` as the plans make them.
    func stageMatch(from: Int, to: Int) -> SchemaCorrespondence? {
        correspondences.matches(from: from, to: to, options.asCoreData ? .coreData : .chain)
    }

    /// Whether `found` (a step of a one-version plan) is about the same
    /// property as `step` (of a fused stage's plan): the property's name at
    /// the stage's end, or for a removed one at the pair's start.
    private static func sameProperty(_ found: MigrationStep, _ step: MigrationStep) -> Bool {
        guard let property = step.property else { return found.property == nil }
        return found.property == property || found.formerProperty == property
            || found.property == step.formerProperty
    }

    /// `Entity` or `Entity.property` as the `discard` list of `plan`'s
    /// mapping file names the loss of `step`: the entity and property as
    /// the plan's source version knows them.
    package static func discardEntry(_ step: MigrationStep, _ plan: MigrationPlan) -> String {
        if step.kind == .removeEntity { return step.entity }
        let entity = step.formerEntity ?? plan.correspondence.entities[step.entity] ?? step.entity
        guard let property = step.property else { return entity }
        let removed = step.kind == .removeAttribute || step.kind == .removeRelationship
        let former =
            removed
            ? property
            : step.formerProperty ?? plan.correspondence.attributes[step.entity]?[property]
                ?? plan.correspondence.relationships[step.entity]?[property] ?? property
        return "\(entity).\(former)"
    }

    /// Objects at `place` whose attribute (`place.property`) is nil.
    private func nils(_ place: Place) throws -> Int64 {
        var query = RowQuery(place.name, [.count])
        query.filters = [.isNull(.attribute(place.property ?? ""))]
        return try reader.count(query)
    }

    /// For a type change that is not a widening: how many stored values of
    /// the step's attribute (`place.property`) the new type cannot hold
    /// (``ValueFit``), read row by row; nil for other steps.
    private func misfits(
        of step: MigrationStep, _ place: Place, in stage: MigrationStage
    ) throws -> Int64? {
        guard step.kind == .changeType,
            let type = stage.plan.destination.allAttributes(of: step.entity)
                .first(where: { $0.name == step.property })?.type
        else { return nil }
        let attribute = place.property ?? ""
        var query = RowQuery(place.name, [.attribute(attribute)])
        query.filters = [.isNotNull(.attribute(attribute))]
        query.inKeyOrder = false
        var count: Int64 = 0
        try reader.forEachRow(query) { row in
            if !ValueFit.fits(row.value(at: 0), type) { count += 1 }
        }
        return count
    }

    /// Objects at `place` with fewer than `minimum` members in its to-many.
    private func fewerLinks(than minimum: Int, _ place: Place) throws -> Int64 {
        guard let name = place.property, place.entity.toMany[name] != nil else { return 0 }
        var query = RowQuery(place.name, [.count])
        query.filters = [.fewerDestinations(name, than: minimum)]
        return try reader.count(query)
    }

    /// Objects at `place` that hold at least one link in `relationship`.
    private func linkedOwners(_ relationship: String, _ place: Place) throws -> Int64 {
        var query = RowQuery(place.name, [.count])
        if place.entity.toOne[relationship] != nil {
            query.filters = [.isNotNull(.toOne(relationship))]
        } else if place.entity.toMany[relationship] != nil {
            query.filters = [.hasDestinations(relationship)]
        } else {
            return try rows(place.name)
        }
        return try reader.count(query)
    }

    /// Owners at `place` (counted by the key their links hold) with more
    /// than one member in its to-many.
    private func ownersOfSeveral(_ step: MigrationStep, _ place: Place) throws -> Int64 {
        guard let name = place.property, place.entity.toMany[name] != nil else {
            return try rows(place.name)
        }
        return try reader.owners(of: name, from: place.name, holdingMoreThan: 1)
    }
}
