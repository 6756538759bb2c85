import Foundation

/// A time zone's offsets from UTC, turned around: the instant of a local
/// time, as a date formatter finds it, with the zone's rules asked once per
/// local day.
///
/// `TimeZone.secondsFromGMT(for:)` costs a search of the zone's rules; a
/// date column asks for thousands of times on the same days. A local day
/// whose offset is the same a day before and a day after it (all but the
/// few days around a change) keeps that offset, and its local times convert
/// by subtraction. On the days of a change each value is worked out: a
/// repeated local time (clocks set back) is the later of its two instants,
/// as a `DateFormatter` takes it, and a skipped one (clocks set forward over
/// it) is reported with the gap around it.
final class ZoneOffsets {
    /// The instant of a local time.
    enum Resolution {
        /// Seconds since 1970.
        case instant(Int64)
        /// The local time does not exist in the zone.
        case skipped(DatePattern.SkippedTime)
        /// The zone's rules change twice within a day of the local time
        /// (none does): the caller asks a formatter.
        case unknown
    }

    private let zone: TimeZone
    /// The offset of a zone that never changes (UTC), or nil.
    private let fixedOffset: Int64?
    /// Per local day (days since 1970): the offset of every local time of
    /// that day, or ``changing`` when the offset changes near that day.
    private var days: [Int64: Int64] = [:]
    private static let changing = Int64.min

    init(_ zone: TimeZone) {
        self.zone = zone
        let fixed = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/Universal", "Universal", "Zulu"]
        fixedOffset =
            fixed.contains(zone.identifier) ? Int64(zone.secondsFromGMT(for: Date())) : nil
    }

    /// The zone's offset at `instant` (seconds since 1970), east positive.
    func offset(at instant: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// The instant of `local` (seconds since 1970, as if the zone were UTC).
    func instant(forLocal local: Int64) -> Resolution {
        if let fixedOffset { return .instant(local - fixedOffset) }
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let known: Int64
        if let found = days[day] {
            known = found
        } else {
            // Every instant of a local time of the day lies within a day of
            // it (offsets stay within ±18 hours).
            let start = day * 86_400
            let before = offset(at: start - 86_400)
            let uniform =
                before == offset(at: start + 43_200) && before == offset(at: start + 2 * 86_400)
            known = uniform ? before : Self.changing
            days[day] = known
        }
        if known != Self.changing { return .instant(local - known) }
        return resolveNearChange(local)
    }

    private func resolveNearChange(_ local: Int64) -> Resolution {
        let before = offset(at: local - 86_400)
        let after = offset(at: local + 86_400)
        let early = local - before
        let late = local - after
        let earlyHolds = offset(at: early) == before
        let lateHolds = offset(at: late) == after
        switch (earlyHolds, lateHolds) {
        case (true, true): return .instant(max(early, late))
        case (true, false): return .instant(early)
        case (false, true): return .instant(late)
        case (false, false):
            guard after > before else { return .unknown }
            // The change happened between the two readings: find its second.
            var low = local - 86_400  // Still the offset before.
            var high = local + 86_400  // Already the offset after.
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if offset(at: middle) == before { low = middle } else { high = middle }
            }
            return .skipped(
                DatePattern.SkippedTime(
                    local: local, gapStart: high + before, gapEnd: high + after,
                    shiftedInstant: early))
        }
    }
}
