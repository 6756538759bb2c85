import StrataContext
import StrataQuery
import StrataSchema
import StrataStore

/// An entity's objects as a table, subentities included as Core Data
/// fetches them: on the server paged by keyset (`after`/`before` an
/// object), sorted by any attribute (`sort`, `order=desc`) and filtered by
/// a predicate (`where`); in a static export, pages of ``pageSize`` in key
/// order.
enum EntityPage {
    /// Objects per page.
    static let pageSize = 50

    /// What a request to the entity's page asks for.
    struct Query {
        var sort: String?
        var descending = false
        var predicate: String?
        var start: FetchPageStart = .first

        init(_ request: HTTPRequest) {
            sort = request.query["sort"].flatMap { $0.isEmpty ? nil : $0 }
            descending = request.query["order"] == "desc"
            predicate = request.query["where"].flatMap {
                $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0
            }
            if let after = request.query["after"], let id = ObjectID(description: after) {
                start = .after(id)
            } else if let before = request.query["before"], let id = ObjectID(description: before) {
                start = .before(id)
            } else if request.query["last"] != nil {
                start = .last
            }
        }

        /// The arguments that keep the sort and the filter across links.
        var kept: [(String, String)] {
            [("sort", sort ?? ""), ("order", descending ? "desc" : ""), ("where", predicate ?? "")]
        }
    }

    /// The page the server shows.
    static func serverBody(
        entity: String, query: Query, reader: SiteReader, links: SiteLinks,
        objectCount: Int
    ) throws -> String {
        guard let described = reader.model.entity(named: entity) else {
            throw SiteError.notFound("no entity '\(entity)'")
        }
        var request = FetchRequest(entity: entity)
        var html = heading(described, links: links)
        html += whereForm(entity: entity, query: query, links: links)
        if let predicate = query.predicate {
            do {
                let parsed = try FetchPredicate(
                    predicate, textArguments: [], entity: entity, model: reader.model)
                try parsed.check(entity: entity, model: reader.model, format: predicate)
                request.predicate = parsed
            } catch let error as FetchPredicateError {
                return html + predicateError(predicate, column: error.column, error.message)
            } catch let error as PredicateSyntaxError {
                return html + predicateError(predicate, column: error.column, error.message)
            }
        }
        if let sort = query.sort {
            guard reader.entities[entity].stored.contains(where: { $0.name == sort }) else {
                return html
                    + "<p class=\"blocking\">No attribute '\(HTML.escape(sort))' to sort by.</p>"
            }
            request.sortDescriptors = [SortDescriptor(sort, ascending: !query.descending)]
        }
        // Without a predicate, the objects counted when the view started.
        let total = request.predicate == nil ? objectCount : try reader.context.count(request)
        html += "<p>\(total) object\(total == 1 ? "" : "s")"
        html += query.predicate == nil ? "" : " matching"
        html += "</p>\n"
        let objects: [ManagedObject]
        do {
            objects = try reader.context.fetchPage(request, from: query.start, limit: pageSize + 1)
        } catch let error as ContextError
            where error.code == .objectNotFound || error.code == .unknownEntity
        {
            throw SiteError.notFound("the page starts at an object that is not in the store")
        }
        // One more than a page tells whether there is a page beyond.
        let backwards: Bool
        switch query.start {
        case .first, .after: backwards = false
        case .last, .before: backwards = true
        }
        let more = objects.count > pageSize
        let shown =
            more
            ? (backwards ? Array(objects.dropFirst()) : Array(objects.prefix(pageSize))) : objects
        html += table(shown, entity: entity, reader: reader, links: links, query: query)
        // Where the neighbours are: backwards, the page read reaches the
        // start only when nothing was left over.
        let hasPrevious: Bool
        let hasNext: Bool
        switch query.start {
        case .first: (hasPrevious, hasNext) = (false, more)
        case .after: (hasPrevious, hasNext) = (true, more)
        case .last: (hasPrevious, hasNext) = (more, false)
        case .before: (hasPrevious, hasNext) = (more, true)
        }
        let kept = query.kept
        html +=
            PageNavigation.render([
                ("First", links.entity(entity, arguments: kept)),
                (
                    "← Previous",
                    hasPrevious
                        ? shown.first.map {
                            links.entity(
                                entity, arguments: kept + [("before", $0.objectID.description)])
                        } : nil
                ),
                (
                    "Next →",
                    hasNext
                        ? shown.last.map {
                            links.entity(
                                entity, arguments: kept + [("after", $0.objectID.description)])
                        } : nil
                ),
                ("Last", links.entity(entity, arguments: kept + [("last", "1")])),
            ]) + "\n"
        reader.context.reset()
        return html
    }

    /// A page of a static export: `objects` (one page, in key order) of
    /// `pages` in all.
    static func fileBody(
        entity: Entity, objects: [ManagedObject], page: Int, pages: Int, total: Int,
        reader: SiteReader, links: SiteLinks
    ) -> String {
        var html = heading(entity, links: links)
        html += "<p>\(total) object\(total == 1 ? "" : "s")</p>\n"
        html += table(objects, entity: entity.name, reader: reader, links: links, query: nil)
        if pages > 1 {
            html +=
                PageNavigation.numbered(page: page, of: pages) {
                    links.entity(entity.name, page: $0)
                } + "\n"
        }
        return html
    }

    private static func heading(_ entity: Entity, links: SiteLinks) -> String {
        var html = "<h1>\(HTML.escape(entity.name))"
        if let parent = entity.parent {
            html += " <span class=\"muted\">: </span>" + HTML.link(links.entity(parent), parent)
        }
        return html + "</h1>\n"
    }

    private static func whereForm(entity: String, query: Query, links: SiteLinks) -> String {
        var html =
            "<form class=\"where\" method=\"get\" action=\"\(HTML.escape(links.entity(entity)))\">"
            + "<input type=\"text\" name=\"where\" placeholder=\"title CONTAINS[cd] &quot;paris&quot;\" "
            + "value=\"\(HTML.escape(query.predicate ?? ""))\" aria-label=\"Predicate\">"
        if let sort = query.sort {
            html += "<input type=\"hidden\" name=\"sort\" value=\"\(HTML.escape(sort))\">"
        }
        if query.descending { html += "<input type=\"hidden\" name=\"order\" value=\"desc\">" }
        return html + " <button type=\"submit\">Filter</button></form>\n"
    }

    /// The predicate as typed, a caret under the column of the error, and
    /// the message.
    static func predicateError(_ predicate: String, column: Int, _ message: String) -> String {
        "<pre class=\"error\">\(HTML.escape(PredicateSyntaxError.pointer(predicate, column: column)))"
            + "\n\(HTML.escape(message))</pre>\n"
    }

    private static func table(
        _ objects: [ManagedObject], entity: String, reader: SiteReader, links: SiteLinks,
        query: Query?
    ) -> String {
        let attributes = reader.entities[entity].shown
        let showsEntity = (reader.entities[entity].tree.count > 1)
        var html = "<table class=\"objects\">\n<tr><th>Object</th>"
        if showsEntity { html += "<th>Entity</th>" }
        for attribute in attributes {
            if let query {
                // A header sorts by its attribute; again, the other way.
                let descending = query.sort == attribute.name && !query.descending
                let arguments = [
                    ("sort", attribute.name), ("order", descending ? "desc" : ""),
                    ("where", query.predicate ?? ""),
                ]
                var mark = ""
                if query.sort == attribute.name { mark = query.descending ? " ↓" : " ↑" }
                html +=
                    "<th>" + HTML.link(links.entity(entity, arguments: arguments), attribute.name)
                    + mark + "</th>"
            } else {
                html += "<th>\(HTML.escape(attribute.name))</th>"
            }
        }
        html += "</tr>\n"
        for object in objects {
            html +=
                "<tr><td>"
                + HTML.link(links.object(object.objectID), "\(object.objectID.primaryKey ?? 0)")
                + "</td>"
            if showsEntity { html += "<td>\(HTML.escape(object.entityName))</td>" }
            for attribute in attributes {
                let value = try? object.value(forKey: attribute.name)
                html +=
                    "<td class=\"text\">\(ValueHTML.cell(value ?? nil, attribute: attribute))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }
}
