import Foundation
import StrataCore
import StrataSchema

/// Reads the objects of a store through a ``StoreMapping``: attribute values
/// decoded by type (dates from the 2001 epoch, external-storage blobs, UUIDs),
/// to-one references, and to-many relationships in their stored order.
///
/// ```swift
/// let reader = try StoreReader(store: store, model: model)
/// try reader.forEachObject(of: "BookmarkEntity") { bookmark in
///     print(bookmark.attributes["title"] ?? "-")
/// }
/// ```
public struct StoreReader {
    /// The store being read.
    public let store: Store
    /// Where everything lives in it.
    public let mapping: StoreMapping
    private let namesByNumber: [Int: String]

    /// A reader of `store`, whose data is described by `model`.
    ///
    /// - Throws: ``StoreError`` when the model does not fit the store's tables.
    public init(store: Store, model: Model) throws {
        self.store = store
        self.mapping = try StoreMapping(model: model, store: store)
        self.namesByNumber = Dictionary(store.entityRecords.map { ($0.number, $0.name) }) {
            first, _ in first
        }
    }

    /// Calls `body` with every object of `entityName` (and of its
    /// subentities, unless `includingSubentities` is false), in primary-key
    /// order, one row at a time.
    ///
    /// - Throws: ``StoreError`` for an unknown entity or undecodable value;
    ///   whatever `body` throws.
    public func forEachObject(
        of entityName: String, includingSubentities: Bool = true,
        _ body: (StoredObject) throws -> Void
    ) throws {
        guard let entity = mapping.entity(named: entityName) else {
            throw StoreError(
                .schemaMismatch, path: store.path, message: "no entity named \(entityName)")
        }
        let attributes = mapping.model.allAttributes(of: entityName)
            .compactMap { attribute in
                entity.attributeColumns[attribute.name].map { (attribute, $0) }
            }
        let toOnes = entity.toOne.sorted { $0.key < $1.key }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"] + attributes.map(\.1)
        for (_, key) in toOnes {
            columns.append(key.foreignKey)
            columns.append(key.entityColumn ?? key.foreignKey)
        }
        let numbers = includingSubentities ? entity.treeNumbers : [entity.number]
        let sql =
            "SELECT \(columns.map(SQLiteIdentifier.quoted).joined(separator: ", "))"
            + " FROM \(SQLiteIdentifier.quoted(entity.table))"
            + " WHERE Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", "))) ORDER BY Z_PK"
        let statement = try store.connection.prepare(sql)
        try statement.bind(numbers.map { .integer(Int64($0)) })
        while try statement.step() {
            let primaryKey = statement.int64(at: 0)
            let concrete = namesByNumber[Int(statement.int64(at: 1))] ?? entityName
            var object = StoredObject(
                reference: ObjectReference(entity: concrete, primaryKey: primaryKey),
                version: statement.int64(at: 2), attributes: [:], toOne: [:])
            var index: Int32 = 3
            for (attribute, _) in attributes {
                if let value = try decode(
                    statement.value(at: index), attribute, primaryKey: primaryKey)
                {
                    object.attributes[attribute.name] = value
                }
                index += 1
            }
            for (name, key) in toOnes {
                if !statement.isNull(at: index),
                    let destination = destinationName(
                        of: name, in: entityName,
                        storedNumber: key.entityColumn == nil ? nil : statement.int64(at: index + 1)
                    )
                {
                    object.toOne[name] = ObjectReference(
                        entity: destination, primaryKey: statement.int64(at: index))
                }
                index += 2
            }
            try body(object)
        }
    }

    /// The destinations of the to-many relationship `relationship` of
    /// `object`, in the relationship's stored order when it is ordered
    /// (`Z_FOK_` ascending), otherwise by primary key.
    public func destinations(of relationship: String, from object: ObjectReference) throws
        -> [ObjectReference]
    {
        guard let entity = mapping.entity(named: object.entity),
            let declared = mapping.model.allRelationships(of: object.entity).first(where: {
                $0.name == relationship
            }),
            let toMany = entity.toMany[relationship],
            let destination = mapping.entity(named: declared.destination)
        else {
            throw StoreError(
                .schemaMismatch, path: store.path,
                message: "\(object.entity) has no stored to-many relationship \(relationship)")
        }
        let statement = try store.connection.prepare(
            toMany.destinationsSQL(destinationTable: destination.table))
        try statement.bind([.integer(object.primaryKey)])
        var references: [ObjectReference] = []
        while try statement.step() {
            let name = namesByNumber[Int(statement.int64(at: 1))] ?? declared.destination
            references.append(ObjectReference(entity: name, primaryKey: statement.int64(at: 0)))
        }
        return references
    }

    /// The destination entity of a to-one: the `Z<n>_` column's entity when
    /// the destination has subentities, else the declared destination.
    private func destinationName(
        of relationship: String, in entityName: String, storedNumber: Int64?
    ) -> String? {
        if let storedNumber, let name = namesByNumber[Int(storedNumber)] { return name }
        return mapping.model.allRelationships(of: entityName).first { $0.name == relationship }?
            .destination
    }

    /// Decodes one column value by the attribute's type; nil for NULL.
    private func decode(_ value: SQLiteValue, _ attribute: Attribute, primaryKey: Int64) throws
        -> AttributeValue?
    {
        try ColumnValueCodec.decode(value, attribute, store: store, primaryKey: primaryKey)
    }
}
