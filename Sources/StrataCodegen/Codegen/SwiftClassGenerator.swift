import Foundation
import StrataSchema

/// Writes Swift source of typed entity classes for one model version, as
/// Xcode's "Class Definition" code generation does for Core Data: per
/// entity a ``ManagedObject`` subclass conforming to ``TypedEntity``, with a
/// typed property per attribute and relationship, Core Data's
/// `addTo…`/`removeFrom…` methods, and subclassing for entity inheritance;
/// and an enum `<Model>Model` (``TypedModel``) listing the classes.
///
/// ```swift
/// let generated = try SwiftClassGenerator().generate(model, file: "Schemas/Diary/3.json")
/// for warning in generated.warnings { print("warning: \(warning)") }
/// try generated.write(to: outputURL)  // Atomic; an identical file is left alone.
/// ```
///
/// Names that are not Swift identifiers are renamed (see the warnings);
/// names that then collide are a ``CodegenError``.
public struct SwiftClassGenerator: Sendable {
    /// Creates a generator.
    public init() {}

    /// The source of `model`'s classes. `file` names the schema file in
    /// warnings and errors (and in the source's header).
    ///
    /// - Throws: ``CodegenError`` when two entities get the same class name,
    ///   two properties of a class the same member name, or an entity the
    ///   model enum's name; or when the model cannot be written as a schema
    ///   file (to embed it).
    public func generate(_ model: Model, file: String) throws -> GeneratedSwift {
        var plan = CodegenPlan(model: model, file: file)
        plan.nameClasses()
        plan.nameMembers()
        guard plan.issues.isEmpty else { throw CodegenError(issues: plan.issues) }
        let schemaJSON: String
        do {
            schemaJSON = try SchemaEncoder().encode(model)
        } catch {
            throw CodegenError(issues: error.issues)
        }
        var writer = SwiftSourceWriter(plan: plan, schemaJSON: schemaJSON)
        return GeneratedSwift(source: writer.write(), warnings: plan.warnings)
    }

    /// The names ``generate(_:file:)`` would change, as its warnings (the
    /// entity or property, its Swift name and why), without generating:
    /// `strata schema check` reports them, from the same rules.
    ///
    /// ```swift
    /// for warning in SwiftClassGenerator().renamings(model, file: "1.json") {
    ///     print("warning: \(warning)")  // …names its property descriptionProperty
    /// }
    /// ```
    ///
    /// - Parameter file: The schema file, named in the warnings.
    /// - Returns: One warning per renamed class or member.
    public func renamings(_ model: Model, file: String) -> [SchemaIssue] {
        var plan = CodegenPlan(model: model, file: file)
        plan.nameClasses()
        plan.nameMembers()
        return plan.warnings
    }
}
