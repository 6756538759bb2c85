import Foundation
import Strata

/// Migration progress on stderr: one rewritten line on a terminal, or one
/// line per report when asked for outside a terminal (`--progress`).
final class ProgressLine {
    private let enabled: Bool
    private let rewrites = isatty(STDERR_FILENO) == 1
    private var lastActivity = ""

    init(enabled: Bool) { self.enabled = enabled }

    /// Shows where the migration is.
    func show(_ progress: MigrationProgress) {
        guard enabled else { return }
        let rows =
            progress.rowsTotal > 0 ? " \(progress.rowsDone)/\(progress.rowsTotal) rows" : ""
        let text =
            "[\(progress.stage)/\(progress.stageCount)] \(progress.stageName): "
            + "\(progress.activity)\(rows)"
        if rewrites {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        } else if text != lastActivity {
            Terminal.error(text)
        }
        lastActivity = text
    }

    /// Ends the rewritten line.
    func finish() {
        if enabled && rewrites { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
