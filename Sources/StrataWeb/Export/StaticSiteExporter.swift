import Foundation
import StrataContext
import StrataCore
import StrataDiagram
import StrataFormats
import StrataQuery
import StrataSchema
import StrataStore

/// The web view's pages as a static site: `index.html` (the model), a
/// listing per entity, a page per object, media files beside them, all
/// linked relatively, so the folder reads from `file://` in any browser
/// with no server (`strata export --format html`).
///
/// The bytes are deterministic: the same store gives the same files.
/// Pages are written one at a time, so memory does not grow with the
/// store; the folder is built beside `destination` and renamed into place
/// when complete.
///
/// ```swift
/// let exporter = try StaticSiteExporter(storeAt: URL(fileURLWithPath: "Diary.sqlite"))
/// let summary = try exporter.export(to: URL(fileURLWithPath: "Diary-site"))
/// print(summary.pages, summary.mediaFiles)
/// ```
public struct StaticSiteExporter {
    /// What an export wrote.
    public struct Summary: Hashable, Sendable, Codable {
        /// HTML pages.
        public var pages = 0
        /// Media files.
        public var mediaFiles = 0
        /// Bytes of every file written.
        public var bytes: Int64 = 0
    }

    private let site: StoreSite

    /// Prepares the export of the store at `url`, read-only.
    ///
    /// - Throws: as ``StoreSite/init(storeAt:options:)``.
    public init(storeAt url: URL, options: StoreSite.Options = StoreSite.Options()) throws {
        var options = options
        options.token = nil
        options.readers = 1
        site = try StoreSite(storeAt: url, options: options)
    }

    /// Writes the site into the folder `destination`, which must not exist
    /// or be empty unless `replacing` (then it is replaced whole, once the
    /// new site is complete).
    ///
    /// - Throws: ``ExportError`` (`alreadyExists`, `unwritable`) for the
    ///   folder; store errors.
    @discardableResult
    public func export(to destination: URL, replacing: Bool = false) throws -> Summary {
        let folder = try ExportFolder(path: destination.relativePath, replacing: replacing)
        var summary = Summary()
        func write(_ path: String, _ bytes: Data) throws {
            try folder.write(relativePath: path, bytes: bytes)
            if path.hasSuffix(".html") { summary.pages += 1 }
            if path.hasPrefix("media/") { summary.mediaFiles += 1 }
        }
        try write("style.css", Data(Stylesheet.text.utf8))
        try write(
            "index.html",
            page(
                "Model", at: "index.html",
                body: try site.modelBody(SiteLinks.files(at: "index.html"))))
        if let schemas = site.options.schemas, let chain = site.chain {
            try write(
                "migration.html",
                page(
                    "Migration preview", at: "migration.html",
                    body: MigrationPage.body(storeAt: site.url, schemas: schemas, chain: chain)))
        }
        try site.withReader { reader in
            for entity in reader.model.entities {
                try writeListing(of: entity, reader: reader, write: write)
                try writeObjects(of: entity, reader: reader, write: write)
            }
        }
        try folder.commit()
        summary.bytes = folder.written
        return summary
    }

    private func page(_ title: String, at path: String, body: String) -> Data {
        Data(site.frame.render(title: title, links: SiteLinks.files(at: path), body: body).utf8)
    }

    /// The entity's listing, subentities included, in pages of
    /// ``EntityPage/pageSize`` in key order.
    private func writeListing(
        of entity: Entity, reader: SiteReader, write: (String, Data) throws -> Void
    )
        throws
    {
        let request = FetchRequest(entity: entity.name)
        let total = site.objectCount(of: entity.name)
        let pages = max(1, (total + EntityPage.pageSize - 1) / EntityPage.pageSize)
        var start = FetchPageStart.first
        for number in 1...pages {
            let objects = try reader.context.fetchPage(
                request, from: start, limit: EntityPage.pageSize)
            let path = SiteLinks.entityFile(entity.name, page: number)
            let body = EntityPage.fileBody(
                entity: entity, objects: objects, page: number, pages: pages, total: total,
                reader: reader, links: SiteLinks.files(at: path))
            try write(path, page(entity.name, at: path, body: body))
            guard let last = objects.last else { break }
            start = .after(last.objectID)
            reader.context.reset()
        }
    }

    /// A page per object of exactly `entity`, with its media files.
    private func writeObjects(
        of entity: Entity, reader: SiteReader, write: (String, Data) throws -> Void
    )
        throws
    {
        var request = FetchRequest(entity: entity.name)
        request.includesSubentities = false
        let binary = reader.entities[entity.name].stored.filter {
            $0.type == .binary || $0.type == .transformable
        }
        var start = FetchPageStart.first
        while true {
            let objects = try reader.context.fetchPage(request, from: start, limit: 100)
            guard let last = objects.last else { break }
            let ids = objects.map(\.objectID)
            for id in ids {
                let path = SiteLinks.objectFile(id)
                let object = try reader.context.object(with: id)
                for attribute in binary {
                    guard case .data(let bytes)? = try object.value(forKey: attribute.name) else {
                        continue
                    }
                    // A transformable shown as JSON has no file.
                    if attribute.type == .transformable, (try? RecordValue(archive: bytes)) != nil {
                        continue
                    }
                    try write(
                        SiteLinks.mediaFile(
                            id, attribute: attribute.name, type: MediaType.sniff(bytes)),
                        bytes)
                }
                let body = try ObjectPage.body(
                    id, reader: reader, links: SiteLinks.files(at: path), allDestinations: true)
                try write(path, page(id.description, at: path, body: body))
            }
            start = .after(last.objectID)
            reader.context.reset()
        }
    }
}
