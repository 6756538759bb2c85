import Foundation
import StrataContext
import StrataDiagram
import StrataFormats
import StrataSchema
import StrataStore

/// The read-only web view of one store: a request in, a page out.
///
/// Pages are rendered from ``SiteReader``s, each a read-only connection
/// used by one request at a time; a store opened immutable gets one per
/// worker thread, a WAL store (read from a private snapshot of its log)
/// one in all. What changes seldom — the model page's facts and integrity
/// check, the diagram, the migration preview — is worked out once.
///
/// ```swift
/// let site = try StoreSite(storeAt: URL(fileURLWithPath: "Diary.sqlite"))
/// let page = site.respond(HTTPRequest(path: "/"))
/// print(page.status)  // 200
/// ```
public final class StoreSite: @unchecked Sendable {
    /// How a site is set up.
    public struct Options: Sendable {
        /// The model folder (`--schemas`): the version matching the store
        /// reads it, and the migration preview goes to its newest version.
        public var schemas: URL?
        /// The schemas loaded from ``schemas``, when the caller has them.
        public var chain: SchemaChain?
        /// The token every request must carry (`?token=`, the cookie the
        /// first such request sets, or `Authorization: Bearer`); nil: none,
        /// and then only requests to the loopback's names (`Host:`
        /// 127.0.0.1, [::1] or localhost) are answered.
        public var token: String?
        /// The name the header shows; nil: the store's file name.
        public var title: String?
        /// Readers at most (one per worker thread of the server).
        public var readers = 4

        /// The default options: no schemas, no token.
        public init() {}
    }

    let url: URL
    let options: Options
    let frame: PageFrame
    private let lock = NSLock()
    private var idle: [SiteReader] = []
    private var made = 0
    private let maximumReaders: Int
    private var cachedModelBody: String?
    private var cachedMigrationBody: String?

    /// Opens the store at `url` read-only and checks that a model reads it.
    ///
    /// - Throws: ``StoreError`` when the file is not a store or no model
    ///   matches it.
    public init(storeAt url: URL, options: Options = Options()) throws {
        self.url = try StorePath.resolve(url)
        self.options = options
        var options = options
        if options.chain == nil, let schemas = options.schemas {
            options.chain = try SchemaChain.load(directory: schemas)
        }
        let first = try SiteReader(storeAt: self.url, chain: options.chain)
        idle = [first]
        made = 1
        // A WAL store is read from a private snapshot, copied on open: one
        // copy serves every request.
        maximumReaders = first.store.readsSnapshot ? 1 : max(1, options.readers)
        frame = PageFrame(
            siteName: options.title ?? self.url.lastPathComponent,
            hasMigration: options.schemas != nil)
        chain = options.chain
        model = first.model
        entities = first.entities
        // Counted once: a count that SQLite cannot take from the table's
        // b-tree alone (`WHERE Z_ENT IN …`) reads every row, 50 ms for a
        // million, on every page otherwise.
        rowCounts = try first.store.rowCounts()
    }

    /// The rows of each entity (its own, not its subentities') when the
    /// view started.
    let rowCounts: [String: Int64]
    /// What the pages need of each entity.
    let entities: SiteEntities

    /// The objects a fetch of `entity` finds (its subentities' included),
    /// counted when the view started.
    func objectCount(of entity: String) -> Int {
        Int(entities[entity].tree.reduce(Int64(0)) { $0 + (rowCounts[$1] ?? 0) })
    }

    /// The schemas loaded from ``Options/schemas``.
    let chain: SchemaChain?
    /// The model the store is read with.
    let model: Model

    // MARK: - Readers

    private let available = NSCondition()

    /// Runs `body` with a reader of its own: an idle one, a new one while
    /// there are fewer than the maximum, or the next one given back.
    func withReader<T>(_ body: (SiteReader) throws -> T) throws -> T {
        let reader = try takeReader()
        defer {
            reader.context.reset()
            available.lock()
            idle.append(reader)
            available.signal()
            available.unlock()
        }
        return try body(reader)
    }

    private func takeReader() throws -> SiteReader {
        available.lock()
        defer { available.unlock() }
        while true {
            if let next = idle.popLast() { return next }
            if made < maximumReaders {
                made += 1
                do {
                    return try SiteReader(storeAt: url, chain: chain, entities: entities)
                } catch {
                    made -= 1
                    throw error
                }
            }
            available.wait()
        }
    }

    // MARK: - Answering

    /// The response to `request`: a page, the stylesheet, an attribute's
    /// bytes, or an error page (404 for anything not found, 401 without
    /// the token, 500 for a store that cannot be read).
    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        // Without a token only the loopback's own names are answered: a web
        // page whose name an attacker points at 127.0.0.1 (DNS rebinding)
        // gets nothing.
        if options.token == nil, let host = request.headers["host"], !Self.isLoopbackName(host) {
            return .text(
                "This view answers only to 127.0.0.1, [::1] or localhost; give a token to serve "
                    + "it under other names.\n", status: 421)
        }
        var setCookie: String?
        if let token = options.token {
            switch TokenCheck.check(request, token: token) {
            case .refused:
                return errorPage(
                    401, "Token needed",
                    "<p>Open the address <code>strata serve</code> printed, with its "
                        + "<code>?token=</code>.</p>")
            case .fromQuery:
                setCookie = "strata_token=\(token); Path=/; HttpOnly; SameSite=Strict"
            case .fromCookieOrHeader:
                break
            }
        }
        var response = route(request)
        if let setCookie { response.headers.append(("Set-Cookie", setCookie)) }
        return response
    }

    /// Whether a `Host` header names the loopback (any port).
    static func isLoopbackName(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            name = String(name.prefix { $0 != "]" }.dropFirst())
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let links = SiteLinks(.server)
        let parts = request.pathComponents
        // No component is ever joined into a path; dots are simply unknown.
        do {
            switch parts.first {
            case nil:
                return .html(frame.render(title: "Model", links: links, body: try modelBody(links)))
            case "style.css" where parts.count == 1:
                return HTTPResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/css; charset=utf-8"),
                        ("Cache-Control", "max-age=300"),
                    ],
                    body: Data(Stylesheet.text.utf8))
            case "entity" where parts.count == 2:
                let body = try withReader { reader in
                    try EntityPage.serverBody(
                        entity: parts[1], query: EntityPage.Query(request),
                        reader: reader, links: links, objectCount: objectCount(of: parts[1]))
                }
                return .html(frame.render(title: parts[1], links: links, body: body))
            case "object" where parts.count == 3:
                let id = try objectID(parts[1], parts[2])
                let page = request.query["page"].flatMap { Int($0) } ?? 1
                let body = try withReader { reader in
                    try ObjectPage.body(
                        id, reader: reader, links: links, paging: request.query["rel"], page: page)
                }
                return .html(frame.render(title: id.description, links: links, body: body))
            case "media" where parts.count == 4:
                let id = try objectID(parts[1], parts[2])
                return try withReader { reader in
                    try media(
                        id, attribute: parts[3], reader: reader, range: request.headers["range"])
                }
            case "migration" where parts.count == 1:
                guard let schemas = options.schemas, let chain else { break }
                let body =
                    lock.withLock { cachedMigrationBody }
                    ?? {
                        let made = MigrationPage.body(storeAt: url, schemas: schemas, chain: chain)
                        lock.withLock { cachedMigrationBody = made }
                        return made
                    }()
                return .html(frame.render(title: "Migration preview", links: links, body: body))
            default:
                break
            }
            throw SiteError.notFound("no page \(request.path)")
        } catch SiteError.notFound(let message) {
            return errorPage(404, "Not found", "<p>\(HTML.escape(message))</p>")
        } catch {
            return errorPage(
                500, "Cannot read the store",
                "<pre class=\"error\">\(HTML.escape(String(describing: error)))</pre>")
        }
    }

    /// A page of `status` headed `title`, with `body` (HTML) below.
    private func errorPage(_ status: Int, _ title: String, _ body: String) -> HTTPResponse {
        .html(
            frame.render(
                title: title, links: SiteLinks(.server),
                body: "<h1>\(HTML.escape(title))</h1>" + body),
            status: status)
    }

    /// An object id from a URL's entity and key: the entity must be one
    /// of the model's, the key a positive integer.
    private func objectID(_ entity: String, _ key: String) throws -> ObjectID {
        guard key.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int64(key),
            number > 0,
            let id = ObjectID(description: "\(entity)/p\(number)"),
            model.entity(named: entity) != nil
        else { throw SiteError.notFound("no object \(entity)/\(key)") }
        return id
    }

    private func media(_ id: ObjectID, attribute name: String, reader: SiteReader, range: String?)
        throws -> HTTPResponse
    {
        guard
            let attribute = reader.entities[id.entityName].stored.first(where: {
                $0.name == name
            }),
            attribute.type == .binary || attribute.type == .transformable
        else { throw SiteError.notFound("no binary attribute '\(name)' of \(id.entityName)") }
        let object: ManagedObject
        do {
            object = try reader.context.object(with: id)
        } catch let error as ContextError where error.code == .objectNotFound {
            throw SiteError.notFound("no object \(id)")
        }
        guard case .data(let bytes)? = try object.value(forKey: name) else {
            throw SiteError.notFound("\(id) has no \(name)")
        }
        let type = MediaType.sniff(bytes)
        return MediaResponse.response(
            bytes, type: type,
            name: "\(SiteLinks.fileName(id.entityName))-\(id.primaryKey ?? 0)-"
                + SiteLinks.fileName(name), range: range)
    }

    // MARK: - The model's page

    /// The model page's body, made once: its counts and integrity are the
    /// store's when the view started.
    func modelBody(_ links: SiteLinks) throws -> String {
        if let body = lock.withLock({ cachedModelBody }) { return body }
        let body = try withReader { reader in
            let info = try reader.store.info(model: reader.model, source: reader.modelSource)
            return ModelPage.body(
                info: info, diagram: DiagramSVG.render(ModelDiagram(model: reader.model).dot),
                links: links)
        }
        lock.withLock { cachedModelBody = body }
        return body
    }
}
