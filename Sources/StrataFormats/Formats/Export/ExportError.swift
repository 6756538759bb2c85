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

// MARK: - Matching

extension ExportError {
    /// Matches an error of code ``Code/unknownField``: `catch ExportError.unknownField`.
    public static let unknownField = Code.unknownField
    /// Matches an error of code ``Code/unwritableValue``: `catch ExportError.unwritableValue`.
    public static let unwritableValue = Code.unwritableValue
    /// Matches an error of code ``Code/alreadyExists``: `catch ExportError.alreadyExists`.
    public static let alreadyExists = Code.alreadyExists
    /// Matches an error of code ``Code/unwritable``: `catch ExportError.unwritable`.
    public static let unwritable = Code.unwritable
    /// Matches an error of code ``Code/store``: `catch ExportError.store`.
    public static let store = Code.store
}

extension ExportError.Code {
    /// Whether `error` is a ``ExportError`` of this code, so that
    /// `catch ExportError.unknownField` (or `case ExportError.unknownField`) compiles.
    public static func ~= (pattern: ExportError.Code, error: any Error) -> Bool {
        (error as? ExportError)?.code == pattern
    }
}
