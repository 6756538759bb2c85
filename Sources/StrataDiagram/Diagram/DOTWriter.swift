/// Writes a ``DiagramGraph`` as Graphviz DOT: each box a node whose
/// HTML-like label is a table (a title row, the attributes, the
/// relationships), each edge with Graphviz's arrowheads.
///
/// Layout is left to Graphviz. Every name is escaped (``DOTText``); node
/// identifiers are the entity names, made unique should two boxes share one
/// (a removed entity and a new one of the same name).
enum DOTWriter {
    static func dot(_ graph: DiagramGraph) -> String {
        let identifiers = uniqueIdentifiers(graph.nodes.map(\.name))
        var lines = [
            "digraph \(DOTText.quoted(graph.title)) {",
            "  graph [fontname=\"Helvetica\", fontsize=12, labelloc=t, nodesep=0.5, ranksep=0.7,",
            "         label=<\(caption(graph))>];",
            "  node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
            "  edge [fontname=\"Helvetica\", arrowsize=0.8, color=\"#555555\"];",
        ]
        for (index, node) in graph.nodes.enumerated() {
            lines.append("  \(identifiers[index]) [label=<\(table(node))>];")
        }
        for edge in graph.edges {
            lines.append(
                "  \(endpoint(edge.from, identifiers)) -> \(endpoint(edge.to, identifiers))"
                    + " [\(attributes(edge).joined(separator: ", "))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The name of a relationship row's port: its position, so that no name
    /// from a file becomes a port.
    static func port(_ row: Int) -> String { "r\(row)" }

    private static func endpoint(_ end: DiagramGraph.Endpoint, _ identifiers: [String]) -> String {
        identifiers[end.node] + (end.port.map { ":" + port($0) } ?? "")
    }

    private static func attributes(_ edge: DiagramGraph.Edge) -> [String] {
        var attributes: [String]
        switch edge.kind {
        case .inheritance:
            attributes = ["arrowhead=empty", "arrowsize=1.2"]
        case .relationship(let head, let tail?):
            attributes = ["dir=both", "arrowhead=\(head.arrow)", "arrowtail=\(tail.arrow)"]
        case .relationship(let head, nil):
            attributes = ["arrowhead=\(head.arrow)"]
        }
        if let change = edge.change {
            attributes.append("color=\"\(change.color)\"")
            attributes.append("penwidth=2")
            if change == .removed { attributes.append("style=dashed") }
        }
        return attributes
    }

    private static func caption(_ graph: DiagramGraph) -> String {
        var text = "<B>\(DOTText.html(graph.title))</B>"
        if graph.hasLegend {
            let legend = [DiagramChange.added, .removed, .renamed(from: "")].map {
                "<FONT COLOR=\"\($0.color)\">\($0.word)</FONT>"
            }
            text += "<BR/>" + legend.joined(separator: " · ")
        }
        return text
    }

    private static func table(_ node: DiagramGraph.Node) -> String {
        let border = node.change?.color ?? "#555555"
        let fill = node.change?.fill ?? "#ffffff"
        var title = DOTText.html(node.name)
        if node.isAbstract { title = "<I>\(title)</I>" }
        title = "<B>\(title)</B>"
        if node.change == .removed { title = "<S>\(title)</S>" }
        if case .renamed(let former) = node.change {
            title += "<BR/><FONT POINT-SIZE=\"9\">was \(DOTText.html(former))</FONT>"
        }
        let header = node.change.map { headerFill($0) } ?? "#dde6f0"
        var rows = [
            "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" "
                + "COLOR=\"\(border)\" BGCOLOR=\"\(fill)\">",
            "<TR><TD COLSPAN=\"2\" BGCOLOR=\"\(header)\">\(title)</TD></TR>",
        ]
        let sections = [
            node.attributes.map { row($0, port: nil) },
            node.relationships.enumerated().map { row($1, port: $0) },
        ].filter { !$0.isEmpty }
        for section in sections {
            rows.append("<HR/>")
            rows += section
        }
        rows.append("</TABLE>")
        return rows.joined()
    }

    private static func headerFill(_ change: DiagramChange) -> String {
        switch change {
        case .added: "#a5d6a7"
        case .removed: "#ef9a9a"
        case .renamed: "#ffd77a"
        }
    }

    private static func row(_ row: DiagramGraph.Row, port: Int?) -> String {
        var name = DOTText.html(row.name)
        var detail = "<FONT COLOR=\"#666666\">\(DOTText.html(row.detail))</FONT>"
        var fill = ""
        if let change = row.change {
            fill = " BGCOLOR=\"\(change.fill)\""
            name = "<FONT COLOR=\"\(change.color)\">\(name)</FONT>"
            switch change {
            case .removed:
                name = "<S>\(name)</S>"
                detail = "<S>\(detail)</S>"
            case .renamed(let former):
                detail +=
                    "<FONT COLOR=\"\(change.color)\" POINT-SIZE=\"9\"> (was "
                    + "\(DOTText.html(former)))</FONT>"
            case .added:
                break
            }
        }
        let portAttribute = port.map { " PORT=\"\(Self.port($0))\"" } ?? ""
        return "<TR><TD ALIGN=\"LEFT\"\(fill)>\(name)</TD>"
            + "<TD ALIGN=\"LEFT\"\(fill)\(portAttribute)>\(detail)</TD></TR>"
    }

    /// Quoted identifiers for `names`, a repeated one given a ` (2)`, ` (3)`…
    private static func uniqueIdentifiers(_ names: [String]) -> [String] {
        var taken: Set<String> = []
        return names.map { name in
            var candidate = DOTText.quoted(name)
            var counter = 1
            while !taken.insert(candidate).inserted {
                counter += 1
                candidate = DOTText.quoted("\(name) (\(counter))")
            }
            return candidate
        }
    }
}
