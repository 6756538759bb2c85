import Foundation
import Strata

/// Import progress on stderr, by bytes read: a bar rewritten in place on a
/// terminal, or a plain line every tenth of the input elsewhere (`--progress`).
final class ImportProgressBar {
    private let enabled: Bool
    private let rewrites = isatty(STDERR_FILENO) == 1
    private let file: String
    private var lastTenth = -1
    private var lastDraw = Date.distantPast

    init(enabled: Bool, file: String) {
        self.enabled = enabled
        self.file = file
    }

    func show(_ progress: ImportProgress) {
        guard enabled else { return }
        let fraction = progress.totalBytes.map {
            $0 > 0 ? min(1, Double(progress.bytesRead) / Double($0)) : 1
        }
        let records = "\(progress.records) records"
        if rewrites {
            let now = Date()
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            var text = "\r\u{1B}[K"
            if let fraction {
                let filled = Int(fraction * 30)
                text +=
                    "[" + String(repeating: "#", count: filled)
                    + String(repeating: " ", count: 30 - filled) + "] "
                    + String(format: "%3.0f%% ", fraction * 100)
            }
            text += records
            FileHandle.standardError.write(Data(text.utf8))
        } else {
            let tenth = fraction.map { Int($0 * 10) } ?? progress.records / 100_000
            guard tenth != lastTenth else { return }
            lastTenth = tenth
            let percent = fraction.map { String(format: "%.0f%% of the input, ", $0 * 100) } ?? ""
            Terminal.error("\(file): \(percent)\(records)")
        }
    }

    func finish() {
        if enabled && rewrites { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
