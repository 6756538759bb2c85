import StrataContext
import StrataFormats
import StrataSchema
import StrataStore

/// One object: every attribute rendered by its type, every relationship as
/// links (to-many ones paged, ordered ones in their order) with its
/// inverse named.
enum ObjectPage {
    /// Destinations of a to-many shown per page.
    static let pageSize = 50

    /// The page of the object with `id`; `relationship` and `page` page
    /// through one to-many (the others show their first page).
    static func body(
        _ id: ObjectID, reader: SiteReader, links: SiteLinks,
        paging pagedRelationship: String? = nil,
        page: Int = 1, allDestinations: Bool = false
    ) throws -> String {
        let object: ManagedObject
        do {
            object = try reader.context.object(with: id)
        } catch let error as ContextError
            where error.code == .objectNotFound || error.code == .unknownEntity
        {
            throw SiteError.notFound("no object \(id)")
        }
        defer { reader.context.reset() }
        let entity = object.entityName
        var html = "<h1>" + HTML.escape(label(object, reader: reader)) + "</h1>\n"
        html +=
            "<p class=\"muted\">" + HTML.link(links.entity(entity), entity)
            + " · \(HTML.escape(id.description))</p>\n"
        html += "<h2>Attributes</h2>\n<table class=\"attributes\">\n"
        // Attributes without a value in one row: a diary entry has thirty,
        // most of them empty.
        var empty: [String] = []
        for attribute in reader.entities[entity].shown {
            let value = try object.value(forKey: attribute.name)
            guard value != nil else {
                empty.append(attribute.name)
                continue
            }
            let shown = ValueHTML.full(value, attribute: attribute) { type in
                links.media(id, attribute: attribute.name, type: type)
            }
            html +=
                "<tr><th>\(HTML.escape(attribute.name))<br><span class=\"type\">"
                + "\(HTML.escape(attribute.type.rawValue))</span></th>"
                + "<td class=\"text\">\(shown)</td></tr>\n"
        }
        if !empty.isEmpty {
            html +=
                "<tr><th class=\"muted\">no value</th><td class=\"muted\">"
                + HTML.escape(empty.joined(separator: ", ")) + "</td></tr>\n"
        }
        html += "</table>\n"
        let relationships = reader.entities[entity].relationships
        if !relationships.isEmpty {
            html += "<h2>Relationships</h2>\n<table class=\"relationships\">\n"
        }
        for relationship in relationships {
            var kind =
                relationship.isToMany
                ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
            kind += " → \(relationship.destination)"
            if relationship.hasInverse { kind += ", inverse \(relationship.inverse)" }
            html +=
                "<tr><th>\(HTML.escape(relationship.name))<br><span class=\"type\">"
                + "\(HTML.escape(kind))</span></th><td>"
            if relationship.isToMany {
                let ids = try object.objectIDs(forKey: relationship.name)
                let pages = max(1, (ids.count + pageSize - 1) / pageSize)
                let shownPage =
                    !allDestinations && relationship.name == pagedRelationship
                    ? min(max(1, page), pages) : 1
                let slice =
                    allDestinations
                    ? ids[...] : ids.dropFirst((shownPage - 1) * pageSize).prefix(pageSize)
                html +=
                    "<span class=\"muted\">\(ids.count) object\(ids.count == 1 ? "" : "s")</span>"
                if !slice.isEmpty { html += "<ul>" }
                for destination in slice {
                    let linked = try reader.context.object(with: destination)
                    html +=
                        "<li>" + HTML.link(links.object(destination), label(linked, reader: reader))
                        + picture(of: linked, reader: reader, links: links) + "</li>"
                }
                if !slice.isEmpty { html += "</ul>" }
                if !allDestinations, pages > 1 {
                    html += PageNavigation.numbered(page: shownPage, of: pages) {
                        links.object(id, relationship: relationship.name, page: $0)
                    }
                }
            } else if let destination = try object.object(forKey: relationship.name) {
                html +=
                    HTML.link(
                        links.object(destination.objectID), label(destination, reader: reader))
                    + picture(of: destination, reader: reader, links: links)
            } else {
                html += "<span class=\"null\">nil</span>"
            }
            html += "</td></tr>\n"
        }
        if !relationships.isEmpty { html += "</table>\n" }
        return html
    }

    /// The first picture `object` holds (a binary attribute whose bytes a
    /// browser decodes), shown small beside a link to it: a diary entry's
    /// page shows its photos. Empty when it holds none.
    static func picture(of object: ManagedObject, reader: SiteReader, links: SiteLinks) -> String {
        for attribute in reader.entities[object.entityName].stored
        where attribute.type == .binary {
            guard case .data(let bytes)? = try? object.value(forKey: attribute.name) else {
                continue
            }
            let type = MediaType.sniff(bytes)
            guard type.presentation == .image else { continue }
            let link = HTML.escape(
                links.media(object.objectID, attribute: attribute.name, type: type))
            return " <a href=\"\(link)\"><img class=\"thumb\" src=\"\(link)\" alt=\"\"></a>"
        }
        return ""
    }

    /// What a link to `object` reads: its entity, key and the first of
    /// its `title`, `name` or other text attributes, cut at 60 characters.
    static func label(_ object: ManagedObject, reader: SiteReader) -> String {
        let base = "\(object.entityName) \(object.objectID.primaryKey ?? 0)"
        let texts = reader.entities[object.entityName].stored.filter { $0.type == .string }
        let preferred =
            texts.first { ["title", "name", "displayName", "label"].contains($0.name) }
            ?? texts.first
        guard let preferred, case .string(let text)? = try? object.value(forKey: preferred.name),
            !text.isEmpty
        else { return base }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return base + ": " + (line.count > 60 ? String(line.prefix(60)) + "…" : line)
    }
}
