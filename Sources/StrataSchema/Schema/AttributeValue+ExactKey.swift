import StrataCore

extension AttributeValue {
    /// A value as a dictionary key compared as the store compares it: text
    /// by its bytes (``ExactText``; Swift's `==` holds `"café"` and
    /// `"cafe\u{301}"` equal, SQLite does not), every other kind as itself.
    package enum ExactKey: Hashable, Sendable {
        /// Text, by its bytes.
        case text(ExactText)
        /// A value of another kind.
        case other(AttributeValue)
    }

    /// The value as an ``ExactKey``.
    package var exactKey: ExactKey {
        if case .string(let text) = self { return .text(ExactText(text)) }
        return .other(self)
    }
}
