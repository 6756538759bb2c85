import Foundation

/// The case and diacritic folding of `[c]`, `[d]` and `[cd]` string
/// comparisons, shared by the in-memory evaluator and the SQL compiler (which
/// registers it as an SQLite function), so both paths fold identically.
///
/// Folding is locale-independent and a pure function of its inputs:
///
/// - `[c]` maps each character to upper case and then to lower case, a full
///   case folding that needs no tables of its own: `ß` and `SS` both fold to
///   `ss`, final `ς` to `σ`, `ﬁ` to `fi`. (Dotless `ı` folds to `i`; Turkish
///   rules are deliberately not applied.)
/// - `[d]` decomposes canonically (NFD) and drops nonspacing marks: `ö`
///   becomes `o`, `Ç` becomes `C`. Letters without a decomposition (`ø`,
///   `ł`) stay as they are.
/// - Any folded string that is not plain ASCII comes out in NFD, so folded
///   strings compare by their UTF-8 bytes regardless of how the input was
///   composed.
///
/// ```swift
/// let folded = PredicateStringFolding.fold("Alle Vögel", [.caseInsensitive, .diacriticInsensitive])
/// // "alle vogel"
/// ```
public enum PredicateStringFolding {
    /// `string` folded for comparison under `options`; `string` itself when
    /// `options` is empty.
    public static func fold(_ string: String, _ options: StringOptions) -> String {
        guard !options.isEmpty else { return string }
        let caseless = options.contains(.caseInsensitive)
        if string.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII has no marks, and its case folding is a byte mapping.
            guard caseless else { return string }
            return String(
                decoding: string.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 },
                as: UTF8.self)
        }
        var folded = string
        if caseless {
            var scalars = String.UnicodeScalarView()
            for scalar in string.unicodeScalars {
                guard scalar.properties.changesWhenCaseMapped else {
                    scalars.append(scalar)
                    continue
                }
                for upper in scalar.properties.uppercaseMapping.unicodeScalars {
                    scalars.append(contentsOf: upper.properties.lowercaseMapping.unicodeScalars)
                }
            }
            folded = String(scalars)
        }
        folded = folded.decomposedStringWithCanonicalMapping
        guard options.contains(.diacriticInsensitive) else { return folded }
        var stripped = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            stripped.append(scalar)
        }
        return String(stripped)
    }

    // MARK: - Comparisons on UTF-8 bytes

    /// Whether `a` and `b` have the same UTF-8 bytes (SQLite's BINARY
    /// collation; Swift's `==` would also equate canonically equivalent
    /// strings, which SQL does not).
    public static func bytesEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// `a` compared with `b` by UTF-8 bytes: negative, zero or positive.
    public static func compareBytes(_ a: String, _ b: String) -> Int {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// Whether `needle` occurs in `haystack`, by UTF-8 bytes. The empty
    /// string occurs in every string.
    public static func containsBytes(_ haystack: String, _ needle: String) -> Bool {
        let h = Array(haystack.utf8)
        let n = Array(needle.utf8)
        guard !n.isEmpty else { return true }
        guard n.count <= h.count else { return false }
        let first = n[0]
        var start = 0
        while start <= h.count - n.count {
            if h[start] == first && h[start..<(start + n.count)].elementsEqual(n) { return true }
            start += 1
        }
        return false
    }
}
