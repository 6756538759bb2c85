import StrataStore

/// An error from the object context: a name that the schema does not know, a
/// value of the wrong type, an object from elsewhere, a delete that a rule
/// denies, or a save that conflicts with another writer.
///
/// Match one kind with its static member, as every Strata error with kinds
/// allows:
///
/// ```swift
/// do {
///     try context.save()
/// } catch ContextError.conflict {
///     context.rollback()
/// }
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

    package init(_ code: Code, _ message: String, objects: [ObjectID] = []) {
        self.code = code
        self.message = message
        self.objects = objects
    }

    /// The message.
    public var description: String { message }
}

// MARK: - Matching

extension ContextError {
    /// Matches an error of code ``Code/unknownEntity``: `catch ContextError.unknownEntity`.
    public static let unknownEntity = Code.unknownEntity
    /// Matches an error of code ``Code/unknownProperty``: `catch ContextError.unknownProperty`.
    public static let unknownProperty = Code.unknownProperty
    /// Matches an error of code ``Code/wrongPropertyKind``: `catch ContextError.wrongPropertyKind`.
    public static let wrongPropertyKind = Code.wrongPropertyKind
    /// Matches an error of code ``Code/wrongType``: `catch ContextError.wrongType`.
    public static let wrongType = Code.wrongType
    /// Matches an error of code ``Code/foreignObject``: `catch ContextError.foreignObject`.
    public static let foreignObject = Code.foreignObject
    /// Matches an error of code ``Code/objectNotFound``: `catch ContextError.objectNotFound`.
    public static let objectNotFound = Code.objectNotFound
    /// Matches an error of code ``Code/abstractEntity``: `catch ContextError.abstractEntity`.
    public static let abstractEntity = Code.abstractEntity
    /// Matches an error of code ``Code/deleteDenied``: `catch ContextError.deleteDenied`.
    public static let deleteDenied = Code.deleteDenied
    /// Matches an error of code ``Code/conflict``: `catch ContextError.conflict`.
    public static let conflict = Code.conflict
    /// Matches an error of code ``Code/invalidSchema``: `catch ContextError.invalidSchema`.
    public static let invalidSchema = Code.invalidSchema
    /// Matches an error of code ``Code/invalidFetchRequest``: `catch ContextError.invalidFetchRequest`.
    public static let invalidFetchRequest = Code.invalidFetchRequest
    /// Matches an error of code ``Code/modelMismatch``: `catch ContextError.modelMismatch`.
    public static let modelMismatch = Code.modelMismatch
    /// Matches an error of code ``Code/readOnly``: `catch ContextError.readOnly`.
    public static let readOnly = Code.readOnly
}

extension ContextError.Code {
    /// Whether `error` is a ``ContextError`` of this code, so that
    /// `catch ContextError.unknownEntity` (or `case ContextError.unknownEntity`) compiles.
    public static func ~= (pattern: ContextError.Code, error: any Error) -> Bool {
        (error as? ContextError)?.code == pattern
    }
}
