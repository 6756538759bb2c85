import StrataSchema

// MARK: - How the versions' elements were matched

extension MigrationPreflight {
    /// What a reader of the plan must know about how the stage's elements
    /// were matched:
    ///
    /// - a warning for each renaming identifier that names nothing of the
    ///   version before it (``RenamingPairing/strayIdentifiers(_:among:)``),
    ///   ignored, never a reason to drop data;
    /// - with ``MigrationOptions/asCoreData``, a note for each element whose
    ///   values the default mode keeps through a rename recorded only in a
    ///   version between, and Core Data's direct mapping drops; and one for
    ///   each element the direct matches keep that Core Data's rule alone
    ///   would not pair (Strata keeps more, never less).
    func matchingFindings(in stage: MigrationStage) -> [MigrationPreview.Finding] {
        var findings = strayIdentifierWarnings(in: stage)
        guard options.asCoreData, stage.to > stage.from else { return findings }
        let direct = stage.plan.correspondence
        for (name, why) in direct.beyondCoreData.sorted(by: { $0.key < $1.key }) {
            findings.append(
                MigrationPreview.Finding(
                    severity: .note, stage: stage.name, step: name,
                    message: "\(name) keeps its values although Core Data's inferred mapping "
                        + "from version \(stage.from) to \(stage.to) would not pair it: \(why)"))
        }
        guard let chained = correspondences.through(from: stage.from, to: stage.to) else {
            return findings
        }
        for (entity, former) in chained.entities.sorted(by: { $0.key < $1.key }) {
            guard direct.entities[entity] == former else {
                findings.append(
                    lostByCoreData(entity, former, stage, entity: true))
                continue
            }
            let kept = (chained.attributes[entity] ?? [:]).merging(
                chained.relationships[entity] ?? [:]
            ) { first, _ in first }
            let directly = (direct.attributes[entity] ?? [:]).merging(
                direct.relationships[entity] ?? [:]
            ) { first, _ in first }
            for (property, old) in kept.sorted(by: { $0.key < $1.key })
            where directly[property] != old {
                findings.append(
                    lostByCoreData(
                        "\(entity).\(property)", "\(former).\(old)", stage, entity: false))
            }
        }
        return findings
    }

    private func lostByCoreData(
        _ name: String, _ former: String, _ stage: MigrationStage, entity: Bool
    ) -> MigrationPreview.Finding {
        MigrationPreview.Finding(
            severity: .note, stage: stage.name, step: name,
            message: "\(name) continues \(former) of version \(stage.from) only through a "
                + "rename recorded in a version between; Core Data's inferred mapping from "
                + "version \(stage.from) to \(stage.to) pairs them directly and does not, so "
                + (entity ? "its objects are" : "its values are")
                + " dropped here as Core Data drops them (without --as-core-data they are kept)")
    }

    /// A warning for each element of a version of the stage whose renaming
    /// identifier names nothing of the version before it.
    private func strayIdentifierWarnings(in stage: MigrationStage) -> [MigrationPreview.Finding] {
        let models = chain.versions.filter { $0.version >= stage.from && $0.version <= stage.to }
        var findings: [MigrationPreview.Finding] = []
        for (older, newer) in zip(models, models.dropFirst()) {
            for stray in SchemaChain.strayIdentifiers(from: older, to: newer) {
                findings.append(
                    MigrationPreview.Finding(
                        severity: .warning, stage: stage.name, step: stray.element,
                        message: stray.message))
            }
        }
        return findings
    }
}
