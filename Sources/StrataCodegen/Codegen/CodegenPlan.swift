import Foundation
import StrataSchema

/// The Swift names of a model's generated declarations, with the renamings
/// made (warnings) and the collisions found (issues).
struct CodegenPlan {
    let model: Model
    let file: String
    /// The enum listing the classes.
    var modelEnumName = ""
    /// Class name by entity name (backticked when a keyword).
    var classNames: [String: String] = [:]
    /// Member name by entity name, then property name.
    var memberNames: [String: [String: String]] = [:]
    var warnings: [SchemaIssue] = []
    var issues: [SchemaIssue] = []

    /// Type names the generated code uses unqualified, by module: an entity
    /// class of the same name makes the generator qualify them.
    static let usedTypes: [String: String] = [
        "String": "Swift", "Int16": "Swift", "Int32": "Swift", "Int64": "Swift",
        "Int": "Swift", "Double": "Swift", "Float": "Swift", "Bool": "Swift", "Set": "Swift",
        "Sequence": "Swift", "Decimal": "Foundation", "Date": "Foundation", "Data": "Foundation",
        "UUID": "Foundation", "URL": "Foundation", "ManagedObject": "Strata",
        "TypedEntity": "Strata", "TypedModel": "Strata", "FetchRequest": "Strata",
        "Context": "Strata",
    ]
    /// Class names that would hide a module the code names.
    static let moduleNames: Set<String> = ["Swift", "Foundation", "Strata"]
    /// Members every generated class has already (from ``ManagedObject``
    /// and ``TypedEntity``): a property of the same name is renamed.
    static let inheritedMembers: Set<String> = [
        "context", "objectID", "entityName", "isInserted", "isDeleted", "hasChanges", "uri",
        "hashValue", "model", "description", "debugDescription", "fetchRequest",
    ]

    init(model: Model, file: String) {
        self.model = model
        self.file = file
    }

    /// The JSON path of an entity, or of one of its properties.
    package func path(_ entity: String, _ kind: String? = nil, _ property: String? = nil) -> String
    {
        var keys = ["entities", entity]
        if let kind, let property { keys += [kind, property] }
        return SchemaIssue.path(keys: keys)
    }

    mutating func warn(_ path: String, _ message: String) {
        warnings.append(SchemaIssue(file: file, path: path, message: message))
    }

    mutating func fail(_ path: String, _ message: String) {
        issues.append(SchemaIssue(file: file, path: path, message: message))
    }

    /// Names every entity's class and the model's enum; collisions are
    /// issues.
    mutating func nameClasses() {
        var owners: [String: String] = [:]
        for entity in model.entities {
            var name = SwiftIdentifier.declared(entity.name)
            if name == nil || Self.moduleNames.contains(entity.name) {
                var renamed = SwiftIdentifier.renamed(entity.name, upperFirst: true)
                if SwiftIdentifier.reserved.contains(renamed) || Self.moduleNames.contains(renamed)
                {
                    renamed += "Entity"
                }
                warn(
                    path(entity.name),
                    "entity '\(entity.name)' is not a usable Swift type name; `schema swift` "
                        + "names its class \(renamed)")
                name = renamed
            }
            let className = name ?? entity.name
            let bare = SwiftIdentifier.bare(className)
            if let other = owners[bare] {
                fail(
                    path(entity.name),
                    "its class name \(bare) is also the class name of entity '\(other)'; "
                        + "rename one of the entities")
            } else {
                owners[bare] = entity.name
            }
            classNames[entity.name] = className
        }
        let enumName = SwiftIdentifier.renamed(model.name, upperFirst: true) + "Model"
        modelEnumName = enumName
        if let entity = owners[enumName] {
            fail(
                path(entity),
                "its class name \(enumName) is also the name of the enum listing the model's "
                    + "classes; rename the entity or the model")
        }
    }

    /// Names every property's member; collisions within a class (its
    /// ancestors' members and its own `addTo…` methods included) are issues.
    mutating func nameMembers() {
        for entity in model.entities {
            var names: [String: String] = [:]
            let properties =
                entity.attributes.map { ($0.name, "attributes") }
                + entity.relationships.map { ($0.name, "relationships") }
            for (name, kind) in properties {
                names[name] = memberName(name, of: entity.name, kind: kind)
            }
            memberNames[entity.name] = names
        }
        for entity in model.entities { checkMembers(of: entity) }
    }

    /// The member of property `name` (of `kind`, `attributes` or
    /// `relationships`) of `entity`; a renaming is warned about, with why.
    private mutating func memberName(_ name: String, of entity: String, kind: String) -> String {
        if let declared = SwiftIdentifier.declared(name), !Self.inheritedMembers.contains(name) {
            return declared
        }
        var renamed = SwiftIdentifier.renamed(name, upperFirst: false)
        if Self.inheritedMembers.contains(renamed) || SwiftIdentifier.reserved.contains(renamed)
            || SwiftIdentifier.keywords.contains(renamed)
        {
            renamed += "Property"
        }
        let noun = kind == "attributes" ? "attribute" : "relationship"
        let property = "\(noun) '\(name)' of \(entity)"
        let why =
            Self.inheritedMembers.contains(name)
            ? "every generated class has a member \(name) already (from ManagedObject or "
                + "TypedEntity)"
            : "'\(name)' is not a usable Swift property name"
        warn(
            path(entity, kind, name),
            "\(property): \(why), so `schema swift` names its property \(renamed)")
        return renamed
    }

    /// Reports members of `entity`'s class that collide with each other or
    /// with an ancestor's.
    private mutating func checkMembers(of entity: Entity) {
        var seen: [String: String] = [:]
        for owner in model.ancestors(of: entity.name).reversed() + [entity] {
            let ownNames = memberNames[owner.name] ?? [:]
            for attribute in owner.attributes {
                claim(SwiftIdentifier.bare(ownNames[attribute.name] ?? ""), attribute.name, owner)
            }
            for relationship in owner.relationships {
                let member = ownNames[relationship.name] ?? ""
                claim(SwiftIdentifier.bare(member), relationship.name, owner)
                guard relationship.isToMany else { continue }
                let suffix = SwiftIdentifier.capitalized(member)
                var methods = ["addTo", "removeFrom"]
                if relationship.isOrdered { methods.append("insertInto") }
                for method in methods { claim(method + suffix, relationship.name, owner) }
            }
        }

        func claim(_ member: String, _ property: String, _ owner: Entity) {
            let kind = owner.attribute(named: property) != nil ? "attributes" : "relationships"
            if let other = seen[member] {
                guard owner.name == entity.name else { return }  // Reported on the ancestor.
                fail(
                    path(owner.name, kind, property),
                    "its Swift member \(member) is also made for '\(other)' in class "
                        + "\(classNames[entity.name] ?? entity.name); rename one of them")
            } else {
                seen[member] = owner.name == entity.name ? property : "\(owner.name).\(property)"
            }
        }
    }

    /// `simple` as the generated code must spell it: qualified by its module
    /// when an entity's class has the same name.
    func type(_ simple: String) -> String {
        guard let module = Self.usedTypes[simple],
            classNames.values.contains(where: { SwiftIdentifier.bare($0) == simple })
        else { return simple }
        return "\(module).\(simple)"
    }
}
