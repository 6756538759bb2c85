import StrataSchema
import StrataStore

// MARK: - Links to objects other rules create

extension MappingApplier {
    /// A `"from"` link whose targets are objects a rule creates: it runs
    /// after every rule, through ``createdKeys``.
    struct DeferredLink {
        var linker: RelationshipLinker
        var reader: SourceLinkReader
        /// The rules whose created objects the link may reach, in turn.
        var creators: [String]
    }

    /// The creating rules whose objects the link `relationship` of `rule`
    /// reaches; empty when the relationship's destination continues the
    /// path's entity (the targets keep their keys).
    func linkCreators(_ rule: MappedEntity, relationship: String, pathEnd: String) -> [String] {
        guard
            let target = mapping.destination.allRelationships(of: rule.name)
                .first(where: { $0.name == relationship })?.destination
        else { return [] }
        let source = mapping.source
        if MappingLinkTargets.continues(
            target, reachedAt: pathEnd, correspondence: mapping.correspondence, source: source)
        {
            return []
        }
        return MappingLinkTargets.creators(
            of: target, reachedAt: pathEnd, creators: creatingRules, source: source,
            destination: mapping.destination)
    }

    /// The source entity of each rule that creates objects, by destination
    /// entity.
    var creatingRules: [String: String] {
        Dictionary(
            mapping.entities.filter(\.createsObjects).map { ($0.name, $0.source) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The creating rules whose objects a link reaches, or that own a link
    /// of their own to created objects (its second pass finds each owner
    /// through the map): the maps to keep while the rules run.
    func recordedCreatorRules() -> Set<String> {
        var recorded: Set<String> = []
        for rule in mapping.entities {
            for case (let name, .remap(let keyPath, _)) in rule.relationships {
                guard
                    let link = try? LinkPath.resolve(
                        keyPath, from: rule.source, in: mapping.source)
                else { continue }
                let creators = linkCreators(rule, relationship: name, pathEnd: link.end)
                guard !creators.isEmpty else { continue }
                recorded.formUnion(creators)
                if rule.createsObjects { recorded.insert(rule.name) }
            }
        }
        return recorded
    }

    /// The second pass of `rule`: reads its source objects again and links
    /// each one's destination object to the objects created from what its
    /// paths reach. A source object that created nothing (filtered out by
    /// a `where`) links nothing.
    func applyDeferred(_ links: [DeferredLink], of rule: MappedEntity) throws {
        let query = try sourceQuery(rule, paths: [:])
        let statement = query.statement
        while try statement.step() {
            let key = statement.int64(at: 0)
            if query.hasCondition, statement.int64(at: 1) == 0 { continue }
            let owner: Int64
            if rule.createsObjects {
                guard let created = createdKeys[rule.name]?[key] else { continue }
                owner = created
            } else {
                owner = key
            }
            for link in links {
                if !rule.createsObjects { try link.linker.removeAll(owner: owner) }
                var targets: [Int64] = []
                for reached in try link.reader.targets(of: key) {
                    for creator in link.creators {
                        if let created = createdKeys[creator]?[reached] {
                            targets.append(created)
                            break
                        }
                    }
                }
                for (position, target) in targets.enumerated()
                where link.linker.isToMany || position == 0 {
                    try link.linker.add(
                        owner: owner, target: target, position: position, storedOrder: nil)
                }
            }
        }
        statement.reset()
    }
}
