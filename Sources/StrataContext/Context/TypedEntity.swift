import Foundation
import StrataQuery
import StrataSchema

/// A class generated for one entity by `strata schema swift` or the
/// `StrataModelPlugin`: a ``ManagedObject`` subclass with one typed
/// property per attribute and relationship.
///
/// ```swift
/// let entry = DiaryEntry(context: context)
/// entry.title = "Paris"
/// let photo = Medium(context: context)
/// entry.addToMedia(photo)
/// photo.type = "image"
/// photo.data = Data([1])
/// try context.save()
/// let found = try context.fetch(DiaryEntry.self, where: "title == %@", "Paris")
/// ```
///
/// A context hands out instances of the generated classes once it has
/// registered their model: the first typed call on it does that
/// (``init(context:)``, ``Context/fetch(_:where:_:sortedBy:)``), or
/// ``Context/register(_:)`` up front. Registering checks that every class's
/// entity has the same Core Data version hash in the context's model, so a
/// generated property always names an attribute of the right type.
public protocol TypedEntity: ManagedObject {
    /// The entity the class stands for.
    static var entityName: String { get }
    /// The model version the class was generated from, with its sibling
    /// classes.
    static var model: any TypedModel.Type { get }
}

/// The classes generated from one model version, as the generator writes
/// them (an enum `<Model>Model`).
public protocol TypedModel {
    /// The model's name.
    static var name: String { get }
    /// The version the classes were generated from.
    static var version: Int { get }
    /// One class per entity.
    static var entityClasses: [any TypedEntity.Type] { get }
    /// Each entity's Core Data version hash (base64) in that version.
    static var versionHashes: [String: String] { get }
    /// The version's schema file (`strata-schema/1`), so that an app needs
    /// no schema files at run time to create or open a store of it.
    static var schemaJSON: String { get }
}

extension TypedModel {
    /// The model version the classes were generated from, decoded from
    /// ``schemaJSON``.
    ///
    /// - Throws: ``SchemaError`` when the text does not decode (it was
    ///   edited by hand).
    public static func loadSchema() throws -> Model {
        try SchemaDecoder().decode(Data(schemaJSON.utf8), file: "\(name)/\(version).json")
    }
}

extension TypedEntity {
    /// Inserts a new object of the class's entity into `context`, with the
    /// schema's defaults applied, as Core Data's `init(context:)` does.
    ///
    /// It cannot fail at once: when the context's model has no such entity
    /// (classes generated from another version), or the entity is abstract,
    /// the object belongs to no context, its properties read as nil or
    /// their defaults, and the context's next ``Context/save()`` throws the
    /// reason (until ``Context/rollback()``).
    public init(context: Context) {
        let seed = context.typedInsertionSeed(for: Self.self)
        self.init(seed)
        if seed.isRegistered { context.didInsert(self) }
    }

    /// A request for every object of the class's entity (subentities
    /// included), for ``Context/fetch(_:_:)``.
    public static func fetchRequest() -> FetchRequest {
        FetchRequest(entity: entityName)
    }

    /// ``fetchRequest()``, narrowed by the predicate `format` when given.
    static func fetchRequest(
        where format: String?, _ arguments: [any PredicateArgumentConvertible]
    ) throws -> FetchRequest {
        guard let format else { return fetchRequest() }
        return try FetchRequest(entity: entityName, where: format, arguments)
    }
}
