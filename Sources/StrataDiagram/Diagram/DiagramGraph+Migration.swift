import StrataSchema

// MARK: - A migration

extension DiagramGraph {
    /// The later model of a migration, coloured: what the move from `older`
    /// to `newer` adds (green), renames (amber) and removes (red, drawn
    /// where it was: a removed property in the box of the entity that
    /// continues its entity, a removed entity as a box of its own).
    ///
    /// - Parameter correspondence: Which element of `older` each element of
    ///   `newer` continues, through every version between them.
    init(from older: Model, to newer: Model, correspondence: SchemaCorrespondence) {
        self.init(model: newer)
        title = "\(newer.name) version \(older.version) to \(newer.version)"
        hasLegend = true
        // Older entity name → the box that shows it.
        var box: [String: Int] = [:]
        for (index, entity) in newer.entities.enumerated() {
            guard let former = correspondence.entities[entity.name] else {
                nodes[index].change = .added
                continue
            }
            if box[former] == nil { box[former] = index }
            if former != entity.name { nodes[index].change = .renamed(from: former) }
            mark(
                &nodes[index].attributes, of: entity.attributes.map { ($0.name, $0.isTransient) },
                matches: correspondence.attributes[entity.name] ?? [:],
                olderNames: Set(older.allAttributes(of: former).map(\.name)))
            mark(
                &nodes[index].relationships,
                of: entity.relationships.map { ($0.name, $0.isTransient) },
                matches: correspondence.relationships[entity.name] ?? [:],
                olderNames: Set(older.allRelationships(of: former).map(\.name)))
        }
        for entity in older.entities where box[entity.name] == nil {
            box[entity.name] = nodes.count
            var node = Self.node(entity)
            node.change = .removed
            nodes.append(node)
        }
        // The rows of what is removed from a continuing entity, and where
        // each older relationship's row now is.
        var row: [String: [String: Int]] = [:]
        for entity in older.entities {
            guard let index = box[entity.name] else { continue }
            if nodes[index].change == .removed {
                row[entity.name] = Dictionary(
                    entity.relationships.enumerated().map { ($1.name, $0) },
                    uniquingKeysWith: { first, _ in first })
                continue
            }
            let newerName = nodes[index].name
            let keptAttributes = Set((correspondence.attributes[newerName] ?? [:]).values)
            let keptRelationships = Set((correspondence.relationships[newerName] ?? [:]).values)
            for attribute in entity.attributes
            where !attribute.isTransient && !keptAttributes.contains(attribute.name) {
                nodes[index].attributes.append(
                    Row(name: attribute.name, detail: attribute.type.rawValue, change: .removed))
            }
            let relationshipRows = Self.node(entity).relationships
            for (position, relationship) in entity.relationships.enumerated()
            where !relationship.isTransient && !keptRelationships.contains(relationship.name) {
                row[entity.name, default: [:]][relationship.name] = nodes[index].relationships.count
                var removed = relationshipRows[position]
                removed.change = .removed
                nodes[index].relationships.append(removed)
            }
        }
        addRemovedEdges(older: older, box: box, row: row)
        markInheritance(older: older, newer: newer, correspondence: correspondence, box: box)
        markRelationshipEdges()
    }

    /// Marks each of `rows` (one per element of `names`) added when nothing
    /// older continues in it, renamed when it continues another name.
    private func mark(
        _ rows: inout [Row], of names: [(name: String, isTransient: Bool)],
        matches: [String: String], olderNames: Set<String>
    ) {
        for (index, element) in names.enumerated() where index < rows.count {
            if element.isTransient {
                // Transients hold no data and are never matched: by name.
                if !olderNames.contains(element.name) { rows[index].change = .added }
            } else if let former = matches[element.name] {
                if former != element.name { rows[index].change = .renamed(from: former) }
            } else {
                rows[index].change = .added
            }
        }
    }

    /// Red edges for the older relationships none of whose sides continue.
    private mutating func addRemovedEdges(
        older: Model, box: [String: Int], row: [String: [String: Int]]
    ) {
        let layout = ModelEdges(older)
        for declared in layout.relationships {
            let sides =
                [(declared.entity, declared.relationship.name)]
                + (declared.inverse.map { [($0.entity, $0.relationship.name)] } ?? [])
            guard sides.allSatisfy({ row[$0.0]?[$0.1] != nil }) else { continue }
            guard
                let from = box[declared.entity], let to = box[declared.relationship.destination],
                let port = row[declared.entity]?[declared.relationship.name]
            else { continue }
            let head = declared.inverse.flatMap { inverse in
                inverse.entity == declared.relationship.destination
                    ? row[inverse.entity]?[inverse.relationship.name] : nil
            }
            edges.append(
                Edge(
                    kind: .relationship(
                        head: Cardinality(declared.relationship),
                        tail: declared.inverse.map { Cardinality($0.relationship) }),
                    from: Endpoint(node: from, port: port), to: Endpoint(node: to, port: head),
                    change: .removed))
        }
    }

    /// Inheritance edges the later version adds (green) or drops (red).
    private mutating func markInheritance(
        older: Model, newer: Model, correspondence: SchemaCorrespondence, box: [String: Int]
    ) {
        for index in edges.indices where edges[index].kind == .inheritance {
            let child = nodes[edges[index].from.node].name
            let parent = nodes[edges[index].to.node].name
            let formerChild = correspondence.entities[child]
            let formerParent = correspondence.entities[parent]
            let kept =
                formerChild != nil && formerParent != nil
                && older.entity(named: formerChild ?? "")?.parent == formerParent
            if !kept { edges[index].change = .added }
        }
        for entity in older.entities {
            guard let parent = entity.parent, older.entity(named: parent) != nil,
                let from = box[entity.name], let to = box[parent]
            else { continue }
            let kept =
                nodes[from].change != .removed && nodes[to].change != .removed
                && newer.entity(named: nodes[from].name)?.parent == nodes[to].name
            if !kept {
                edges.append(
                    Edge(
                        kind: .inheritance, from: Endpoint(node: from), to: Endpoint(node: to),
                        change: .removed))
            }
        }
    }

    /// Relationship edges take the change of their rows: green when a side
    /// is added, amber when a side is renamed.
    private mutating func markRelationshipEdges() {
        for index in edges.indices where edges[index].change == nil {
            guard case .relationship = edges[index].kind else { continue }
            let ends = [edges[index].from, edges[index].to].compactMap { end in
                end.port.flatMap { port in
                    port < nodes[end.node].relationships.count
                        ? nodes[end.node].relationships[port].change : nil
                }
            }
            if nodes[edges[index].from.node].change == .added
                || nodes[edges[index].to.node].change == .added || ends.contains(.added)
            {
                edges[index].change = .added
            } else if let renamed = ends.first(where: {
                if case .renamed = $0 { true } else { false }
            }) {
                edges[index].change = renamed
            }
        }
    }
}
