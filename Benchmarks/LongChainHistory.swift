import Foundation
import Strata

/// A generated model history of many versions, shaped like a real app's
/// (issue 25): every version adds an optional attribute and removes the
/// one added 30 versions before (so a version has as many properties
/// however long the history, as real models do); every fifth
/// renames `Note.title` by renaming identifier (the identifier stays
/// `title`, as Xcode users keep it); versions 7, 14 and 21 widen
/// `Note.count` (16 → 32 → 64 bits → double); every eleventh renames the
/// `Tag` entity (identifier `Tag`); version 30 adds an abstract parent
/// `Item` above `Note` and `Folder` (their rows move into one table) and
/// version 60 removes it again.
///
/// Deterministic: version `k` is the same in every history of at least `k`
/// versions, so one version-1 store serves histories of any length.
enum LongChainHistory {
    static let modelName = "Long"

    /// The history's `versions` models, oldest first.
    static func models(versions: Int) -> [Model] {
        (1...max(versions, 1)).map(model)
    }

    /// Writes `1.json` … `<versions>.json` into `folder` (created).
    static func write(versions: Int, into folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for model in models(versions: versions) {
            try SchemaEncoder().encodeData(model)
                .write(to: folder.appendingPathComponent("\(model.version).json"))
        }
    }

    /// The entity names and the title attribute's name at `version`.
    struct Names {
        var tag: String
        var title: String
    }

    static func names(at version: Int) -> Names {
        let tagRename = version / 11 * 11
        let titleRename = version / 5 * 5
        return Names(
            tag: tagRename == 0 ? "Tag" : "Tag\(tagRename)",
            title: titleRename == 0 ? "title" : "title\(titleRename)")
    }

    /// Version `version` of the history.
    static func model(_ version: Int) -> Model {
        let names = names(at: version)
        let hasParent = version >= 30 && version < 60

        var title = Attribute(name: names.title, type: .string)
        if names.title != "title" { title.renamingIdentifier = "title" }
        var body = Attribute(name: "body", type: .string)
        body.isOptional = true
        let countType: AttributeType =
            version >= 21
            ? .double : version >= 14 ? .integer64 : version >= 7 ? .integer32 : .integer16
        var count = Attribute(name: "count", type: countType)
        count.defaultValue = .literal(countType == .double ? .real(0) : .integer(0))
        var created = Attribute(name: "created", type: .date)
        created.isOptional = true
        var noteAttributes = [title, body, count, created]
        var folderAttributes = [Attribute(name: "name", type: .string)]
        var tagAttributes = [Attribute(name: "label", type: .string)]
        // Every later version adds one optional attribute, in turn to each
        // entity, and drops the one added 30 versions before.
        if version >= 2 {
            for added in max(2, version - 29)...version {
                var attribute = Attribute(name: "added\(added)", type: .string)
                attribute.isOptional = true
                switch added % 3 {
                case 0: noteAttributes.append(attribute)
                case 1: folderAttributes.append(attribute)
                default: tagAttributes.append(attribute)
                }
            }
        }

        var folder = Relationship(name: "folder", destination: "Folder", inverse: "notes")
        folder.isOptional = true
        var notes = Relationship(
            name: "notes", destination: "Note", inverse: "folder", isToMany: true)
        notes.isOptional = true
        var tags = Relationship(
            name: "tags", destination: names.tag, inverse: "notes", isToMany: true)
        tags.isOptional = true
        var tagged = Relationship(
            name: "notes", destination: "Note", inverse: "tags", isToMany: true)
        tagged.isOptional = true

        var tag = Entity(name: names.tag, attributes: tagAttributes, relationships: [tagged])
        if names.tag != "Tag" { tag.renamingIdentifier = "Tag" }
        var entities = [
            Entity(
                name: "Note", parent: hasParent ? "Item" : nil, attributes: noteAttributes,
                relationships: [folder, tags]),
            Entity(
                name: "Folder", parent: hasParent ? "Item" : nil, attributes: folderAttributes,
                relationships: [notes]),
            tag,
        ]
        if hasParent {
            var stamp = Attribute(name: "stamp", type: .date)
            stamp.isOptional = true
            var item = Entity(name: "Item", attributes: [stamp])
            item.isAbstract = true
            entities.append(item)
        }
        return Model(name: modelName, version: version, entities: entities)
    }

    /// The objects a store of `objects` holds: 10 % folders, 20 % tags, the
    /// rest notes (each in a folder, with two tags).
    static func counts(objects: Int) -> (folders: Int, tags: Int, notes: Int) {
        let folders = max(objects / 10, 1)
        let tags = max(objects / 5, 1)
        return (folders, tags, max(objects - folders - tags, 0))
    }

    /// Creates a version-1 store of `objects` objects at `url`.
    static func makeStore(at url: URL, objects: Int) throws {
        let model = model(1)
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        let (folderCount, tagCount, noteCount) = counts(objects: objects)
        var folders: [ManagedObject] = []
        for index in 0..<folderCount {
            let folder = try context.insert("Folder")
            try folder.set("name", "Folder \(index)")
            folders.append(folder)
        }
        var tags: [ManagedObject] = []
        for index in 0..<tagCount {
            let tag = try context.insert("Tag")
            try tag.set("label", "tag\(index)")
            tags.append(tag)
        }
        for index in 0..<noteCount {
            let note = try context.insert("Note")
            try note.set("title", "Note \(index)")
            if index % 2 == 0 { try note.set("body", "Body of note \(index)") }
            try note.set("count", Int64(index % 30_000))
            try note.setObject(folders[index % folders.count], forKey: "folder")
            try note.add(tags[index % tags.count], to: "tags")
            try note.add(tags[(index * 7 + 1) % tags.count], to: "tags")
        }
        try context.save()
        try store.close()
    }
}
