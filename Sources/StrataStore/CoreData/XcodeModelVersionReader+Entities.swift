import StrataCore
import StrataSchema

// MARK: - Entities, indexes and constraints

extension XcodeModelVersionReader {
    mutating func convertEntity(_ element: XMLElement) -> Entity {
        let name = Self.text(element, "name") ?? ""
        if name.isEmpty { report(element, "an entity needs a name") }
        var entity = Entity(name: name, parent: Self.text(element, "parentEntity"))
        entity.isAbstract = Self.flag(element, "isAbstract")
        entity.versionHashModifier = Self.text(element, "versionHashModifier")
        entity.renamingIdentifier = Self.renamingIdentifier(of: element, named: name)
        entity.userInfo = Self.userInfo(of: element)
        let path = JSONPath.appending(JSONPath.appending(JSONPath.root, key: "entities"), key: name)
        locate(path, at: element)
        entity.attributes = element.children(named: "attribute").compactMap { child in
            guard let attribute = convertAttribute(child) else { return nil }
            locate(
                JSONPath.appending(
                    JSONPath.appending(path, key: "attributes"), key: attribute.name), at: child)
            return attribute
        }
        var relationships: [Relationship] = []
        for child in element.children(named: "relationship") {
            guard let relationship = convertRelationship(child) else { continue }
            relationships.append(relationship)
            relationshipElements[name, default: [:]][relationship.name] = child
            locate(
                JSONPath.appending(
                    JSONPath.appending(path, key: "relationships"), key: relationship.name),
                at: child)
        }
        entity.relationships = relationships
        for child in element.children(named: "fetchedProperty") {
            warn(
                child,
                "fetched properties are not carried over; Core Data neither stores nor hashes them")
        }
        entity.uniquenessConstraints =
            element.child(named: "uniquenessConstraints")?
            .children(named: "uniquenessConstraint").map { constraint in
                constraint.children(named: "constraint").compactMap { Self.text($0, "value") }
            } ?? []
        entity.indexes = element.children(named: "fetchIndex").compactMap { convertFetchIndex($0) }
        for compound in element.child(named: "compoundIndexes")?.children(named: "compoundIndex")
            ?? []
        {
            guard let index = convertCompoundIndex(compound) else { continue }
            if entity.indexes.contains(where: { $0.name == index.name }) {
                warn(compound, "left out: a fetch index named '\(index.name)' exists already")
            } else {
                entity.indexes.append(index)
            }
        }
        return entity
    }

    /// `<fetchIndex name><fetchIndexElement property type order/>…</fetchIndex>`.
    /// Indexes are not hashed, so one Strata cannot represent is left out
    /// with a warning.
    mutating func convertFetchIndex(_ element: XMLElement) -> FetchIndex? {
        guard let name = Self.text(element, "name") else {
            warn(element, "left out: a fetch index without a name")
            return nil
        }
        var elements: [FetchIndex.Element] = []
        for child in element.children(named: "fetchIndexElement") {
            guard let property = Self.text(child, "property") else {
                warn(element, "left out: only indexes of properties are supported, not expressions")
                return nil
            }
            var indexElement = FetchIndex.Element(property: property)
            switch child[attribute: "type"]?.lowercased() {
            case nil, "binary": indexElement.kind = .binary
            case "rtree": indexElement.kind = .rtree
            case let other?:
                warn(element, "left out: unknown index element type \"\(other)\"")
                return nil
            }
            switch child[attribute: "order"] {
            case nil, "ascending": indexElement.order = .ascending
            case "descending": indexElement.order = .descending
            case let other?:
                warn(element, "left out: unknown index element order \"\(other)\"")
                return nil
            }
            elements.append(indexElement)
        }
        guard !elements.isEmpty else {
            warn(element, "left out: a fetch index without elements")
            return nil
        }
        return FetchIndex(name: name, elements: elements)
    }

    /// A legacy `<compoundIndex><index value/>…</compoundIndex>` as an
    /// ascending binary fetch index named by joining its property names with
    /// `_`. Core Data names the SQL index after the columns instead
    /// (`ZMOOD_ZDATE_ZTITLE`, coredata-format.md §1.6), but it never checks
    /// index names, and a fetch index needs a name of its own.
    mutating func convertCompoundIndex(_ element: XMLElement) -> FetchIndex? {
        let properties = element.children(named: "index").compactMap { Self.text($0, "value") }
        guard !properties.isEmpty else {
            warn(element, "left out: a compound index without properties")
            return nil
        }
        return FetchIndex(
            name: properties.joined(separator: "_"),
            elements: properties.map { FetchIndex.Element(property: $0) })
    }

    /// `<userInfo><entry key value/>…</userInfo>` as a dictionary.
    static func userInfo(of element: XMLElement) -> [String: String] {
        var result: [String: String] = [:]
        for entry in element.child(named: "userInfo")?.children(named: "entry") ?? [] {
            guard let key = entry[attribute: "key"] else { continue }
            result[key] = entry[attribute: "value"] ?? ""
        }
        return result
    }

    // MARK: - Fetch requests and configurations

    /// `<fetchRequest name entity predicateString …/>`; every other XML
    /// attribute is kept as an option.
    mutating func convertFetchRequest(_ element: XMLElement) -> FetchRequestTemplate? {
        guard let name = Self.text(element, "name"), let entity = Self.text(element, "entity")
        else {
            warn(element, "left out: a fetch request needs a name and an entity")
            return nil
        }
        var options: [String: String] = [:]
        for attribute in element.attributes
        where !["name", "entity", "predicateString"].contains(attribute.name) {
            options[attribute.name] = attribute.value
        }
        return FetchRequestTemplate(
            name: name, entity: entity, predicate: Self.text(element, "predicateString"),
            options: options)
    }

    /// `<configuration name usedWithCloudKit><memberEntity name/>…</configuration>`.
    mutating func convertConfiguration(_ element: XMLElement) -> ModelConfiguration? {
        guard let name = Self.text(element, "name") else {
            warn(element, "left out: a configuration without a name")
            return nil
        }
        return ModelConfiguration(
            name: name,
            entities: element.children(named: "memberEntity").compactMap {
                Self.text($0, "name")
            },
            isUsedWithCloudKit: Self.flag(element, "usedWithCloudKit"))
    }
}
