import Foundation
import StrataCore
import StrataSchema

/// Reads a `xcmapping.xml`: a Core Data XML store holding Xcode's mapping
/// document (coredata-mapping-models.md §1).
///
/// Only what the one `XDDEVMAPPINGMODEL` reaches is read: its
/// `entitymappings` are the live entity mappings and theirs the live
/// property mappings. Xcode leaves deleted and retargeted mappings in the
/// file (§1.6), with stale names and numbers, so scanning every object of a
/// type would revive them.
struct XcodeMappingXMLReader {
    /// The file name issues carry.
    let file: String
    /// Every `<object>` with an `id`, by id.
    private var objects: [String: XMLElement] = [:]

    static let modelType = "XDDEVMAPPINGMODEL"
    static let entityMappingType = "XDDEVENTITYMAPPING"
    static let attributeMappingType = "XDDEVATTRIBUTEMAPPING"
    static let relationshipMappingType = "XDDEVRELATIONSHIPMAPPING"

    init(file: String) {
        self.file = file
    }

    // MARK: - The document

    mutating func read(_ data: Data) throws(XcodeMappingModelError) -> XcodeMappingModel {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, source: file)
        } catch let error as XMLError {
            throw XcodeMappingModelError(
                file: file, line: error.line, column: error.column, error.message)
        } catch {
            throw XcodeMappingModelError(file: file, "not XML")
        }
        let root = document.root
        guard root.name == "database" else {
            throw XcodeMappingModelError(
                file: file, line: root.line, place: "<\(root.name)>",
                "expected a Core Data XML store, whose document element is <database>")
        }
        // databaseInfo/version (134481920 in every file seen) is not checked:
        // the mapping schema has not changed since framework 251 (§1.3).
        var models: [XMLElement] = []
        for object in root.children(named: "object") {
            if object[attribute: "type"] == Self.modelType { models.append(object) }
            guard let id = object[attribute: "id"] else { continue }
            if let first = objects[id] {
                throw error(
                    object, nil,
                    "the id \(id) is also that of the object on line \(first.line); "
                        + "expected one object per id")
            }
            objects[id] = object
        }
        guard let model = models.first else {
            throw XcodeMappingModelError(
                file: file, line: root.line, place: "<database>",
                "no \(Self.modelType) object; a mapping model's xcmapping.xml holds exactly one")
        }
        if models.count > 1 {
            throw error(
                models[1], nil,
                "a second \(Self.modelType) (the first is \(Self.name(of: model)) on line "
                    + "\(model.line)); expected exactly one")
        }
        return try readModel(model)
    }

    private func readModel(_ model: XMLElement) throws(XcodeMappingModelError) -> XcodeMappingModel
    {
        let sourcePath = string(model, "sourcemodelpath")
        let destinationPath = string(model, "destinationmodelpath")
        let sourceModel = try snapshot(
            model, "sourcemodeldata", name: Self.modelName(sourcePath, default: "Source"))
        let destinationModel = try snapshot(
            model, "destinationmodeldata",
            name: Self.modelName(destinationPath, default: "Destination"))
        var mappings: [(number: Int16, mapping: XcodeMappingModel.EntityMapping)] = []
        var numbered: [Int16: XMLElement] = [:]
        for object in try targets(of: model, "entitymappings", type: Self.entityMappingType) {
            let (number, mapping) = try readEntityMapping(object, owner: model)
            if let other = numbered[number] {
                throw error(
                    object, field(object, "attribute", "mappingnumber"),
                    "mappingnumber \(number) is also that of \(Self.name(of: other)) on line "
                        + "\(other.line); the live mappings are numbered 1…n without repeats")
            }
            numbered[number] = object
            mappings.append((number, mapping))
        }
        // Core Data runs mappings in the editor's order, which only
        // `mappingnumber` records; the idrefs are an unordered set (§3.6).
        mappings.sort { $0.number < $1.number }
        return XcodeMappingModel(
            file: file, kind: .xcmappingmodel, sourceModel: sourceModel,
            destinationModel: destinationModel, sourceModelPath: sourcePath,
            destinationModelPath: destinationPath, entityMappings: mappings.map(\.mapping))
    }

    /// The name to give a snapshot's model: the `.xcdatamodeld` bundle's in
    /// the recorded path, else the version folder's, else `fallback`.
    static func modelName(_ path: String?, default fallback: String) -> String {
        let components = (path ?? "").split(separator: "/").map(String.init)
        let bundle = components.last { $0.hasSuffix(".xcdatamodeld") } ?? components.last
        guard let bundle else { return fallback }
        let stem = (bundle as NSString).deletingPathExtension
        return stem.isEmpty ? fallback : stem
    }

    /// The model archived in the binary attribute `name`, or nil without one.
    private func snapshot(_ object: XMLElement, _ name: String, name modelName: String)
        throws(XcodeMappingModelError) -> Model?
    {
        guard let data = try binary(object, name) else { return nil }
        do {
            return try XcodeModelSnapshotReader().read(data: data, modelName: modelName)
        } catch {
            throw self.error(
                object, field(object, "attribute", name),
                "expected a keyed archive of Xcode's XDPMModel: \(error)")
        }
    }

    // MARK: - Entity mappings

    private func readEntityMapping(_ object: XMLElement, owner: XMLElement)
        throws(XcodeMappingModelError) -> (Int16, XcodeMappingModel.EntityMapping)
    {
        try checkBackReference(object, "mappingmodel", owner: owner)
        guard let number = try int16(object, "mappingnumber") else {
            throw error(
                object, nil,
                "no mappingnumber; expected the mapping's 1-based position in the editor")
        }
        let source = nonEmpty(string(object, "sourcename"))
        let destination = nonEmpty(string(object, "destinationname"))
        guard
            let name = nonEmpty(string(object, "name"))
                ?? XcodeMappingModel.EntityMapping.defaultName(
                    source: source, destination: destination)
        else {
            throw error(
                object, nil,
                "neither sourcename nor destinationname; expected an entity on one side at least")
        }
        var mapping = XcodeMappingModel.EntityMapping(
            name: name, sourceEntity: source, destinationEntity: destination,
            location: Self.name(of: object))
        mapping.filterPredicate = string(object, "sourcefilterpredicatestring")
        // An empty element means "no policy" (§3.5).
        mapping.policyClassName = nonEmpty(string(object, "migrationpolicyclassname"))
        for property in try targets(
            of: object, "attributemappings", type: Self.attributeMappingType)
        {
            mapping.attributeMappings.append(try readPropertyMapping(property, owner: object))
        }
        for property in try targets(
            of: object, "relationshipmappings", type: Self.relationshipMappingType)
        {
            var relationship = try readPropertyMapping(property, owner: object)
            // Kept as typed, one without the other included (§4.2, form 3):
            // the converter decides what such a mapping means.
            relationship.sourceKeyPath = string(property, "sourcekeypath")
            relationship.sourceMappingName = string(property, "sourcemappingname")
            mapping.relationshipMappings.append(relationship)
        }
        return (number, mapping)
    }

    private func readPropertyMapping(_ object: XMLElement, owner: XMLElement)
        throws(XcodeMappingModelError) -> XcodeMappingModel.PropertyMapping
    {
        try checkBackReference(object, "entitymapping", owner: owner)
        guard let name = nonEmpty(string(object, "name")) else {
            throw error(object, nil, "no name; expected the destination property's name")
        }
        var mapping = XcodeMappingModel.PropertyMapping(name: name, location: Self.name(of: object))
        if let data = try binary(object, "valueexpressiondata") {
            mapping.valueExpression = try expression(
                data, object, field(object, "attribute", "valueexpressiondata"))
        }
        return mapping
    }

    /// The root object of an archived `NSExpression`.
    private func expression(_ data: Data, _ object: XMLElement, _ element: XMLElement?)
        throws(XcodeMappingModelError) -> ArchivedObject
    {
        let root: ArchivedObject?
        do {
            root = try KeyedArchive(data: data).topObject()
        } catch {
            throw self.error(
                object, element, "expected a keyed archive of an NSExpression: \(error)")
        }
        guard let root else {
            throw self.error(
                object, element, "the archive has no root object; expected an NSExpression")
        }
        return root
    }

    /// A live object's to-one back-reference must name the object that
    /// lists it, or nothing: one naming another owner is an orphan that
    /// contradicts the live list (§1.6).
    private func checkBackReference(_ object: XMLElement, _ name: String, owner: XMLElement)
        throws(XcodeMappingModelError)
    {
        guard let (element, ids) = idrefs(object, name), let ownerID = owner[attribute: "id"]
        else { return }
        for id in ids where id != ownerID {
            throw error(
                object, element,
                "names \(id) as its owner, but \(Self.name(of: owner)) lists it as live; "
                    + "expected \(ownerID)")
        }
    }
}

// MARK: - Fields

extension XcodeMappingXMLReader {
    /// `object z107`, or the element's type when it has no id.
    static func name(of object: XMLElement) -> String {
        object[attribute: "id"].map { "object \($0)" }
            ?? "<object type=\"\(object[attribute: "type"] ?? "")\">"
    }

    /// A located error about `object`, at `element` (one of its fields)
    /// when given.
    func error(_ object: XMLElement, _ element: XMLElement?, _ message: String)
        -> XcodeMappingModelError
    {
        var place = Self.name(of: object)
        if let element { place += " " + XcodeModelVersionReader.describe(element) }
        return XcodeMappingModelError(
            file: file, line: element?.line ?? object.line, place: place, message)
    }

    /// The `<attribute>` or `<relationship>` child named `name`.
    func field(_ object: XMLElement, _ kind: String, _ name: String) -> XMLElement? {
        object.children.first { $0.name == kind && $0[attribute: "name"] == name }
    }

    /// The text of the attribute `name`, nil when absent (the store omits
    /// nil values).
    func string(_ object: XMLElement, _ name: String) -> String? {
        field(object, "attribute", name)?.text
    }

    func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// The `int16` attribute `name`.
    func int16(_ object: XMLElement, _ name: String) throws(XcodeMappingModelError) -> Int16? {
        guard let element = field(object, "attribute", name) else { return nil }
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Int16(text) else {
            throw error(object, element, "expected an int16, found \(Self.quoted(element.text))")
        }
        return value
    }

    /// The `binary` attribute `name`, base64 with its whitespace removed
    /// (Xcode breaks the text after 76 characters, once, §1.4).
    func binary(_ object: XMLElement, _ name: String) throws(XcodeMappingModelError) -> Data? {
        guard let element = field(object, "attribute", name) else { return nil }
        let base64 = String(element.text.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard let data = Data(base64Encoded: base64) else {
            throw error(object, element, "expected base64, found characters that are not")
        }
        return data
    }

    /// The ids of the relationship `name`, with its element; nil when the
    /// element or its `idrefs` is absent (an empty relationship).
    func idrefs(_ object: XMLElement, _ name: String) -> (XMLElement, [String])? {
        guard let element = field(object, "relationship", name),
            let ids = element[attribute: "idrefs"]
        else { return nil }
        return (element, ids.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    /// The objects the to-many relationship `name` lists, each checked to
    /// exist, to be of `type` and to be listed once.
    func targets(of object: XMLElement, _ name: String, type: String)
        throws(XcodeMappingModelError) -> [XMLElement]
    {
        guard let (element, ids) = idrefs(object, name) else { return [] }
        var seen: Set<String> = []
        var targets: [XMLElement] = []
        for id in ids {
            guard seen.insert(id).inserted else {
                throw error(object, element, "lists \(id) twice; expected each object once")
            }
            guard let target = objects[id] else {
                throw error(
                    object, element,
                    "names \(id), which is no object of the file; expected a \(type)")
            }
            let found = target[attribute: "type"] ?? ""
            guard found == type else {
                throw error(
                    object, element,
                    "names \(id), which is a \(found.isEmpty ? "object without a type" : found) "
                        + "on line \(target.line); expected a \(type)")
            }
            targets.append(target)
        }
        return targets
    }

    /// A value for a message: quoted, cut after 40 characters.
    static func quoted(_ text: String) -> String {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + cut + "\""
    }
}
