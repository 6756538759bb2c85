import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore
@testable import StrataWeb

/// A journal store for the web view's tests, in a throwaway folder:
/// `Entry` (and its subentity `PinnedEntry`) with text, a date, a score,
/// a photo, a transformable and a link; `Tag`s linked both ways.
struct WebFixture {
    let folder: TemporaryDirectory
    let url: URL
    let model: Model

    /// A one-pixel PNG.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        ) ?? Data()

    static func model() -> Model {
        func attribute(_ name: String, _ type: AttributeType) -> Attribute {
            var attribute = Attribute(name: name, type: type)
            attribute.isOptional = true
            return attribute
        }
        var tags = Relationship(
            name: "tags", destination: "Tag", inverse: "entries", isToMany: true)
        tags.isOptional = true
        var entries = Relationship(
            name: "entries", destination: "Entry", inverse: "tags", isToMany: true)
        entries.isOptional = true
        let entry = Entity(
            name: "Entry",
            attributes: [
                attribute("title", .string), attribute("date", .date), attribute("score", .double),
                attribute("photo", .binary), attribute("payload", .transformable),
                attribute("link", .uri), attribute("starred", .boolean),
            ], relationships: [tags])
        let pinned = Entity(
            name: "PinnedEntry", parent: "Entry", attributes: [attribute("note", .string)])
        let tag = Entity(
            name: "Tag", attributes: [attribute("name", .string)], relationships: [entries])
        return Model(name: "Journal", version: 1, entities: [entry, pinned, tag])
    }

    /// `count` entries titled `Entry 1`…, the first titled with a script,
    /// every third without a score, every tenth pinned; two tags.
    init(entries count: Int = 120) throws {
        folder = try TemporaryDirectory()
        model = Self.model()
        url = folder.file("Journal.sqlite")
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        let paris = try context.insert("Tag")
        try paris.set("name", "paris")
        let home = try context.insert("Tag")
        try home.set("name", "home")
        for number in 1...count {
            let entry = try context.insert(number % 10 == 0 ? "PinnedEntry" : "Entry")
            try entry.set("title", number == 1 ? "<script>alert(1)</script>" : "Entry \(number)")
            try entry.setValue(.date(800_000_000 + Double(number) * 3600), forKey: "date")
            if number % 3 != 0 { try entry.setValue(.real(Double(number % 7)), forKey: "score") }
            try entry.setValue(.boolean(number % 2 == 0), forKey: "starred")
            if number == 1 {
                try entry.setValue(.data(Self.png), forKey: "photo")
                try entry.setValue(.string("javascript:alert(2)"), forKey: "link")
                let archive = try NSKeyedArchiver.archivedData(
                    withRootObject: ["mood": "calm"] as NSDictionary, requiringSecureCoding: false)
                try entry.setValue(.data(archive), forKey: "payload")
            }
            if number == 2 {
                try entry.setValue(.data(Data("<svg onload=alert(3)>".utf8)), forKey: "photo")
            }
            try entry.add(number % 2 == 0 ? home : paris, to: "tags")
        }
        try context.save()
        try store.close()
    }

    /// A site on the store.
    func site(_ configure: (inout StoreSite.Options) -> Void = { _ in }) throws -> StoreSite {
        var options = StoreSite.Options()
        configure(&options)
        return try StoreSite(storeAt: url, options: options)
    }
}

extension HTTPResponse {
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// `/entity/Entry?after=…` and the like, as a request.
func webRequest(_ path: String, _ query: [String: String] = [:]) -> HTTPRequest {
    HTTPRequest(path: path, query: query)
}
