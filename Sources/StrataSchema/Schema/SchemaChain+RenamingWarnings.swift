// MARK: - Renaming identifiers worth a warning

extension SchemaChain {
    /// An element of a version whose renaming identifier names nothing of
    /// the version before it.
    package struct StrayIdentifier: Hashable, Sendable {
        /// `Entity` or `Entity.property`, as the newer version names it.
        package var element: String
        /// The JSON path of the identifier in the newer version's file.
        var path: String
        /// What is wrong and what happens, naming both versions.
        package var message: String
    }

    /// The elements of `newer` whose renaming identifier names nothing of
    /// `older` (``RenamingPairing/strayIdentifiers(_:among:)``): the
    /// pairing ignores the identifier and pairs the element by its name,
    /// so no value is lost to it.
    package static func strayIdentifiers(from older: Model, to newer: Model) -> [StrayIdentifier] {
        var found: [StrayIdentifier] = []
        let olderProperties = Set(
            older.entities.flatMap { entity in
                entity.attributes.map(\.name) + entity.relationships.map(\.name)
            })
        for stray in RenamingPairing.strayIdentifiers(
            newer.entities.map(RenamingPairing.Element.init),
            among: older.entities.map(RenamingPairing.Element.init))
        {
            let identifier = stray.identifier
            let otherKind =
                olderProperties.contains(identifier)
                ? " (it is the name of a property there: an entity's identifier names an entity)"
                : ""
            found.append(
                StrayIdentifier(
                    element: stray.name,
                    path: SchemaIssue.path(keys: ["entities", stray.name, "renamingIdentifier"]),
                    message: "entity \(stray.name) of version \(newer.version) has the renaming "
                        + "identifier '\(identifier)', which names nothing of version "
                        + "\(older.version)\(otherKind); it is ignored, and the entity is paired "
                        + "by its name"))
        }
        // Only each entity's own properties: inherited ones are reported
        // where they are declared.
        let entityPairs = RenamingPairing.pair(
            newer.entities.map(RenamingPairing.Element.init),
            with: older.entities.map(RenamingPairing.Element.init))
        for entity in newer.entities {
            let former = entityPairs[entity.name]?.older
            let olderEntity = former.flatMap { older.entity(named: $0) }
            let olderAttributes =
                former.map { older.allAttributes(of: $0).map(RenamingPairing.Element.init) } ?? []
            let olderRelationships =
                former.map { older.allRelationships(of: $0).map(RenamingPairing.Element.init) }
                ?? []
            let kinds: [(String, [RenamingPairing.Element], [RenamingPairing.Element])] = [
                (
                    "attributes", entity.attributes.map(RenamingPairing.Element.init),
                    olderAttributes
                ),
                (
                    "relationships", entity.relationships.map(RenamingPairing.Element.init),
                    olderRelationships
                ),
            ]
            for (kind, newerElements, olderElements) in kinds {
                for stray in RenamingPairing.strayIdentifiers(newerElements, among: olderElements) {
                    let identifier = stray.identifier
                    let otherKind =
                        older.entity(named: identifier) != nil
                        ? " (it is the name of an entity there: a property's identifier names a "
                            + "property)" : ""
                    let place =
                        olderEntity.map { "\($0.name) of version \(older.version)" }
                        ?? "version \(older.version)"
                    found.append(
                        StrayIdentifier(
                            element: "\(entity.name).\(stray.name)",
                            path: SchemaIssue.path(keys: [
                                "entities", entity.name, kind, stray.name, "renamingIdentifier",
                            ]),
                            message: "\(entity.name).\(stray.name) of version \(newer.version) "
                                + "has the renaming identifier '\(identifier)', which names "
                                + "nothing of \(place)\(otherKind); it is ignored, and the "
                                + "property is paired by its name"))
                }
            }
        }
        return found
    }

    /// The warnings of the chain's renaming identifiers and versions, each
    /// located in the version's file (`file(version)`): an identifier that
    /// names nothing of the version before; two elements of a version
    /// claiming one older element (only one continues it, the other starts
    /// empty); entities renaming in a cycle; versions that hash alike (a
    /// store of either is taken to be at the newer).
    ///
    /// None stops a migration; `strata schema check` prints them.
    public func renamingWarnings(file: (Int) -> String) -> [SchemaIssue] {
        var warnings: [SchemaIssue] = []
        for (older, newer) in zip(versions, versions.dropFirst()) {
            let place = file(newer.version)
            for stray in Self.strayIdentifiers(from: older, to: newer) {
                warnings.append(SchemaIssue(file: place, path: stray.path, message: stray.message))
            }
            warnings += Self.contested(from: older, to: newer, file: place)
        }
        var alike: [[String: [UInt8]]: Int] = [:]
        for model in versions {
            let hashes = model.versionHashes
            if let earlier = alike[hashes] {
                warnings.append(
                    SchemaIssue(
                        file: file(model.version), path: JSONPath.root,
                        message: "version \(model.version) has the same version hashes as version "
                            + "\(earlier): a store of either is taken to be at the newer; change a "
                            + "versionHashModifier to tell them apart"))
            }
            alike[hashes] = model.version
        }
        return warnings
    }

    /// Entities of `newer` that claim one older entity (by `renamedFrom`,
    /// renaming identifier or name), or rename in a cycle (two swapping
    /// names, or more).
    private static func contested(
        from older: Model, to newer: Model, file: String
    ) -> [SchemaIssue] {
        let olderNames = Set(older.entities.map(\.name))
        var claimants: [String: [String]] = [:]
        for entity in newer.entities {
            let element = RenamingPairing.Element(entity)
            let claimed = [element.renamedFrom, element.identifier].compactMap { $0 }
                .filter(olderNames.contains)
            for name in Set(claimed) { claimants[name, default: []].append(entity.name) }
        }
        var warnings: [SchemaIssue] = []
        let pairs = RenamingPairing.pair(
            newer.entities.map(RenamingPairing.Element.init),
            with: older.entities.map(RenamingPairing.Element.init))
        for (name, entities) in claimants.sorted(by: { $0.key < $1.key }) where entities.count > 1 {
            let winner = pairs.first { $0.value.older == name }?.key
            let losers = entities.sorted().filter { $0 != winner }
            warnings.append(
                SchemaIssue(
                    file: file, path: SchemaIssue.path(keys: ["entities", losers[0]]),
                    message: "entities \(entities.sorted().joined(separator: " and ")) of version "
                        + "\(newer.version) both claim \(name) of version \(older.version); "
                        + (winner.map { "\($0) continues it, " } ?? "")
                        + "\(losers.joined(separator: " and ")) start\(losers.count == 1 ? "s" : "") "
                        + "empty — give each its own renaming identifier"))
        }
        // A cycle of renames (A takes B's name, B takes A's; or longer):
        // each entity of it continues the objects of another name.
        var seen: Set<String> = []
        for start in pairs.keys.sorted() where !seen.contains(start) {
            var cycle: [String] = []
            var name = start
            while let former = pairs[name]?.older, former != name, !seen.contains(name),
                !cycle.contains(name)
            {
                cycle.append(name)
                name = former
            }
            seen.formUnion(cycle)
            guard name == start, cycle.count > 1 else { continue }
            let listed = cycle.sorted().map { "\($0) (was \(pairs[$0]?.older ?? "?"))" }
            warnings.append(
                SchemaIssue(
                    file: file, path: SchemaIssue.path(keys: ["entities", cycle.max() ?? start]),
                    message: cycle.count == 2
                        ? "entities \(cycle.sorted().joined(separator: " and ")) swap names between "
                            + "version \(older.version) and \(newer.version); each continues the "
                            + "other's objects — check this is meant"
                        : "entities \(listed.joined(separator: ", ")) rename in a cycle between "
                            + "version \(older.version) and \(newer.version); each continues "
                            + "another's objects — check this is meant"))
        }
        return warnings
    }
}
