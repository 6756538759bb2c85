import Foundation
import StrataDiagram
import StrataMigration
import StrataSchema

/// What a migration of the store to the newest version of `--schemas`
/// would do: its stages and steps with row counts, the preflight's
/// findings, what `--as-core-data` would drop, and the diagram of what
/// changes between the versions. Worked out on the read-only store,
/// without a rehearsal (`strata migrate --dry-run` rehearses).
enum MigrationPage {
    static func body(storeAt url: URL, schemas: URL, chain: SchemaChain) -> String {
        var options = MigrationOptions()
        options.rehearses = false
        let preview: MigrationPreview
        do {
            preview = try Migrator(storeAt: url, schemas: schemas, options: options).preview()
        } catch {
            return "<h1>Migration preview</h1>\n<p class=\"blocking\">"
                + "\(HTML.escape(String(describing: error)))</p>\n"
        }
        var html =
            "<h1>Migration preview</h1>\n<p>The store is at version "
            + "\(preview.currentVersion); the newest version of \(HTML.escape(chain.name)) is "
            + "\(preview.targetVersion).</p>\n"
        for note in preview.versionNotes { html += "<p class=\"muted\">\(HTML.escape(note))</p>\n" }
        if preview.isUpToDate {
            return html + "<p>Nothing to migrate.</p>\n"
        }
        for stage in preview.stages {
            html +=
                "<h2>Stage \(HTML.escape(stage.stage.name)) "
                + "<span class=\"muted\">(\(stage.stage.mode == .inPlace ? "in place" : "on a copy"))</span></h2>\n"
            html +=
                "<table>\n<tr><th>#</th><th>Step</th><th>Kind</th><th>Label</th>"
                + "<th>Objects</th><th>Resolution</th><th>Why</th></tr>\n"
            for (index, step) in stage.steps.enumerated() {
                html +=
                    "<tr><td>\(index + 1)</td><td>\(HTML.escape(step.step.names))</td>"
                    + "<td>\(HTML.escape(step.step.kind.rawValue))</td>"
                    + "<td>\(HTML.escape(step.step.label.text))</td>"
                    + "<td>\(step.rows.map(String.init) ?? "-")</td>"
                    + "<td>\(HTML.escape(step.resolution.rawValue))</td>"
                    + "<td class=\"text\">\(HTML.escape(step.step.reason))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Preflight</h2>\n"
        html += findings(preview.findings, none: "The preflight found nothing in the data.")
        // What Core Data's own lightweight migration would leave behind.
        options.asCoreData = true
        if let lenient = try? Migrator(storeAt: url, schemas: schemas, options: options).preview() {
            html += "<h2>With --as-core-data</h2>\n"
            html += findings(
                lenient.findings.filter(\.isAccepted),
                none: "Nothing would be dropped: --as-core-data accepts no loss here.")
        }
        html += "<h2>What changes</h2>\n"
        do {
            let diagram = try ModelDiagram(
                chain: chain, from: preview.currentVersion, to: preview.targetVersion)
            html += DiagramSVG.render(diagram.dot)
        } catch {
            html += "<p class=\"muted\">\(HTML.escape(String(describing: error)))</p>"
        }
        return html
    }

    private static func findings(_ list: [MigrationPreview.Finding], none: String) -> String {
        guard !list.isEmpty else { return "<p>\(HTML.escape(none))</p>\n" }
        var html = "<ul>\n"
        for finding in list {
            let css = finding.severity == .blocking ? " class=\"blocking\"" : ""
            html +=
                "<li\(css)><strong>\(HTML.escape(finding.severity.rawValue))</strong> "
                + "(stage \(HTML.escape(finding.stage))"
                + (finding.step.map { ", \(HTML.escape($0))" } ?? "") + "): "
                + "\(HTML.escape(finding.message))</li>\n"
        }
        return html + "</ul>\n"
    }
}
