import Foundation
import StrataContext
import StrataCore
import StrataQuery
import StrataSchema
import StrataStore

/// What one ``CustomStepWork/update(_:set:reading:where:_:)`` reads and
/// writes, resolved against both versions before the first row.
struct BatchUpdatePlan {
    /// The source read: the key, then the named attributes.
    let query: RowQuery
    /// The named source attributes, in the query's order after the key.
    let sourceAttributes: [Attribute]
    /// The names of ``sourceAttributes``, as rows look them up.
    let names: [String]
    /// The destination's rows, and the attribute's column among them.
    let layout: EntityRowLayout
    let column: Int
    /// The attribute written, its rules, and the destination's entity.
    let attribute: Attribute
    let check: AttributeCheck?
    let destinationEntity: String

    init(
        _ work: CustomStepWork, entity: String, attribute name: String, reading: [String],
        predicate: FetchPredicate?
    ) throws {
        let sourceModel = work.sourceModel
        guard sourceModel.entity(named: entity) != nil else {
            throw ContextError(
                .unknownEntity, "version \(sourceModel.version) has no entity \(entity)")
        }
        let newer = work.plan.correspondence.entities.first { $0.value == entity }?.key
        guard let newer, let newerEntity = work.destinationModel.entity(named: newer) else {
            throw ContextError(
                .unknownEntity,
                "version \(work.destinationModel.version) has no entity continuing \(entity)")
        }
        destinationEntity = newerEntity.name
        let layout = try work.destination.description(of: newer).layout
        guard let column = layout.attributes.firstIndex(where: { $0.name == name }) else {
            throw ContextError(
                .unknownProperty,
                "\(newer) has no stored attribute '\(name)' in version "
                    + "\(work.destinationModel.version)")
        }
        self.layout = layout
        self.column = column
        attribute = layout.attributes[column]
        check = try AttributeCheck(attribute)

        let attributes = sourceModel.allAttributes(of: entity)
        var sourceAttributes: [Attribute] = []
        var index: [String: Int] = [:]
        for read in reading where index[read] == nil {
            guard let found = attributes.first(where: { $0.name == read && !$0.isTransient })
            else {
                throw ContextError(
                    .unknownProperty,
                    "\(entity) has no stored attribute '\(read)' in version "
                        + "\(sourceModel.version)")
            }
            index[read] = sourceAttributes.count
            sourceAttributes.append(found)
        }
        self.sourceAttributes = sourceAttributes
        names = sourceAttributes.map(\.name)

        var query = RowQuery(entity, [.key] + sourceAttributes.map { .attribute($0.name) })
        if let predicate {
            let connection = work.source.store.connection
            try PredicateSQLFunctions.register(on: connection)
            var compiler = try PredicateSQLCompiler(
                mapping: work.source.rowReader.tables, entity: entity)
            compiler.predicateText = predicate.description
            let condition = try compiler.condition(predicate)
            query.from = compiler.fromClause
            query.filters.append(.compiled(condition))
            query.arguments = compiler.arguments
        }
        self.query = query
    }

    /// The row the statement stands on: the key, then the named attributes.
    func row(_ statement: Statement, storeURL: URL) throws -> SourceRow {
        try row(key: statement.int64(at: 0), storeURL: storeURL) {
            statement.value(at: Int32($0))
        }
    }

    /// The row of a call of ``AttachedRowUpdate``'s function: the key,
    /// then the named attributes' columns.
    func row(_ arguments: SQLFunctionArguments, storeURL: URL) throws -> SourceRow {
        try row(key: arguments.int64(at: 0), storeURL: storeURL) { arguments.value(at: $0) }
    }

    /// The row of `key` whose attribute `i` is stored as `column(i + 1)`.
    private func row(key: Int64, storeURL: URL, _ column: (Int) -> SQLiteValue) throws
        -> SourceRow
    {
        var values: [AttributeValue?] = []
        values.reserveCapacity(sourceAttributes.count)
        for (offset, attribute) in sourceAttributes.enumerated() {
            values.append(
                try ColumnValueCodec.decode(
                    column(offset + 1), attribute, storeURL: storeURL, primaryKey: key))
        }
        return SourceRow(primaryKey: key, names: names, values: values)
    }

    /// `value` as the column stores it, checked as a context save checks it.
    func stored(_ value: AttributeValue?, key: Int64) throws -> SQLiteValue {
        let object = ObjectID(entityName: destinationEntity, key: key)
        func failure(_ rule: String, _ message: String) -> ValidationError {
            ValidationError(failures: [
                .init(object: object, property: attribute.name, rule: rule, message: message)
            ])
        }
        guard let value else {
            if !attribute.isOptional { throw failure("required", "a value is required") }
            return ColumnValueCodec.encode(nil, attribute)
        }
        let fitted: AttributeValue
        switch value.fitting(attribute.type) {
        case .fits(let fit): fitted = fit
        case .outOfRange(let range):
            throw ContextError(
                .wrongType,
                "\(destinationEntity).\(attribute.name) is \(attribute.type.rawValue); "
                    + "\(value) is outside its range \(range)")
        case .wrongType:
            throw ContextError(
                .wrongType,
                "\(destinationEntity).\(attribute.name) is \(attribute.type.rawValue); "
                    + "\(value.typeName) does not fit")
        }
        // A date beyond the years 0000–9999 is not a save's concern either.
        if let violation = check?.check(fitted), violation.rule != .type {
            throw failure(violation.rule.rawValue, violation.detail)
        }
        return ColumnValueCodec.encode(fitted, attribute)
    }
}
