import Foundation
import StrataCore

/// The SQL functions that compiled predicates call for what SQLite cannot do
/// itself: Core Data's `[c]`/`[d]` folding, `LIKE` with `*` and `?`, and
/// `MATCHES`. Each calls the same Swift code as the in-memory evaluation
/// (``PredicateStringFolding``, ``PredicateLike``, ``PredicateRegex``), so
/// both give the same answers.
///
/// | function | result |
/// |---|---|
/// | `strata_fold(text, options)` | the folded text |
/// | `strata_contains(text, foldedNeedle, options)` | 1 when the folded text contains the needle |
/// | `strata_beginswith(…)`, `strata_endswith(…)` | the same for prefix and suffix |
/// | `strata_like(text, pattern, options)` | 1 when the text matches the `LIKE` pattern |
/// | `strata_matches(text, regex, options)` | 1 when the regular expression matches the whole text |
/// | `strata_matches(text, regex, entity, pk, options)` | the same, naming object `entity/p<pk>` in its errors |
///
/// The collation `strata_localized` orders text by ``localizedCompare(_:_:)``.
/// `options` holds the bits of ``StringOptions``. A NULL text gives 0 (or
/// NULL from `strata_fold`).
///
/// `strata_matches` never answers a silent 0 for a match it could not
/// finish: a pattern that does not compile fails the statement with a
/// ``FetchPredicateError``, and a match that hits ``RegexLimits/current`` with a
/// ``RegexError`` naming the pattern and the object; the statement's step
/// throws that error.
public enum PredicateSQLFunctions {
    /// The order of `strata_localized` (``SortDescriptor/StringComparison/localized``):
    /// the current locale's collation, as `localizedCompare:`. Returns -1, 0
    /// or 1.
    public static func localizedCompare(_ lhs: String, _ rhs: String) -> Int {
        switch lhs.compare(rhs, locale: Locale.current) {
        case .orderedAscending: -1
        case .orderedDescending: 1
        case .orderedSame: lhs == rhs ? 0 : (lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1)
        }
    }

    /// Registers the functions and the `strata_localized` collation on
    /// `connection` (again is harmless).
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses a registration.
    public static func register(on connection: Connection) throws {
        try connection.registerCollation("strata_localized", localizedCompare)
        try connection.registerFunction("strata_fold", argumentCount: 2) { arguments in
            guard let text = arguments.text(at: 0) else { return .null }
            return .text(PredicateStringFolding.fold(text, options(arguments)))
        }
        // One folder per connection: SQLite calls a connection's functions
        // from one thread at a time.
        let folder = ScalarFolder()
        try connection.registerFunction("strata_contains", argumentCount: 3) { arguments in
            search(arguments, .anywhere, folder)
        }
        try connection.registerFunction("strata_beginswith", argumentCount: 3) { arguments in
            search(arguments, .prefix, folder)
        }
        try connection.registerFunction("strata_endswith", argumentCount: 3) { arguments in
            search(arguments, .suffix, folder)
        }
        try connection.registerFunction("strata_like", argumentCount: 3) { arguments in
            guard let text = arguments.text(at: 0), let pattern = arguments.text(at: 1) else {
                return .integer(0)
            }
            let matched = PredicateLike.matches(
                text, pattern: pattern, options: options(arguments))
            return .integer(matched ? 1 : 0)
        }
        try connection.registerFunction("strata_matches", argumentCount: 3) { arguments in
            try matches(arguments)
        }
        try connection.registerFunction("strata_matches", argumentCount: 5) { arguments in
            try matches(arguments)
        }
    }

    /// `strata_matches`, with the object of arguments 2 and 3 (entity name,
    /// `Z_PK`) in its errors when it has five.
    private static func matches(_ arguments: SQLFunctionArguments) throws -> SQLiteValue {
        guard let text = arguments.text(at: 0), let pattern = arguments.text(at: 1) else {
            return .integer(0)
        }
        do {
            let matched = try PredicateRegex.matches(
                text, pattern: pattern, options: options(arguments))
            return .integer(matched ? 1 : 0)
        } catch let error as RegexError {
            guard arguments.count == 5, let entity = arguments.text(at: 2) else { throw error }
            throw error.matching("\(entity)/p\(arguments.int64(at: 3))")
        }
    }

    /// The options, the last argument of every function.
    private static func options(_ arguments: SQLFunctionArguments) -> StringOptions {
        StringOptions(rawValue: Int(arguments.int64(at: arguments.count - 1)))
    }

    enum Position { case anywhere, prefix, suffix }

    /// `CONTAINS`/`BEGINSWITH`/`ENDSWITH` of an already folded needle in a
    /// text folded here. Pure-ASCII texts, the bulk of a scan, are compared
    /// in place: folding only lowers ASCII letters, so an ASCII
    /// case-insensitive byte comparison gives what folding and comparing
    /// would. Other texts are folded through `folder`, which remembers the
    /// fold of each character it has seen.
    static func search(
        _ arguments: SQLFunctionArguments, _ position: Position, _ folder: ScalarFolder
    ) -> SQLiteValue {
        let options = options(arguments)
        let found = arguments.withUTF8(at: 0) { text -> Bool in
            arguments.withUTF8(at: 1) { needle -> Bool in
                guard let text, let needle else { return false }
                if text.allSatisfy({ $0 < 0x80 }) {
                    return find(
                        needle, in: text, position,
                        ignoringCase: options.contains(.caseInsensitive))
                }
                return folder.withFolded(text, options) {
                    find(needle, in: $0, position, ignoringCase: false)
                }
            }
        }
        return .integer(found ? 1 : 0)
    }

    /// Whether `needle` occurs in `text` at `position`, optionally with
    /// ASCII letters compared without case.
    static func find(
        _ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
        _ position: Position, ignoringCase: Bool
    ) -> Bool {
        let count = needle.count
        guard count <= text.count else { return false }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 {
            ignoringCase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        @inline(__always) func matches(at start: Int) -> Bool {
            var index = 0
            while index < count {
                if lower(text[start + index]) != lower(needle[index]) { return false }
                index += 1
            }
            return true
        }
        switch position {
        case .prefix: return matches(at: 0)
        case .suffix: return matches(at: text.count - count)
        case .anywhere:
            guard count > 0, let base = text.baseAddress else { return count == 0 }
            let last = text.count - count
            // The candidates for the first byte, found by memchr: both cases
            // of a letter when ignoring case.
            let first = lower(needle[0])
            let other = ignoringCase && first >= 0x61 && first <= 0x7A ? first - 0x20 : first
            func next(_ byte: UInt8, from start: Int) -> Int {
                guard start <= last,
                    let found = memchr(base + start, Int32(byte), last - start + 1)
                else { return Int.max }
                return base.distance(
                    to: found.assumingMemoryBound(to: UInt8.self))
            }
            var a = next(first, from: 0)
            var b = first == other ? Int.max : next(other, from: 0)
            while true {
                let start = min(a, b)
                guard start <= last else { return false }
                if matches(at: start) { return true }
                if a == start { a = next(first, from: start + 1) }
                if b == start { b = next(other, from: start + 1) }
            }
        }
    }
}
