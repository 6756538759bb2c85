/// One match of a ``RegularExpression``: the range of the whole match and of
/// each capture group in the text searched.
package struct RegexMatch {
    /// The text that was searched.
    let text: String
    /// Index 0 is the whole match; index n is capture group n, nil when the
    /// group took no part in the match.
    package let ranges: [Range<String.Index>?]

    /// The matched text.
    package var matchedText: Substring {
        ranges[0].map { text[$0] } ?? ""
    }

    /// The text of capture group `group` (0 is the whole match); nil when
    /// the pattern has no such group or it took no part in the match.
    package func group(_ group: Int) -> Substring? {
        guard group >= 0, group < ranges.count, let range = ranges[group] else { return nil }
        return text[range]
    }
}
