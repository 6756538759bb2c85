/// An export that cannot be done, naming the file (or the store) and the
/// place: the option, the object (`Entity/p12`) or the field.
///
/// ```swift
/// do {
///     _ = try exporter.run(to: outputPath, format: .csv)
/// } catch let error as ExportError where error.code == .unknownField {
///     print(error.message)
/// }
/// ```
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable {
        /// An entity, field or relationship the model does not have.
        case unknownField
        /// A value the format cannot hold so that it reads back the same
        /// (a line break in a txt header, a date with no ISO 8601 form).
        case unwritableValue
        /// The output exists and replacing it was not asked for.
        case alreadyExists
        /// The output (or a media file) cannot be written.
        case unwritable
        /// The store holds something that cannot be read.
        case store
    }

    /// What kind of problem it is.
    public var code: Code
    /// The file the problem concerns: the output, or the store.
    public var path: String
    /// What was found and what was expected, in plain words.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
