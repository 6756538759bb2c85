import StrataSchema

// MARK: - Many-to-many join tables

extension StoreLayout {
    /// The join tables of `model` (coredata-format.md §1.5).
    ///
    /// Each pair of to-many relationships that are each other's inverse gets
    /// one table, named after the side with the lower entity number (for a
    /// reflexive pair, the alphabetically later name, as recent frameworks
    /// do). Column names share one namespace across all join tables: tables
    /// take their names in descending order of that entity number (ties by
    /// table name, descending), first column first, and a taken name gets
    /// `1`, `2`, … appended.
    ///
    /// A to-many without an inverse gets a table of its own, built as a
    /// many-to-many whose other side is nameless: `Z_<ent><NAME>`, its own
    /// keys in `Z_<ent><ENTITY>`, the destination's in `Z_<destEnt><NAME>`.
    /// Core Data is believed to use a join table here, but no store written
    /// by it was found, so this layout is unverified (coredata-format.md §1.5).
    static func joinTables(of model: Model, numbers: [String: Int]) -> [JoinTableLayout] {
        struct Pair {
            var naming: (entity: Entity, relationship: Relationship)
            var inverse: (entity: Entity, relationship: Relationship)
            var number: Int
            var tableName: String
        }
        var pairs: [Pair] = []
        var seen: Set<String> = []
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.isToMany && !relationship.isTransient {
                if !relationship.hasInverse {
                    guard model.entity(named: relationship.destination) != nil,
                        let number = numbers[entity.name]
                    else { continue }
                    // The nameless other side stands for the entity itself.
                    var own = Relationship(
                        name: "", destination: entity.name, inverse: relationship.name)
                    own.isToMany = true
                    pairs.append(
                        Pair(
                            naming: (entity, relationship), inverse: (entity, own),
                            number: number,
                            tableName: "Z_\(number)\(relationship.name.uppercased())"))
                    continue
                }
                guard let destination = model.entity(named: relationship.destination),
                    let inverse = model.allRelationships(of: destination.name)
                        .first(where: { $0.name == relationship.inverse }),
                    inverse.isToMany, !inverse.isTransient,
                    let number = numbers[entity.name]
                else { continue }
                // The inverse is declared on the destination or one of its ancestors.
                let inverseOwner =
                    ([destination] + model.ancestors(of: destination.name))
                    .first { $0.relationships.contains { $0.name == inverse.name } } ?? destination
                let inverseNumber = numbers[inverseOwner.name] ?? 0
                let key = [
                    entity.name + "." + relationship.name, inverseOwner.name + "." + inverse.name,
                ]
                .sorted().joined(separator: "|")
                guard seen.insert(key).inserted else { continue }

                let thisSide = (entity: entity, relationship: relationship)
                let otherSide = (entity: inverseOwner, relationship: inverse)
                let thisNames =
                    number < inverseNumber
                    || (number == inverseNumber && relationship.name > inverse.name)
                let naming = thisNames ? thisSide : otherSide
                let namingNumber = thisNames ? number : inverseNumber
                pairs.append(
                    Pair(
                        naming: naming, inverse: thisNames ? otherSide : thisSide,
                        number: namingNumber,
                        tableName: "Z_\(namingNumber)\(naming.relationship.name.uppercased())"))
            }
        }

        var names = ColumnNamespace()
        let assignmentOrder = pairs.sorted {
            ($0.number, $0.tableName) > ($1.number, $1.tableName)
        }
        var tables: [JoinTableLayout] = []
        for pair in assignmentOrder {
            let destinationNumber = numbers[pair.naming.relationship.destination] ?? 0
            let otherName =
                pair.inverse.relationship.name.isEmpty
                ? pair.naming.entity.name : pair.inverse.relationship.name
            let sourceColumn = names.claim("Z_\(pair.number)\(otherName.uppercased())")
            let destinationColumn = names.claim(
                "Z_\(destinationNumber)\(pair.naming.relationship.name.uppercased())")
            func orderColumn(_ relationship: Relationship, _ column: String) -> String? {
                relationship.isOrdered ? "Z_FOK_" + column.dropFirst(2) : nil
            }
            tables.append(
                JoinTableLayout(
                    name: pair.tableName,
                    namingSide: .init(
                        entity: pair.naming.entity.name,
                        relationship: pair.naming.relationship.name,
                        destinationColumn: destinationColumn,
                        orderColumn: orderColumn(pair.naming.relationship, destinationColumn)),
                    inverseSide: .init(
                        entity: pair.inverse.entity.name,
                        relationship: pair.inverse.relationship.name,
                        destinationColumn: sourceColumn,
                        orderColumn: orderColumn(pair.inverse.relationship, sourceColumn))))
        }
        // Present tables in entity-number order, the order they are created.
        return tables.sorted {
            ($0.namingSide.entity == $1.namingSide.entity)
                ? $0.name < $1.name
                : (numbers[$0.namingSide.entity] ?? 0) < (numbers[$1.namingSide.entity] ?? 0)
        }
    }
}
