/// ``PredicateStringFolding/fold(_:_:)`` of UTF-8 text, computed one
/// Unicode scalar at a time with each scalar's fold remembered, for SQL
/// functions that fold a column on every row of a scan.
///
/// Folding maps case scalar by scalar and then decomposes (NFD), which is
/// also scalar by scalar except that NFD puts runs of combining marks into
/// canonical order. So a text is folded piecewise unless a combining mark
/// follows another non-ASCII scalar (whose fold may end in a mark); such
/// rare texts are folded whole.
final class ScalarFolder {
    /// What one scalar folds to, and whether it is a combining mark.
    private struct Entry {
        var bytes: [UInt8]
        var isCombining: Bool
    }

    /// Folds by options (0–3), then by scalar value.
    // One folder per connection, used from one thread at a time and never
    // re-entered: dynamic exclusivity checks cost a tenth of a scan here.
    @exclusivity(unchecked) private var cache: [[UInt32: Entry]] = Array(
        repeating: [:], count: 4)
    @exclusivity(unchecked) private var buffer: [UInt8] = []

    /// Calls `body` with the UTF-8 bytes of `text` folded under `options`.
    /// The buffer is only valid during the call.
    func withFolded<Result>(
        _ text: UnsafeBufferPointer<UInt8>, _ options: StringOptions,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let slot = options.rawValue & 3
        let caseless = options.contains(.caseInsensitive)
        buffer.removeAll(keepingCapacity: true)
        var iterator = text.makeIterator()
        var decoder = Unicode.UTF8()
        var previousWasWide = false
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let value = scalar.value
                if value < 0x80 {
                    let byte = UInt8(value)
                    buffer.append(caseless && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                    previousWasWide = false
                    continue
                }
                let entry = cache[slot][value] ?? remember(scalar, options, slot)
                if entry.isCombining && previousWasWide { return foldWhole(text, options, body) }
                buffer.append(contentsOf: entry.bytes)
                previousWasWide = true
            case .emptyInput:
                break decoding
            case .error:
                return foldWhole(text, options, body)
            }
        }
        return buffer.withUnsafeBufferPointer(body)
    }

    private func remember(_ scalar: Unicode.Scalar, _ options: StringOptions, _ slot: Int)
        -> Entry
    {
        let folded = PredicateStringFolding.fold(String(Character(scalar)), options)
        let entry = Entry(
            bytes: Array(folded.utf8),
            isCombining: scalar.properties.canonicalCombiningClass != .notReordered)
        cache[slot][scalar.value] = entry
        return entry
    }

    private func foldWhole<Result>(
        _ text: UnsafeBufferPointer<UInt8>, _ options: StringOptions,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let folded = Array(
            PredicateStringFolding.fold(String(decoding: text, as: UTF8.self), options).utf8)
        return folded.withUnsafeBufferPointer(body)
    }
}
