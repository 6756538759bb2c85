import Foundation

/// A figure a benchmark is meant to reach, judged under its table: "Strata's
/// time at most 1.0x the shell's", "peak RSS under 64 MB".
///
/// The verdict is printed, never enforced: a missed target is a finding, not
/// a failed run (a failed check is).
struct BenchTarget {
    /// What is measured. Sides are numbered as in the table: 0 is Strata,
    /// 1 the first peer.
    enum Figure {
        /// Side 0's median time over `side`'s.
        case time(against: Int)
        /// Side 0's median seconds per input byte over `side`'s, for sides
        /// that read different inputs.
        case timePerByte(against: Int)
        /// The largest peak RSS of `side`, in MB (10^6 bytes).
        case peakMegabytes(of: Int)
        /// The largest peak RSS of `side` over that of `base`.
        case memoryGrowth(of: Int, over: Int)
        /// The median wall-clock seconds of `side`.
        case seconds(of: Int)
        /// Side `side`'s median time over side `base`'s (sides that are
        /// both Strata, at two sizes).
        case timeGrowth(of: Int, over: Int)
    }

    /// What is measured.
    var figure: Figure
    /// The bound the figure must stay within.
    var limit: Double
    /// Whether the figure may equal the limit (`<=`) or must stay below it.
    var inclusive = true

    /// The figure's value in `result`.
    func value(in result: BenchResult) -> Double {
        switch figure {
        case .time(let side): result.timeRatio(of: 0, over: side)
        case .timePerByte(let side): result.perByteRatio(of: 0, over: side)
        case .peakMegabytes(let side): Double(result.peakKiB(of: side)) * 1024 / 1e6
        case .memoryGrowth(let side, let base):
            Double(result.peakKiB(of: side)) / Double(max(result.peakKiB(of: base), 1))
        case .seconds(let side): result.medianSeconds(of: side)
        case .timeGrowth(let side, let base): result.timeRatio(of: side, over: base)
        }
    }

    /// The verdict line for `result`.
    func verdict(for result: BenchResult) -> String {
        let value = value(in: result)
        let met = inclusive ? value <= limit : value < limit
        let (name, format): (String, (Double) -> String) =
            switch figure {
            case .time(let side):
                ("time \(result.label(of: 0))/\(result.label(of: side))", Self.ratio)
            case .timePerByte(let side):
                ("time per byte \(result.label(of: 0))/\(result.label(of: side))", Self.ratio)
            case .peakMegabytes(let side):
                ("peak RSS of \(result.label(of: side)), MB", { String(format: "%.1f", $0) })
            case .memoryGrowth(let side, let base):
                ("peak RSS \(result.label(of: side))/\(result.label(of: base))", Self.ratio)
            case .seconds(let side):
                ("time of \(result.label(of: side)), s", BenchResult.seconds)
            case .timeGrowth(let side, let base):
                ("time \(result.label(of: side))/\(result.label(of: base))", Self.ratio)
            }
        return "target \(name) \(inclusive ? "<=" : "<") \(format(limit)): \(format(value)), "
            + (met ? "met" : "MISSED")
    }

    private static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }
}
