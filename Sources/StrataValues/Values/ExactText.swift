/// Text compared and hashed by its UTF-8 bytes, as SQLite compares text.
///
/// Swift's `String` compares by canonical equivalence: `"café"` with é as
/// one scalar equals `"cafe\u{301}"`. SQLite, and so Core Data's uniqueness
/// constraints and fetches, compare bytes: to them these are two keys. A
/// dictionary that stands for rows of a store is keyed by this type, never
/// by `String`, or two rows' keys fold into one.
package struct ExactText: Hashable, Sendable, CustomStringConvertible {
    /// The text.
    package let text: String

    /// `text`, to be compared by its bytes.
    package init(_ text: String) { self.text = text }

    package static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var text = self.text  // A native string is contiguous: no copy is made.
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    package var description: String { text }
}
