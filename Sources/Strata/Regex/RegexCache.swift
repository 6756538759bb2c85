import Foundation

/// Compiled ``RegularExpression``s by pattern and options, shared by
/// threads: each use checks a handle out, so no two threads ever match with
/// one handle (ICU's handles are not thread-safe), and gives it back for
/// the next use. A pattern evaluated on every row of a scan compiles once
/// per thread that runs it.
///
/// ```swift
/// let matched = try RegexCache.shared.withExpression("f.nn", options: []) {
///     try $0.matchesWhole("finn")
/// }
/// ```
final class RegexCache: @unchecked Sendable {
    /// The cache of the process.
    static let shared = RegexCache()

    private struct Key: Hashable {
        var pattern: String
        var options: RegexOptions
    }

    private let lock = NSLock()
    private var idle: [Key: [RegularExpression]] = [:]
    /// Patterns kept; the cache empties when a new one would pass it
    /// (patterns are few in practice; the bound only guards against growth).
    private let patternLimit = 64
    /// Idle handles kept per pattern: about one per thread that matches it.
    private let handleLimit = 4
    /// A handle whose text buffer grew past this many UTF-16 units (a long
    /// text) is not kept, so the cache does not hold large buffers.
    private let bufferLimit = 1 << 20

    /// Runs `body` with a compiled `pattern` that no other thread uses
    /// meanwhile.
    ///
    /// - Throws: ``RegexError`` when the pattern does not compile; what
    ///   `body` throws.
    func withExpression<Result>(
        _ pattern: String, options: RegexOptions,
        _ body: (RegularExpression) throws -> Result
    ) throws -> Result {
        let key = Key(pattern: pattern, options: options)
        let expression = try checkOut(key)
        defer { giveBack(expression, key) }
        return try body(expression)
    }

    private func checkOut(_ key: Key) throws(RegexError) -> RegularExpression {
        let known = lock.withLock { idle[key]?.popLast() }
        if let known { return known }
        return try RegularExpression(key.pattern, options: key.options)
    }

    private func giveBack(_ expression: RegularExpression, _ key: Key) {
        guard expression.bufferCapacity <= bufferLimit else { return }
        lock.withLock {
            if idle[key] == nil, idle.count >= patternLimit { idle.removeAll() }
            if idle[key, default: []].count < handleLimit {
                idle[key, default: []].append(expression)
            }
        }
    }
}
