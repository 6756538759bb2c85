import Foundation
import StrataDiagram

/// A diagram as inline SVG: Strata's DOT, laid out by Graphviz's `dot`,
/// with the XML prologue and doctype cut so it can sit inside a page.
enum DiagramSVG {
    /// The SVG element, or a note saying why there is none (no Graphviz).
    static func render(_ dot: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }  // Best effort.
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("diagram.svg")
            try Graphviz.render(dot, as: .svg, to: file)
            let svg = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            guard let start = svg.range(of: "<svg") else { return "" }
            return "<div class=\"diagram\">" + String(svg[start.lowerBound...]) + "</div>"
        } catch {
            return "<p class=\"muted\">No diagram: \(HTML.escape(String(describing: error)))</p>"
        }
    }
}
