import Foundation

/// The samples of one benchmark, and the figures drawn from them.
struct BenchResult {
    /// The benchmark's name.
    var name: String
    /// The rows of input.
    var rows: Int
    /// The Strata side's title.
    var strataTitle: String
    /// The peer's title.
    var peerTitle: String
    /// Strata's runs, in order.
    var strata: [ChildProcess.Sample] = []
    /// The peer's runs, in order.
    var peer: [ChildProcess.Sample] = []

    /// Median wall-clock seconds of `samples`.
    static func median(_ samples: [ChildProcess.Sample]) -> Double {
        let times = samples.map(\.seconds).sorted()
        guard !times.isEmpty else { return .nan }
        let middle = times.count / 2
        return times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2
    }

    /// The largest peak RSS of `samples`, in KiB.
    static func peak(_ samples: [ChildProcess.Sample]) -> Int {
        samples.map(\.peakKiB).max() ?? 0
    }

    /// Strata's median time over the peer's.
    var timeRatio: Double { Self.median(strata) / Self.median(peer) }

    /// Strata's peak RSS over the peer's.
    var memoryRatio: Double { Double(Self.peak(strata)) / Double(max(Self.peak(peer), 1)) }

    /// The result as a block of text, ending with a newline.
    var report: String {
        var lines = [
            "\(name): \(rows) rows, \(strata.count) runs per side, alternating",
            pad("side", 7) + pad("contender", 34) + pad("median s", 10, right: true)
                + pad("runs s", 24, right: true) + pad("peak RSS MiB", 14, right: true),
        ]
        for (side, title, samples) in [("Strata", strataTitle, strata), ("peer", peerTitle, peer)] {
            lines.append(
                pad(side, 7) + pad(title, 34)
                    + pad(Self.seconds(Self.median(samples)), 10, right: true)
                    + pad(
                        samples.map { Self.seconds($0.seconds) }.joined(separator: " "), 24,
                        right: true)
                    + pad(Self.mebibytes(Self.peak(samples)), 14, right: true))
        }
        lines.append(
            "ratio Strata/peer: time \(String(format: "%.2f", timeRatio))x (of medians), "
                + "peak RSS \(String(format: "%.2f", memoryRatio))x")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with millisecond precision.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// KiB as MiB with one decimal.
    static func mebibytes(_ kibibytes: Int) -> String {
        String(format: "%.1f", Double(kibibytes) / 1024)
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(width - text.count, 1))
        return right ? gap + text : text + gap
    }
}
