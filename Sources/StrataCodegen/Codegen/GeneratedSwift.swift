import Foundation
import StrataSchema

/// The Swift source the generator wrote for one model version, and what it
/// had to rename.
public struct GeneratedSwift: Sendable {
    /// The source file's text.
    public var source: String
    /// One line per schema name that is not a Swift identifier and was
    /// renamed, with the file and JSON path of the name.
    public var warnings: [SchemaIssue]
}

extension GeneratedSwift {
    /// Writes ``source`` to `url` atomically (a temporary file renamed into
    /// place); a file that already holds exactly this source is left alone,
    /// so builds that regenerate it do not recompile it.
    public func write(to url: URL) throws {
        let bytes = Data(source.utf8)
        if let existing = try? Data(contentsOf: url), existing == bytes { return }
        try bytes.write(to: url, options: .atomic)
    }
}
