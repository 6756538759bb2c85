import Foundation
import Strata

/// The demo's closing report: one line per step with what the step left
/// behind — read back from the stores and the bundle after the step, so
/// the report says what the files hold, not what the step meant to do —
/// and how long the step took.
final class DemoReport {
    /// One step of the demo.
    struct Step {
        let title: String
        let file: String
        let result: String
        /// Nil for a line that shows another file of the step before.
        let seconds: Double?
    }

    private(set) var steps: [Step] = []
    private let started = Date()

    /// Runs `body`, then records `title` with the contents of `path` (a
    /// store's row counts, or a bundle's files) and the time `body` took.
    func step(_ title: String, path: String, _ body: () throws -> Void) throws {
        let start = Date()
        try body()
        let seconds = Date().timeIntervalSince(start)
        steps.append(
            Step(
                title: title, file: URL(fileURLWithPath: path).lastPathComponent,
                result: try Self.contents(of: path), seconds: seconds))
    }

    /// Records another file the step before left behind, untimed.
    func alsoWrote(_ title: String, path: String) throws {
        steps.append(
            Step(
                title: title, file: URL(fileURLWithPath: path).lastPathComponent,
                result: try Self.contents(of: path), seconds: nil))
    }

    /// What the file at `path` holds: `12 Contact, …` for a store, the
    /// media files and bytes for a bundle.
    static func contents(of path: String) throws -> String {
        if path.hasSuffix(".zip") {
            let reader = try ZipReader(contentsOf: URL(fileURLWithPath: path))
            let media = reader.entries.filter { $0.path.hasPrefix("media/") }
            let data = reader.entries.filter { $0.path.hasPrefix("data/") }
            let size =
                (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return "\(data.count) data files, \(media.count) media files, \(size) bytes"
        }
        let store = try Store.open(at: URL(fileURLWithPath: path), mode: .readOnly)
        defer { try? store.close() }  // Only read.
        let info = try store.info(model: try store.resolveModel(schemas: nil).model)
        let counts = info.entities.filter { $0.rows > 0 }.map { "\($0.rows) \($0.name)" }
        return "version \(info.version.map(String.init) ?? "?"): "
            + (counts.isEmpty ? "empty" : counts.joined(separator: ", "))
    }

    /// The report as a table, with the total time.
    func render() -> String {
        var lines = ["== Report: what each step left behind"]
        let width = (steps.map(\.title.count).max() ?? 0) + 2
        let fileWidth = (steps.map(\.file.count).max() ?? 0) + 2
        for step in steps {
            lines.append(
                "  " + step.title.padding(toLength: width, withPad: " ", startingAt: 0)
                    + step.file.padding(toLength: fileWidth, withPad: " ", startingAt: 0)
                    + (step.seconds.map { String(format: "%6.2f s  ", $0) } ?? "          ")
                    + step.result)
        }
        lines.append(
            String(format: "  Total %.2f s", Date().timeIntervalSince(started)))
        return lines.joined(separator: "\n")
    }
}
