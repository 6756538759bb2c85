/// What a diagram is written as: Graphviz's source, or a picture that
/// Graphviz's `dot` lays out and draws.
public enum DiagramFormat: String, CaseIterable, Hashable, Sendable {
    /// Scalable vector graphics.
    case svg
    /// A bitmap.
    case png
    /// A PDF document.
    case pdf
    /// The DOT source alone; needs no Graphviz.
    case dot

    /// The format a file name's extension stands for (`gv` is DOT too), or
    /// nil for any other.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "svg": self = .svg
        case "png": self = .png
        case "pdf": self = .pdf
        case "dot", "gv": self = .dot
        default: return nil
        }
    }
}
