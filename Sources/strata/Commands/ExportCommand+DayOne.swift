import Foundation
import Strata

extension ExportCommand {
    /// `--format dayone`: the whole diary as a Day One JSON export zip.
    func exportDayOne(_ opened: Store, model: Model) throws {
        let summary = try DayOneExporter(store: opened, model: model)
            .export(to: URL(fileURLWithPath: output), replacing: force)
        Terminal.output(
            json
                ? try JSONOutput.encode(summary)
                : "Exported \(summary.entries) entries and \(summary.mediaFiles) media files "
                    + "(\(summary.mediaBytes) bytes) to \(output) (Day One JSON, "
                    + "\(summary.zipBytes) bytes"
                    + (summary.generatedUUIDs > 0
                        ? "; \(summary.generatedUUIDs) entries got new uuids" : "") + ")")
    }
}
