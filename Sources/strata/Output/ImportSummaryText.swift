import Foundation
import Strata

/// The final line of `strata import`.
enum ImportSummaryText {
    static func render(_ summary: ImportSummary, store: String) -> String {
        let verb = summary.isDryRun ? "Checked (dry run, nothing written)" : "Imported"
        // Related objects made on the way are counted in `inserted`: say so
        // in the same breath, entity by entity.
        let related = summary.insertedByEntity.filter { $0.key != summary.entity && $0.value > 0 }
            .sorted { $0.key < $1.key }
        var inserted = "\(summary.inserted) inserted"
        if !related.isEmpty {
            let own = summary.insertedByEntity[summary.entity] ?? 0
            let counts =
                (own > 0 ? [(summary.entity, own)] : []) + related.map { ($0.key, $0.value) }
            inserted += " (" + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")"
        }
        var parts = [
            inserted, "\(summary.updated) updated",
            "\(summary.rejected) rejected",
        ]
        if summary.duplicatesSkipped > 0 {
            parts.append("\(summary.duplicatesSkipped) duplicates skipped")
        }
        let seconds = max(summary.seconds, 0.000_001)
        let rate = Double(summary.records) / seconds
        let megabytes = Double(summary.bytes) / 1_000_000 / seconds
        let what =
            summary.recordEntities.count > 1
            ? "records (\(summary.recordEntities.joined(separator: ", ")))"
            : "\(summary.entity) records"
        return "\(verb) \(summary.records) \(what) into \(store): "
            + parts.joined(separator: ", ")
            + String(
                format: " in %.2f s (%.0f records/s, %.1f MB/s)", summary.seconds, rate, megabytes)
    }
}
