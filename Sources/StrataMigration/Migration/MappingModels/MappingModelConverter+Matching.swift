import Foundation
import StrataSchema
import StrataStore

// MARK: - Finding the versions a mapping model joins

extension MappingModelConverter {
    /// The source and destination versions of `model`, by Core Data's rule:
    /// the version hashes of the entities its live entity mappings name are
    /// a subset of the source version's, and likewise for the destination.
    ///
    /// - Throws: ``MappingModelError`` when no pair fits (naming each side's
    ///   nearest version and what differs) or several do.
    func match(_ model: XcodeMappingModel, from wantedFrom: Int?, to wantedTo: Int?)
        throws(MappingModelError) -> (Model, Model)
    {
        let file = model.file
        let sourceHashes = try hashes(of: model, source: true)
        let destinationHashes = try hashes(of: model, source: false)
        guard !sourceHashes.isEmpty, !destinationHashes.isEmpty else {
            throw MappingModelError(
                file: file,
                message: "no entity mapping has both a source and a destination entity, so no "
                    + "version pair can be told (Core Data would not use it either)")
        }
        let versionHashes = versions.map { Set($0.versionHashes.values.map { Data($0) }) }
        func fitting(_ wanted: [String: Data]) -> [Int] {
            versions.indices.filter { Set(wanted.values).isSubset(of: versionHashes[$0]) }
        }
        let sources = fitting(sourceHashes)
        let destinations = fitting(destinationHashes)
        var pairs: [(Int, Int)] = []
        for from in sources {
            for to in destinations where versions[from].version < versions[to].version {
                pairs.append((from, to))
            }
        }
        if wantedFrom != nil || wantedTo != nil {
            let all = pairs
            pairs = pairs.filter { from, to in
                (wantedFrom.map { versions[from].version == $0 } ?? true)
                    && (wantedTo.map { versions[to].version == $0 } ?? true)
            }
            if pairs.isEmpty {
                throw MappingModelError(
                    file: file,
                    message: "its entity version hashes do not fit versions "
                        + "\(wantedFrom.map(String.init) ?? "?")-\(wantedTo.map(String.init) ?? "?")"
                        + (all.isEmpty
                            ? ""
                            : "; they fit "
                                + all.map { "\(versions[$0.0].version)-\(versions[$0.1].version)" }
                                .joined(separator: ", ")))
            }
        }
        if pairs.count > 1 {
            // Versions that hash alike: the paths Xcode recorded decide.
            let hinted = pairs.filter { from, to in
                hint(model.sourceModelPath, matches: from)
                    && hint(model.destinationModelPath, matches: to)
            }
            if hinted.count == 1 { pairs = hinted }
        }
        if pairs.count == 1, let (from, to) = pairs.first {
            return (versions[from], versions[to])
        }
        if pairs.isEmpty {
            throw MappingModelError(
                file: file,
                message: "its entity version hashes match no version pair of the chain"
                    + (sources.isEmpty
                        ? "; source: "
                            + nearest(sourceHashes, versionHashes, snapshot: model.sourceModel)
                        : "; source fits version "
                            + sources.map { "\(versions[$0].version)" }.joined(separator: ", "))
                    + (destinations.isEmpty
                        ? "; destination: "
                            + nearest(
                                destinationHashes, versionHashes, snapshot: model.destinationModel)
                        : "; destination fits version "
                            + destinations.map { "\(versions[$0].version)" }.joined(separator: ", "))
                    + (sources.isEmpty || destinations.isEmpty
                        ? "" : "; but none of them comes before the other"))
        }
        throw MappingModelError(
            file: file,
            message: "its entity version hashes match several version pairs: "
                + pairs.map { "\(versions[$0.0].version)-\(versions[$0.1].version)" }
                .joined(separator: ", ")
                + " (the versions hash alike, and the model paths it records, "
                + "\(model.sourceModelPath ?? "none") and \(model.destinationModelPath ?? "none"), "
                + "name none of them alone); convert it with `strata schema from-xcmappingmodel` "
                + "and name the pair with --from and --to")
    }

    /// The version hash of each source (or destination) entity the live
    /// entity mappings name, by entity name: stored in a `.cdm`, computed
    /// from the snapshot of a `.xcmappingmodel`.
    private func hashes(of model: XcodeMappingModel, source: Bool) throws(MappingModelError)
        -> [String: Data]
    {
        var result: [String: Data] = [:]
        for mapping in model.entityMappings
        where mapping.sourceEntity != nil && mapping.destinationEntity != nil {
            guard let entity = source ? mapping.sourceEntity : mapping.destinationEntity else {
                continue
            }
            let stored =
                source ? mapping.sourceEntityVersionHash : mapping.destinationEntityVersionHash
            if let stored {
                result[entity] = stored
                continue
            }
            let snapshot = source ? model.sourceModel : model.destinationModel
            guard let snapshot else {
                throw MappingModelError(
                    file: model.file,
                    place: "entity mapping \(mapping.name) (\(mapping.location))",
                    message: "no \(source ? "source" : "destination") entity version hash and no "
                        + "model snapshot to compute it from")
            }
            guard let hash = snapshot.versionHash(ofEntity: entity) else {
                throw MappingModelError(
                    file: model.file,
                    place: "entity mapping \(mapping.name) (\(mapping.location))",
                    message: "the \(source ? "source" : "destination") model snapshot has no "
                        + "entity '\(entity)'; its entities: "
                        + snapshot.entities.map(\.name).joined(separator: ", "))
            }
            result[entity] = Data(hash)
        }
        return result
    }

    /// Whether a recorded model path names version `index`'s folder.
    private func hint(_ path: String?, matches index: Int) -> Bool {
        guard let path, versionFolders.indices.contains(index) else { return false }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last == versionFolders[index]
    }

    /// The version sharing the most of `wanted`'s hashes, and the entities
    /// whose hashes differ from it: `nearest version 3, differing in Mood`.
    private func nearest(
        _ wanted: [String: Data], _ versionHashes: [Set<Data>], snapshot: Model?
    ) -> String {
        guard
            let best = versions.indices.max(by: { left, right in
                wanted.values.filter(versionHashes[left].contains).count
                    < wanted.values.filter(versionHashes[right].contains).count
            })
        else { return "the chain is empty" }
        let differing = wanted.filter { !versionHashes[best].contains($0.value) }.keys.sorted()
        return "nearest version \(versions[best].version), differing in "
            + differing.joined(separator: ", ")
            + (snapshot == nil
                ? ""
                : " (the snapshot in the mapping model may be stale: "
                    + "Xcode's Editor > Refresh Data Models rewrites it)")
    }
}
