import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A diary store at the newest version with entries, tags and media (two
/// photos, one sound, one photo attached twice), for bundle tests.
struct BundleFixture {
    let folder: TemporaryDirectory
    let store: Store
    let model: Model
    let chain: SchemaChain

    static let schemas = ContextFixture.schemas.appendingPathComponent("Diary")

    /// A small PNG-looking file: the signature, then `seed` bytes.
    static func photo(_ seed: UInt8) -> Data {
        Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { UInt8($0) &* seed })
    }

    /// A WAV-looking file.
    static let sound =
        Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8) + Data(repeating: 0x80, count: 300)

    init(entries: Int = 3) throws {
        folder = try TemporaryDirectory()
        chain = try SchemaChain.load(directory: Self.schemas)
        model = chain.newest
        store = try Store.create(at: folder.file("Diary.sqlite"), model: model)
        let context = try Context(store: store, model: model)
        var tags: [String: ManagedObject] = [:]
        for number in 0..<entries {
            let entry = try context.insert("DiaryEntry")
            try entry.set("title", "Entry \(number): ünï \"quoted\"")
            try entry.set("body", number == 1 ? nil : "Body \(number)\nsecond line")
            try entry.set(
                "creationTime",
                Date(timeIntervalSinceReferenceDate: 757_382_400.25 + Double(number)))
            try entry.setValue(.integer(Int64(number * 3)), forKey: "wordCount")
            if number == 0 { try entry.setValue(.data(Self.photo(3)), forKey: "icon") }
            for name in number == 2 ? ["home"] : ["travel", "morning"] {
                let tag = try tags[name] ?? context.insert("Tag")
                try tag.set("name", name)
                tags[name] = tag
                try entry.add(tag, to: "tags")
            }
            for (type, bytes) in number == 1
                ? [("image", Self.photo(5)), ("sound", Self.sound), ("image", Self.photo(3))]
                : [("image", Self.photo(7 + UInt8(number)))]
            {
                let medium = try context.insert("Medium")
                try medium.set("type", type)
                try medium.setValue(.data(bytes), forKey: "data")
                try medium.setObject(entry, forKey: "diaryEntry")
            }
        }
        try context.save()
    }

    /// Every object of every entity of `store`: attributes and relationship
    /// ids, by entity and key.
    static func snapshot(_ store: Store, model: Model) throws -> [String: [String]] {
        let context = try Context(store: store, model: model)
        var result: [String: [String]] = [:]
        for entity in model.entities.map(\.name).sorted() {
            var request = FetchRequest(entity: entity)
            request.includesSubentities = false
            result[entity] = try context.fetch(request).map { object in
                var parts = ["\(object.objectID)"]
                for attribute in model.allAttributes(of: entity).map(\.name).sorted() {
                    parts.append(
                        "\(attribute)=\(String(describing: try object.value(forKey: attribute)))")
                }
                for relationship in model.allRelationships(of: entity).sorted(by: {
                    $0.name < $1.name
                }) {
                    if relationship.isToMany {
                        let ids = try object.objects(forKey: relationship.name).map {
                            "\($0.objectID)"
                        }
                        parts.append(
                            "\(relationship.name)=\(relationship.isOrdered ? ids : ids.sorted())")
                    } else {
                        parts.append(
                            "\(relationship.name)=\(String(describing: try object.object(forKey: relationship.name)?.objectID))"
                        )
                    }
                }
                return parts.joined(separator: "; ")
            }
        }
        return result
    }

    /// The names and bytes of a zip's entries, in order.
    static func entries(of url: URL) throws -> [(String, Data)] {
        let reader = try ZipReader(contentsOf: url)
        return try reader.entries.map { ($0.path, try reader.data(of: $0)) }
    }

    /// The names in `folder`, sorted, hidden ones included.
    static func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// An honest bundle's entries (manifest included), to tamper with.
    static func honestEntries(_ fixture: BundleFixture) throws -> [(String, Data)] {
        let url = fixture.folder.file("honest.zip")
        if !FileManager.default.fileExists(atPath: url.path) {
            try BundleArchiver(store: fixture.store, model: fixture.model).archive(to: url)
        }
        return try BundleFixture.entries(of: url)
    }

    /// `entries` as a zip, with a manifest recomputed for them unless
    /// `keepManifest`.
    static func zip(
        _ entries: [(String, Data)], keepManifest: Bool = true,
        tweak: (inout [RawZip.Entry]) -> Void = { _ in }
    ) throws -> Data {
        var files = entries
        if !keepManifest, let index = files.firstIndex(where: { $0.0 == "manifest.json" }) {
            var manifest = try JSONDecoder().decode(BundleManifest.self, from: files[index].1)
            manifest.files = files.filter { $0.0 != "manifest.json" }.map {
                BundleArchiver.file($0.0, $0.1)
            }
            files[index].1 = try JSONEncoder().encode(manifest)
        }
        var raw = files.map { RawZip.Entry(name: $0.0, content: $0.1) }
        tweak(&raw)
        var zip = RawZip()
        for entry in raw { zip.add(entry) }
        return zip.data()
    }

    /// The fixture's lines of `file`, each as a JSON object.
    static func objects(_ entries: [(String, Data)], _ file: String) throws -> [[String:
        Any]]
    {
        let data = try #require(entries.first { $0.0 == file }?.1)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// `entries` with `file`'s lines replaced by `objects`.
    static func replacing(
        _ entries: [(String, Data)], _ file: String, with objects: [[String: Any]]
    ) throws -> [(String, Data)] {
        let lines = try objects.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self)
        }
        return entries.map {
            $0.0 == file ? ($0.0, Data((lines.joined(separator: "\n") + "\n").utf8)) : $0
        }
    }

    /// Unarchives `entries` (manifest recomputed) into a new store.
    static func unarchive(_ entries: [(String, Data)]) throws -> (TemporaryDirectory, Store) {
        let folder = try TemporaryDirectory()
        let bundle = folder.file("bundle.zip")
        try BundleFixture.zip(entries, keepManifest: false).write(to: bundle)
        let url = folder.file("Restored.sqlite")
        try BundleUnarchiver(bundle: bundle).unarchive(to: url)
        return (folder, try Store.open(at: url))
    }

    /// This fixture's store archived, then unarchived into a new store.
    func restored() throws -> (TemporaryDirectory, Store) {
        try Self.unarchive(try Self.honestEntries(self))
    }

    /// Expects `restored` to hold the same objects as this fixture's store.
    func expectSameObjects(
        in restored: Store, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try Self.snapshot(restored, model: model) == Self.snapshot(store, model: model),
            sourceLocation: sourceLocation)
    }
}
