/// A comma-separated list of names in a text field (`Tags: walk, river`),
/// the form a to-many takes in flat input: each name trimmed of spaces and
/// tabs as bytes, empty ones skipped.
enum NameList {
    /// Calls `body` with each name of `bytes`, in order.
    static func forEachName(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var first = start
            var last = end
            while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
            start = end + 1
            if first < last { try body(UnsafeBufferPointer(rebasing: bytes[first..<last])) }
        }
    }
}
