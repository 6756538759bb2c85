// MARK: - Discards that acknowledge nothing

extension MigrationPreflight {
    /// A warning for each `discard` entry of the stage's mapping file that
    /// acknowledges no loss of the stage: no lossy or needs-mapping step of
    /// its plan is covered by it, and no expression of the file reads what
    /// it names. Such an entry is most likely a wrong name (`Country.x`
    /// written for `Continent.x`), and the loss it was meant for is still
    /// reported on its own.
    func needlessDiscards(in stage: MigrationStage) -> [MigrationPreview.Finding] {
        guard let file = stage.mapping as? MigrationMapping else { return [] }
        let open = stage.plan.steps.filter { $0.label != .inferred }
        return file.discarded.compactMap { entry in
            let alone = MigrationMapping(
                file: file.file, source: file.source, destination: file.destination,
                entities: [], discarded: [entry], reads: [])
            if open.contains(where: alone.covers) { return nil }
            let named = MigrationMapping.resolveDiscard(
                entry, source: file.source, destination: file.destination,
                correspondence: file.correspondence)
            if let (entity, property) = named {
                let read = file.reads.contains {
                    property == nil
                        ? $0.first == entity
                        : $0.last == property
                            && (file.source.rootEntity(of: $0.first ?? "")?.name
                                == file.source.rootEntity(of: entity)?.name)
                }
                if read || file.entities.contains(where: { $0.source == entity }) { return nil }
            }
            return MigrationPreview.Finding(
                severity: .warning, stage: stage.name, step: entry,
                message: "\"discard\" names \(entry) in \(file.file), but stage \(stage.name) "
                    + "loses nothing there; remove the entry or check its name (a property "
                    + "of one subentity does not cover the same name on another)")
        }
    }
}
