import StrataCore
import StrataStore

/// The model's page: the store's version, hashes and integrity, its
/// entities with their counts, and the diagram.
enum ModelPage {
    static func body(info: StoreInfo, diagram: String, links: SiteLinks) -> String {
        var html = "<h1>\(HTML.escape(info.model ?? "Store"))"
        if let version = info.version { html += ", version \(version)" }
        html += "</h1>\n<table>\n"
        let integrity = info.integrity == ["ok"] ? "ok" : info.integrity.joined(separator: "; ")
        let facts: [(String, String)] = [
            ("Store", info.path.split(separator: "/").last.map(String.init) ?? info.path),
            ("UUID", info.uuid),
            ("Version identifier", info.versionIdentifiers.first ?? ""),
            ("Model from", modelSource(info)),
            ("Size", ByteCount.format(info.fileSize)),
            ("Integrity", integrity + " (SQLite's integrity check, when the view started)"),
        ]
        for (name, value) in facts where !value.isEmpty {
            html += "<tr><th>\(HTML.escape(name))</th><td>\(HTML.escape(value))</td></tr>\n"
        }
        html += "</table>\n<h2>Entities</h2>\n<table>\n"
        html += "<tr><th>Z_ENT</th><th>Entity</th><th>Objects</th><th>Version hash</th></tr>\n"
        for entity in info.entities {
            var name = HTML.link(links.entity(entity.name), entity.name)
            if let parent = entity.parent {
                name += " <span class=\"muted\">: \(HTML.escape(parent))</span>"
            }
            html +=
                "<tr><td>\(entity.number)</td><td>\(name)</td><td>\(entity.rows)</td>"
                + "<td class=\"type\">\(HTML.escape(entity.versionHash ?? "-"))</td></tr>\n"
        }
        html += "</table>\n<h2>Diagram</h2>\n\(diagram)\n"
        return html
    }

    private static func modelSource(_ info: StoreInfo) -> String {
        switch info.modelSource {
        case .schema: return "the schema folder given (--schemas)"
        case .storedSchema: return "the schema Strata stored in the store"
        case .modelCache: return "the store's Core Data model cache"
        case .metadata: return "the store's metadata"
        }
    }
}
