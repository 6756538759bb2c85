import Foundation

/// The samples of one benchmark, and the figures drawn from them.
struct BenchResult {
    /// One contender's runs.
    struct Side {
        /// Its name in the table: `Strata`, `peer`, `peer 1`, ….
        var label: String
        /// What runs.
        var title: String
        /// The bytes of input it reads, when a rate makes sense.
        var inputBytes: Int?
        /// Its runs, in order.
        var samples: [ChildProcess.Sample] = []
    }

    /// The benchmark's name.
    var name: String
    /// The rows of input.
    var rows: Int
    /// Strata first, then the peers.
    var sides: [Side]
    /// The targets judged under the table.
    var targets: [BenchTarget] = []

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

    /// The table name of side `index`.
    func label(of index: Int) -> String { sides[index].label }

    /// The largest peak RSS of side `index`, in KiB.
    func peakKiB(of index: Int) -> Int { Self.peak(sides[index].samples) }

    /// Side `index`'s median wall-clock seconds.
    func medianSeconds(of index: Int) -> Double { Self.median(sides[index].samples) }

    /// Side `index`'s median time over side `base`'s.
    func timeRatio(of index: Int, over base: Int) -> Double {
        Self.median(sides[index].samples) / Self.median(sides[base].samples)
    }

    /// Side `index`'s median seconds per input byte over side `base`'s
    /// (NaN when either reads no counted input).
    func perByteRatio(of index: Int, over base: Int) -> Double {
        guard let bytes = sides[index].inputBytes, let baseBytes = sides[base].inputBytes,
            bytes > 0, baseBytes > 0
        else { return .nan }
        return timeRatio(of: index, over: base) * Double(baseBytes) / Double(bytes)
    }

    /// Side `index`'s peak RSS over side `base`'s.
    func memoryRatio(of index: Int, over base: Int) -> Double {
        Double(peakKiB(of: index)) / Double(max(peakKiB(of: base), 1))
    }

    /// The result as a block of text, ending with a newline.
    var report: String {
        let rates = sides.contains { $0.inputBytes != nil }
        let width = max(7, (sides.map(\.label.count).max() ?? 0) + 1)
        var header =
            pad("side", width) + pad("contender", 34) + pad("median s", 10, right: true)
            + pad("runs s", 24, right: true) + pad("peak RSS MiB", 14, right: true)
        if rates { header += pad("MB/s", 9, right: true) }
        var lines = [
            "\(name): \(rows) rows, \(sides.first?.samples.count ?? 0) runs per side, alternating",
            header,
        ]
        for side in sides {
            let median = Self.median(side.samples)
            var line =
                pad(side.label, width) + pad(side.title, 34)
                + pad(Self.seconds(median), 10, right: true)
                + pad(
                    side.samples.map { Self.seconds($0.seconds) }.joined(separator: " "), 24,
                    right: true)
                + pad(Self.mebibytes(Self.peak(side.samples)), 14, right: true)
            if rates {
                let rate = side.inputBytes.map { String(format: "%.1f", Double($0) / 1e6 / median) }
                line += pad(rate ?? "-", 9, right: true)
            }
            lines.append(line)
        }
        for index in sides.indices.dropFirst() {
            var line =
                "ratio \(label(of: 0))/\(label(of: index)): time "
                + "\(String(format: "%.2f", timeRatio(of: 0, over: index)))x (of medians), "
                + "peak RSS \(String(format: "%.2f", memoryRatio(of: 0, over: index)))x"
            if let bytes = sides[0].inputBytes, let other = sides[index].inputBytes, bytes != other
            {
                line +=
                    ", time per byte "
                    + "\(String(format: "%.2f", perByteRatio(of: 0, over: index)))x"
            }
            lines.append(line)
        }
        lines += targets.map { $0.verdict(for: self) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with millisecond precision, or a tenth of one below 0.1 s
    /// (a one-shot command's whole process takes a few milliseconds).
    static func seconds(_ value: Double) -> String {
        String(format: value < 0.1 ? "%.4f" : "%.3f", value)
    }

    /// KiB as MiB with one decimal.
    static func mebibytes(_ kibibytes: Int) -> String {
        String(format: "%.1f", Double(kibibytes) / 1024)
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(width - text.count, 1))
        return right ? gap + text : text + gap
    }
}
