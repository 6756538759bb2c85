/// Byte counts for people: `812 bytes`, `4.2 KB`, `3.1 MB` (`strata info`,
/// the web view).
package enum ByteCount {
    /// `bytes` in the largest unit under 1024 of it, to one decimal.
    package static func format(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // One decimal as printf's %.1f gives it: the value is a power-of-two
        // fraction of an integer, so ten times it is exact and ties round to
        // even there too. (String(format:) cost a one-shot command about
        // 0.15 ms the first time.)
        let tenths = Int((value * 10).rounded(.toNearestOrEven))
        return "\(tenths / 10).\(tenths % 10) " + units[unit]
    }
}
