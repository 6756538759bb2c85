import Foundation

/// Checks how the parts of a decoded ``Model`` fit together, reporting every
/// problem with its JSON path.
///
/// The checks follow what Core Data and Xcode's model compiler refuse, plus
/// what Strata's own extensions need (`relatedBy`, `importKeys`):
///
/// - names: entities start with an upper-case letter, properties with a
///   lower-case one, then letters, digits and `_`; no property name twice in
///   an entity, counting inherited ones;
/// - inheritance: `parent` names an entity, without cycles;
/// - relationships: the destination exists, the inverse exists on it (or is
///   inherited by it), leads back to this entity or an ancestor, and names
///   this relationship back; `ordered` only on to-many; counts in order;
///   `relatedBy` names an attribute of the destination;
/// - attributes: minimum not above maximum, `pattern` compiles, the default
///   within the bounds, import keys not claimed by two attributes;
/// - uniqueness constraints name attributes or to-one relationships;
/// - fetch indexes have unique names and index stored attributes or to-one
///   relationships; stored fetch requests and configurations name entities
///   of the model;
/// - renaming identifiers: no two entities, and no two properties of an
///   entity, carry the same one (an unset one counts as the name);
/// - SQL names: no two tables or indexes of the store the model lays out get
///   names SQLite takes to be the same (it ignores case).
///
/// One mistake gives one issue: a check that depends on a part which is
/// itself wrong (a missing destination, say) is skipped.
public struct SchemaValidator: Sendable {
    /// Whether attribute patterns are compiled to check that they are valid
    /// regular expressions (and that defaults match them).
    ///
    /// Compiling one loads ICU, over a millisecond. A reader of a schema
    /// that was checked when it was written (the copy Strata keeps inside a
    /// store) may skip it: an invalid pattern is still refused, by the
    /// attribute's check, when a value is first checked against it.
    public var compilesPatterns: Bool

    /// Creates a validator.
    ///
    /// - Parameter compilesPatterns: See ``compilesPatterns``.
    public init(compilesPatterns: Bool = true) {
        self.compilesPatterns = compilesPatterns
    }

    /// Every semantic problem of `model`, in entity order.
    ///
    /// - Parameters:
    ///   - model: A decoded model.
    ///   - file: The file name the issues carry.
    /// - Returns: The issues, without line and column (the model does not
    ///   know them; ``SchemaChain`` adds them).
    public func validate(_ model: Model, file: String = "") -> [SchemaIssue] {
        let forest = InheritanceForest(model)
        var run = Run(
            model: model, file: file, forest: forest,
            redeclared: Self.redeclaredProperties(model, forest),
            compilesPatterns: compilesPatterns)
        for entity in model.entities {
            run.checkEntity(entity)
            run.checkProperties(of: entity)
            for attribute in entity.attributes { run.checkAttribute(attribute, of: entity) }
            run.checkImportKeys(of: entity)
            for relationship in entity.relationships {
                run.checkRelationship(relationship, of: entity)
            }
            run.checkConstraints(of: entity)
            run.checkIndexes(of: entity)
        }
        run.checkRenamingIdentifiers()
        run.checkFetchRequests()
        run.checkConfigurations()
        run.checkSQLNames()
        return run.issues
    }

    /// What Core Data allows but Xcode warns about: each relationship
    /// without an inverse (deleting its destination leaves a key that reads
    /// as nil, and nothing on the destination side knows the link).
    ///
    /// - Returns: The warnings, in entity order, located by JSON path.
    public func warnings(_ model: Model, file: String = "") -> [SchemaIssue] {
        var found: [SchemaIssue] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.hasInverse {
                found.append(
                    SchemaIssue(
                        file: file,
                        path: Run.path(relationship: relationship, of: entity, "destination"),
                        message: "\(entity.name).\(relationship.name) has no inverse (Core Data "
                            + (relationship.isToMany
                                ? "allows it; its join table's layout is unverified)"
                                : "allows it; deleting its destination leaves a key that reads as nil)")
                    )
                )
            }
        }
        return found
    }

    /// The properties each entity declares that one of its ancestors
    /// already declares, with the farthest such ancestor.
    ///
    /// One walk over the trees in numbering order, keeping the names
    /// declared along the current path, so a chain thousands deep costs its
    /// number of properties rather than a walk up the chain per entity.
    static func redeclaredProperties(
        _ model: Model, _ forest: InheritanceForest
    ) -> [String: [String: String]] {
        var found: [String: [String: String]] = [:]
        var onPath: [String: String] = [:]  // Name → farthest declaring ancestor.
        var open: [(end: Int, added: [String])] = []
        for (index, entity) in forest.order.enumerated() {
            while let last = open.last, last.end <= index {
                for name in last.added { onPath[name] = nil }
                open.removeLast()
            }
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            var added: [String] = []
            for name in names {
                if let ancestor = onPath[name] {
                    if ancestor != entity.name { found[entity.name, default: [:]][name] = ancestor }
                } else {
                    onPath[name] = entity.name
                    added.append(name)
                }
            }
            open.append((forest.subtreeEnd[index], added))
        }
        return found
    }

    /// One validation pass: the model and the issues found so far.
    struct Run {
        let model: Model
        let file: String
        /// The model's inheritance trees, computed once.
        let forest: InheritanceForest
        /// For each entity, its properties that an ancestor already declares,
        /// with the farthest such ancestor.
        let redeclared: [String: [String: String]]
        /// See ``SchemaValidator/compilesPatterns``.
        let compilesPatterns: Bool
        var issues: [SchemaIssue] = []

        mutating func report(_ message: String, at path: String) {
            issues.append(SchemaIssue(file: file, path: path, message: message))
        }

        static func path(_ entity: String) -> String {
            JSONPath.appending(JSONPath.appending(JSONPath.root, key: "entities"), key: entity)
        }

        static func path(_ entity: String, _ kind: String, _ name: String) -> String {
            JSONPath.appending(JSONPath.appending(path(entity), key: kind), key: name)
        }

        static func path(attribute: Attribute, of entity: Entity, _ key: String) -> String {
            JSONPath.appending(path(entity.name, "attributes", attribute.name), key: key)
        }

        static func path(relationship: Relationship, of entity: Entity, _ key: String) -> String {
            JSONPath.appending(path(entity.name, "relationships", relationship.name), key: key)
        }

        // MARK: - Entities and names

        mutating func checkEntity(_ entity: Entity) {
            let path = Self.path(entity.name)
            if !Self.isName(entity.name, upperCase: true) {
                report(
                    "entity name '\(entity.name)' is not valid; expected an upper-case letter "
                        + "followed by letters, digits or '_'", at: path)
            }
            guard let parent = entity.parent else { return }
            let parentPath = JSONPath.appending(path, key: "parent")
            if model.entity(named: parent) == nil {
                report("parent '\(parent)' is not an entity of the model", at: parentPath)
            } else if forest.onCycle.contains(entity.name) {
                // Report a cycle once, at its alphabetically first entity.
                var cycle = [entity.name]
                var current = parent
                while current != entity.name, let next = model.entity(named: current) {
                    cycle.append(current)
                    current = next.parent ?? entity.name
                }
                if cycle.min() == entity.name {
                    report(
                        "parent cycle \((cycle + [entity.name]).joined(separator: " → ")); "
                            + "inheritance must end at a root entity", at: parentPath)
                }
            }
        }

        mutating func checkProperties(of entity: Entity) {
            let inherited = redeclared[entity.name] ?? [:]
            let attributeNames = Set(entity.attributes.map(\.name))
            let properties =
                entity.attributes.map { ($0.name, "attributes") }
                + entity.relationships.map { ($0.name, "relationships") }
            for (name, kind) in properties {
                let path = Self.path(entity.name, kind, name)
                if !Self.isName(name, upperCase: false) {
                    report(
                        "property name '\(name)' is not valid; expected a lower-case letter "
                            + "followed by letters, digits or '_'", at: path)
                }
                if let ancestor = inherited[name] {
                    report(
                        "'\(name)' is already a property of \(ancestor), which \(entity.name) "
                            + "inherits from; a subentity cannot redeclare it", at: path)
                } else if kind == "relationships", attributeNames.contains(name) {
                    report(
                        "'\(name)' is also an attribute of \(entity.name); property names "
                            + "must be unique", at: path)
                }
            }
        }

        /// Xcode's rule: ASCII letters, digits and `_`, starting with a letter
        /// of the given case.
        static func isName(_ name: String, upperCase: Bool) -> Bool {
            guard let first = name.unicodeScalars.first, first.isASCII,
                upperCase
                    ? ("A"..."Z").contains(first) : ("a"..."z").contains(first)
            else { return false }
            return name.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
            }
        }

        // MARK: - Uniqueness constraints

        mutating func checkConstraints(of entity: Entity) {
            guard !entity.uniquenessConstraints.isEmpty else { return }
            let attributes = Set(model.allAttributes(of: entity.name).map(\.name))
            let toOnes = Set(
                model.allRelationships(of: entity.name).filter { !$0.isToMany }.map(\.name))
            let base = JSONPath.appending(Self.path(entity.name), key: "uniquenessConstraints")
            for (index, constraint) in entity.uniquenessConstraints.enumerated() {
                let constraintPath = JSONPath.appending(base, index: index)
                if constraint.isEmpty {
                    report(
                        "empty uniqueness constraint; expected attribute names", at: constraintPath)
                }
                var seen: Set<String> = []
                for (position, name) in constraint.enumerated() {
                    let path = JSONPath.appending(constraintPath, index: position)
                    if !seen.insert(name).inserted {
                        report("'\(name)' appears twice in this constraint", at: path)
                    } else if !attributes.contains(name) && !toOnes.contains(name) {
                        report(
                            "'\(name)' is not an attribute or to-one relationship of "
                                + "\(entity.name)", at: path)
                    }
                }
            }
        }
    }
}
