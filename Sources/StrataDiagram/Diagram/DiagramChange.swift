/// What a migration does to one element of a model diagram, and the colour
/// the diagram gives it.
public enum DiagramChange: Hashable, Sendable {
    /// The element is new in the later version: green.
    case added
    /// The element is gone from the later version: red.
    case removed
    /// The element continues one of the earlier version under another name
    /// (by `renamedFrom` or a renaming identifier): amber.
    case renamed(from: String)

    /// The colour of the element's border, text and edges.
    public var color: String {
        switch self {
        case .added: "#2e7d32"
        case .removed: "#c62828"
        case .renamed: "#e69500"
        }
    }

    /// The pale colour an element's box or row is filled with.
    public var fill: String {
        switch self {
        case .added: "#e3f4e3"
        case .removed: "#fde3e3"
        case .renamed: "#fff1cc"
        }
    }

    /// One word for the legend.
    var word: String {
        switch self {
        case .added: "added"
        case .removed: "removed"
        case .renamed: "renamed"
        }
    }
}
