import Foundation
import Strata

#if canImport(Glibc)
    import Glibc
#endif

/// Progress of long work on stderr — import, export, archive, unarchive: a
/// bar rewritten in place on a terminal (at most ten times a second), or,
/// when asked for outside a terminal (`--progress`), a plain line at each
/// tenth of the work (or every 100,000 items when the whole is unknown).
final class ProgressBar {
    private let enabled: Bool
    private let rewrites = isatty(STDERR_FILENO) == 1
    private let label: String
    private var lastLine = ""
    private var lastDraw = Date.distantPast

    /// A bar for work on `label` (a file or store path), shown when
    /// `forced` (`--progress`) or when stderr is a terminal.
    init(forced: Bool, label: String) {
        self.enabled = forced || isatty(STDERR_FILENO) == 1
        self.label = label
    }

    /// Shows how far the work is.
    ///
    /// - Parameters:
    ///   - fraction: The part done, 0 to 1, when the whole is known.
    ///   - count: Items done (`1200 records`), for the text.
    ///   - items: How many items make the tenths when `fraction` is nil.
    ///   - stage: Which part of the work (`2/4 Tag`), if it has parts.
    func show(fraction: Double?, count: String, items: Int, stage: String? = nil) {
        guard enabled else { return }
        let fraction = fraction.map { min(1, max(0, $0)) }
        let prefix = stage.map { "[\($0)] " } ?? ""
        if rewrites {
            let now = Date()
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            var text = "\r\u{1B}[K" + prefix
            if let fraction {
                let filled = Int(fraction * 30)
                text +=
                    "[" + String(repeating: "#", count: filled)
                    + String(repeating: " ", count: 30 - filled) + "] "
                    + String(format: "%3.0f%% ", fraction * 100)
            }
            text += count
            FileHandle.standardError.write(Data(text.utf8))
        } else {
            let tenth = fraction.map { Int($0 * 10) } ?? items / 100_000
            let percent = fraction.map { String(format: "%.0f%%, ", $0 * 100) } ?? ""
            let key = prefix + String(tenth)
            guard key != lastLine else { return }
            lastLine = key
            Terminal.error("\(label): \(prefix)\(percent)\(count)")
        }
    }

    /// Import progress, by bytes of the input read.
    func show(_ progress: ImportProgress) {
        show(
            fraction: progress.totalBytes.map {
                $0 > 0 ? Double(progress.bytesRead) / Double($0) : 1
            },
            count: "\(progress.records) records", items: progress.records)
    }

    /// Export, archive or unarchive progress, by objects of each entity.
    func show(_ progress: ExportProgress) {
        show(
            fraction: progress.total.map {
                $0 > 0 ? Double(progress.objects) / Double($0) : 1
            },
            count: "\(progress.objects) \(progress.entity)", items: progress.objects,
            stage: progress.steps > 1 ? "\(progress.step)/\(progress.steps)" : nil)
    }

    /// Clears the rewritten line.
    func finish() {
        if enabled && rewrites { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
