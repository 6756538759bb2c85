import Foundation

/// Compiled ``RegularExpression``s by pattern and options, shared by
/// threads: each use checks a handle out, so no two threads ever match with
/// one handle (ICU's handles are not thread-safe), and gives it back for
/// the next use. A pattern evaluated on every row of a scan compiles once;
/// a thread that finds no idle handle gets a clone (`uregex_clone`) of the
/// compiled pattern, which the cache keeps unused for that purpose.
///
/// ```swift
/// let matched = try RegexCache.shared.withExpression("f.nn", options: []) {
///     try $0.matchesWhole("finn")
/// }
/// ```
package final class RegexCache: @unchecked Sendable {
    /// The cache of the process.
    package static let shared = RegexCache()

    private struct Key: Hashable {
        var pattern: String
        var options: RegexOptions
    }

    /// A compiled pattern, never matched with (only cloned, under the
    /// lock), and the handles free for use.
    private struct Entry {
        var prototype: RegularExpression
        var idle: [RegularExpression] = []
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
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
    package func withExpression<Result>(
        _ pattern: String, options: RegexOptions,
        _ body: (RegularExpression) throws -> Result
    ) throws -> Result {
        let key = Key(pattern: pattern, options: options)
        let expression = try checkOut(key)
        defer { giveBack(expression, key) }
        return try body(expression)
    }

    private func checkOut(_ key: Key) throws(RegexError) -> RegularExpression {
        let known: Result<RegularExpression, RegexError>? = lock.withLock {
            guard var entry = entries[key] else { return nil }
            if let free = entry.idle.popLast() {
                entries[key] = entry
                return .success(free)
            }
            return Result { () throws(RegexError) in try entry.prototype.copy() }
        }
        if let known { return try known.get() }
        // Compiled outside the lock; a thread that loses the race to store
        // its prototype simply keeps its handle.
        let compiled = try RegularExpression(key.pattern, options: key.options)
        let prototype = try compiled.copy()
        lock.withLock {
            if entries[key] == nil {
                if entries.count >= patternLimit { entries.removeAll() }
                entries[key] = Entry(prototype: prototype)
            }
        }
        return compiled
    }

    private func giveBack(_ expression: RegularExpression, _ key: Key) {
        guard expression.bufferCapacity <= bufferLimit else { return }
        lock.withLock {
            guard var entry = entries[key], entry.idle.count < handleLimit else { return }
            entry.idle.append(expression)
            entries[key] = entry
        }
    }
}
