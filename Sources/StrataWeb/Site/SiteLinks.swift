import StrataFormats
import StrataStore

/// Where each page and file of the view lives: URLs of the server, or
/// relative paths of a static export. The pages ask this for every link,
/// so the two forms of the site cannot drift apart.
struct SiteLinks: Hashable, Sendable {
    /// The two forms of the site.
    enum Form: Hashable, Sendable {
        /// Served by `strata serve`: absolute paths with query arguments.
        case server
        /// Files of `strata export --format html`, linked relatively from
        /// a page `depth` folders below the site's root.
        case files(depth: Int)
    }

    /// The form links are made for.
    var form: Form

    /// Links of `form`.
    init(_ form: Form) { self.form = form }

    /// Links for a static page at `path` (relative to the site's root).
    static func files(at path: String) -> SiteLinks {
        SiteLinks(.files(depth: path.split(separator: "/").count - 1))
    }

    private var root: String {
        switch form {
        case .server: return "/"
        case .files(let depth): return String(repeating: "../", count: depth)
        }
    }

    /// The model's page.
    var model: String {
        form == .server ? "/" : root + "index.html"
    }

    /// The stylesheet.
    var stylesheet: String { root + "style.css" }

    /// The migration preview.
    var migration: String { form == .server ? "/migration" : root + "migration.html" }

    /// An entity's listing: on the server, with its query arguments
    /// (`arguments` in order, empty values left out); as files, its
    /// `page` (from 1) in key order.
    func entity(_ name: String, arguments: [(String, String)] = [], page: Int = 1) -> String {
        switch form {
        case .server:
            let query = arguments.filter { !$0.1.isEmpty }
                .map { "\($0.0)=\(HTML.percentEncode($0.1))" }.joined(separator: "&")
            return "/entity/\(HTML.percentEncode(name))" + (query.isEmpty ? "" : "?" + query)
        case .files:
            return root + SiteLinks.entityFile(name, page: page)
        }
    }

    /// An object's page.
    func object(_ id: ObjectID, relationship: String? = nil, page: Int = 1) -> String {
        guard let key = id.primaryKey else { return model }
        switch form {
        case .server:
            var link = "/object/\(HTML.percentEncode(id.entityName))/\(key)"
            if let relationship, page > 1 {
                link += "?rel=\(HTML.percentEncode(relationship))&page=\(page)"
            }
            return link
        case .files:
            return root + SiteLinks.objectFile(id)
        }
    }

    /// An attribute's bytes.
    func media(_ id: ObjectID, attribute: String, type: MediaType) -> String {
        guard let key = id.primaryKey else { return model }
        switch form {
        case .server:
            return
                "/media/\(HTML.percentEncode(id.entityName))/\(key)/\(HTML.percentEncode(attribute))"
        case .files:
            return root + SiteLinks.mediaFile(id, attribute: attribute, type: type)
        }
    }

    // MARK: - The files of a static export

    /// The file of an entity's listing page (`entity/Note/index.html`,
    /// `entity/Note/page-2.html`).
    static func entityFile(_ name: String, page: Int) -> String {
        "entity/\(fileName(name))/" + (page <= 1 ? "index.html" : "page-\(page).html")
    }

    /// The file of an object's page (`object/Note/12.html`).
    static func objectFile(_ id: ObjectID) -> String {
        "object/\(fileName(id.entityName))/\(id.primaryKey ?? 0).html"
    }

    /// The file of an attribute's bytes (`media/Medium/3/data.png`).
    static func mediaFile(_ id: ObjectID, attribute: String, type: MediaType) -> String {
        "media/\(fileName(id.entityName))/\(id.primaryKey ?? 0)/"
            + "\(fileName(attribute)).\(type.fileExtension)"
    }

    /// A model name as a file name: itself when it is a plain identifier
    /// (as Core Data's names are), else `x` and its UTF-8 bytes in hex, so
    /// that no name from a store can leave its folder or need escaping in
    /// a link.
    static func fileName(_ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
                    || ($0 >= 0x61 && $0 <= 0x7A)
                    || $0 == 0x5F
            }
        return plain
            ? name
            : "x"
                + name.utf8.map { String($0, radix: 16) }.map {
                    $0.count == 1 ? "0" + $0 : $0
                }.joined()
    }
}
