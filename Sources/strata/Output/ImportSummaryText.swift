import Foundation
import Strata

/// The final line of `strata import`.
enum ImportSummaryText {
    static func render(_ summary: ImportSummary, store: String) -> String {
        let verb = summary.isDryRun ? "Checked (dry run, nothing written)" : "Imported"
        var parts = [
            "\(summary.inserted) inserted", "\(summary.updated) updated",
            "\(summary.rejected) rejected",
        ]
        if summary.duplicatesSkipped > 0 {
            parts.append("\(summary.duplicatesSkipped) duplicates skipped")
        }
        let seconds = max(summary.seconds, 0.000_001)
        let rate = Double(summary.records) / seconds
        let megabytes = Double(summary.bytes) / 1_000_000 / seconds
        var text =
            "\(verb) \(summary.records) \(summary.entity) records into \(store): "
            + parts.joined(separator: ", ")
            + String(
                format: " in %.2f s (%.0f records/s, %.1f MB/s)", summary.seconds, rate, megabytes)
        let related = summary.insertedByEntity.filter { $0.key != summary.entity }.sorted {
            $0.key < $1.key
        }
        if !related.isEmpty {
            text +=
                "\n  also inserted: "
                + related.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        return text
    }
}
