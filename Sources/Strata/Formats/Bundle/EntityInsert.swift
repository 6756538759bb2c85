import Foundation

/// The prepared `INSERT` of one entity's rows when a bundle is loaded:
/// `Z_PK`, `Z_ENT`, `Z_OPT`, the attribute columns, then each to-one's key
/// (and entity number) column; values are bound per row, NULL by default.
final class EntityInsert {
    /// The table rows go into.
    let table: String
    /// The stored attributes, in column order.
    let attributes: [Attribute]
    /// The column of each attribute, by slot.
    let attributeColumns: [String]
    /// The slot of each attribute, by name.
    let attributeSlots: [String: Int]
    /// The to-one relationships with columns, in column order.
    let toOneRelationships: [Relationship]
    /// The slot of each to-one, by name.
    let toOneSlots: [String: Int]
    /// The to-many relationships, by name.
    let toMany: [String: Relationship]
    private let statement: Statement
    private let number: Int
    /// The parameter of each to-one's key; its entity column (when the
    /// table has one) is the next.
    private var toOneParameters: [Int32] = []
    private var hasEntityColumn: [Bool] = []

    init(
        entity: String, model: Model, mapping: StoreMapping.EntityMapping, number: Int,
        connection: Connection
    ) throws {
        self.number = number
        table = mapping.table
        let quoted = SQLiteIdentifier.quoted
        var attributeColumns: [String] = []
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var attributes: [Attribute] = []
        for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
            guard let column = mapping.attributeColumns[attribute.name] else { continue }
            attributes.append(attribute)
            attributeColumns.append(column)
            columns.append(quoted(column))
        }
        var toOne: [Relationship] = []
        var toMany: [String: Relationship] = [:]
        var toOneParameters: [Int32] = []
        var hasEntityColumn: [Bool] = []
        for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
            if relationship.isToMany {
                toMany[relationship.name] = relationship
                continue
            }
            guard let columnsOfOne = mapping.toOne[relationship.name] else { continue }
            toOne.append(relationship)
            columns.append(quoted(columnsOfOne.foreignKey))
            toOneParameters.append(Int32(columns.count))
            if let entityColumn = columnsOfOne.entityColumn {
                columns.append(quoted(entityColumn))
                hasEntityColumn.append(true)
            } else {
                hasEntityColumn.append(false)
            }
        }
        self.attributes = attributes
        self.attributeColumns = attributeColumns
        attributeSlots = Dictionary(
            attributes.enumerated().map { ($0.element.name, $0.offset) }
        ) { a, _ in a }
        toOneRelationships = toOne
        toOneSlots = Dictionary(toOne.enumerated().map { ($0.element.name, $0.offset) }) { a, _ in
            a
        }
        self.toMany = toMany
        self.toOneParameters = toOneParameters
        self.hasEntityColumn = hasEntityColumn
        statement = try connection.prepare(
            "INSERT INTO \(quoted(mapping.table)) (\(columns.joined(separator: ", "))) VALUES ("
                + columns.map { _ in "?" }.joined(separator: ", ") + ")")
    }

    /// Starts a row with key `key`: every other value NULL.
    func reset(key: Int64) {
        statement.clearBindings()
        try? statement.bind(.integer(key), at: 1)  // Parameters 1–3 always exist.
        try? statement.bind(.integer(Int64(number)), at: 2)
        try? statement.bind(.integer(1), at: 3)
    }

    /// Sets attribute `slot`.
    func set(_ slot: Int, _ value: SQLiteValue) throws {
        try statement.bind(value, at: Int32(slot + 4))
    }

    /// Makes room for `count` bytes in attribute `slot`, written after the
    /// row is inserted (through ``Blob``).
    func setZeroBlob(_ slot: Int, count: Int) throws {
        try statement.bindZeroBlob(count: count, at: Int32(slot + 4))
    }

    /// Sets to-one `slot` to the object `key` of entity `entityNumber`.
    func setToOne(_ slot: Int, key: Int64, entityNumber: Int) {
        let parameter = toOneParameters[slot]
        try? statement.bind(.integer(key), at: parameter)  // The parameter exists: built above.
        if hasEntityColumn[slot] {
            try? statement.bind(.integer(Int64(entityNumber)), at: parameter + 1)
        }
    }

    /// Inserts the row.
    func run() throws {
        try statement.execute()
    }
}
