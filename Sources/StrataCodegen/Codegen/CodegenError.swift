import StrataSchema

/// Why the generator wrote nothing: names that would make two declarations
/// collide, each located in the schema file.
///
/// ```swift
/// do {
///     _ = try SwiftClassGenerator().generate(model, file: "Schemas/Diary/3.json")
/// } catch let error as CodegenError {
///     print(error)  // Schemas/Diary/3.json: $.entities.DiaryEntry: its class name …
/// }
/// ```
public struct CodegenError: Error, CustomStringConvertible, Sendable {
    /// Every collision, with the file and JSON path of the name.
    public var issues: [SchemaIssue]

    /// Creates an error.
    public init(issues: [SchemaIssue]) {
        self.issues = issues
    }

    /// One issue per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
