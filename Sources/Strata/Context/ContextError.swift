/// An error from the object context: a name that the schema does not know, a
/// value of the wrong type, an object from elsewhere, a delete that a rule
/// denies, or a save that conflicts with another writer.
///
/// ```swift
/// do { try context.save() } catch ContextError.Code.conflict { … }
/// ```
public struct ContextError: Error, CustomStringConvertible, Sendable {
    /// The kinds of context error.
    public enum Code: String, Sendable {
        /// The schema has no entity of that name.
        case unknownEntity
        /// The entity has no property of that name.
        case unknownProperty
        /// An attribute was used as a relationship or the other way round.
        case wrongPropertyKind
        /// A value does not fit the attribute's type.
        case wrongType
        /// The object belongs to another context, or was forgotten by `reset()`.
        case foreignObject
        /// The object's row is gone from the store.
        case objectNotFound
        /// An abstract entity cannot have instances.
        case abstractEntity
        /// A delete rule `deny` blocks the save.
        case deleteDenied
        /// Another writer changed or deleted rows this save would overwrite.
        case conflict
        /// The model cannot drive a context (a pattern that does not compile, say).
        case invalidSchema
        /// A fetch request does not fit its use (sections by a key it is not
        /// sorted by first, say).
        case invalidFetchRequest
        /// The model's version hashes are not the store's (a read-write
        /// context needs the exact version).
        case modelMismatch
        /// A read-only context was asked to save.
        case readOnly
    }

    /// What kind of error this is.
    public var code: Code
    /// What happened, naming the entities, properties and objects involved.
    public var message: String
    /// The objects concerned (conflicts, denied deletes).
    public var objects: [ObjectID]

    init(_ code: Code, _ message: String, objects: [ObjectID] = []) {
        self.code = code
        self.message = message
        self.objects = objects
    }

    /// The message.
    public var description: String { message }
}

extension ContextError.Code {
    /// Lets callers write `catch ContextError.Code.conflict`.
    public static func ~= (pattern: ContextError.Code, error: any Error) -> Bool {
        (error as? ContextError)?.code == pattern
    }
}
