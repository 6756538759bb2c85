/// A place in an input file: what every import error and rejected record names.
///
/// Line-based formats (CSV, txt, JSON, XML) fill ``line`` and ``column``;
/// formats made of nested values (plists, JSON) also give the ``keyPath`` of
/// the value, such as `[3].ingredients[0].amount`.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The input file's path as the user gave it.
    public var file: String
    /// The line, counting from 1; 0 when the format has no lines (binary plists).
    public var line: Int
    /// The column in characters, counting from 1; 0 when unknown.
    public var column: Int
    /// The offset of the place from the start of the file, in bytes.
    public var byteOffset: Int64
    /// The key path of the value in a nested format, such as `[3].name`.
    public var keyPath: String?

    /// Creates a position.
    public init(
        file: String, line: Int = 0, column: Int = 0, byteOffset: Int64 = 0,
        keyPath: String? = nil
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.keyPath = keyPath
    }

    /// `file:line:column`, with the key path after it when there is one.
    public var description: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        if let keyPath, !keyPath.isEmpty { text += " (at \(keyPath))" }
        return text
    }

    /// This position with `component` appended to its key path: `.name`
    /// for a key, `[2]` for an array index.
    public func appending(key: String) -> SourcePosition {
        var copy = self
        copy.keyPath = (keyPath ?? "") + (keyPath?.isEmpty == false ? "." : "") + key
        return copy
    }

    /// This position with an array index appended to its key path.
    public func appending(index: Int) -> SourcePosition {
        var copy = self
        copy.keyPath = (keyPath ?? "") + "[\(index)]"
        return copy
    }
}
