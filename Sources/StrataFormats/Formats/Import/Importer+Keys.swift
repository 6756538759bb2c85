import Foundation
import StrataCore
import StrataSchema
import StrataStore

// MARK: - Unique keys and related objects

extension Importer {
    /// The number of keys looked up in one query.
    static let keysPerQuery = 500

    /// Finds which records of a batch are already in the store: one query
    /// for all the keys the run has not seen (or, when no unique index
    /// covers the key, one read of every key of the table for the whole run).
    func lookUpKeys(of records: [PreparedRecord], plan: EntityImportPlan) throws {
        guard let key = plan.uniqueKey else { return }
        let keyColumns: [RowColumn] = key.map { .attribute(plan.attributes[$0].name) }
        let prefix = plan.name + "\u{1E}"
        func remember(_ row: Statement) {
            let text = (0..<key.count).map { Self.keyText(row, column: Int32($0 + 1)) }
                .joined(separator: "\u{1F}")
            if keyIndex[ExactText(prefix + text)] == nil {
                keyIndex[ExactText(prefix + text)] = (row.int64(at: 0), false)
            }
        }
        if !plan.isKeyIndexed {
            guard !preloadedKeys.contains(plan.name) else { return }
            preloadedKeys.insert(plan.name)
            summary.keyLookups += 1
            var query = RowQuery(plan.name, [.key] + keyColumns)
            query.inKeyOrder = false
            try RowReader(store, tables: mapping).forEachRow(query, remember)
            return
        }
        var wanted: [[ImportCell]] = []
        var seen: Set<ExactText> = []
        for record in records {
            let cells = key.map { record.cells[$0] }
            let text = cells.map(\.keyText).joined(separator: "\u{1F}")
            if keyIndex[ExactText(prefix + text)] == nil, seen.insert(ExactText(text)).inserted {
                wanted.append(cells)
            }
        }
        var start = 0
        while start < wanted.count {
            let chunk = wanted[start..<min(start + Self.keysPerQuery, wanted.count)]
            start += chunk.count
            var query = RowQuery(plan.name, [.key] + keyColumns)
            query.filters = [.values(keyColumns, count: chunk.count)]
            query.inKeyOrder = false
            summary.keyLookups += 1
            try writer?.query(
                query,
                chunk.flatMap { $0.map(\.sqliteValue) }, remember)
        }
    }

    /// The key of the row of `plan` whose unique key is `cells`, from the
    /// run's index or one query (nested records with a unique key).
    func lookUpKey(_ text: String, cells: [ImportCell], plan: EntityImportPlan) throws -> Int64? {
        guard let key = plan.uniqueKey else { return nil }
        var query = RowQuery(plan.name, [.key])
        query.filters = key.map { .equals(.attribute(plan.attributes[$0].name)) }
        query.inKeyOrder = false
        query.limit = 1
        var found: Int64?
        try writer?.query(
            query, cells.map(\.sqliteValue)
        ) { found = $0.int64(at: 0) }
        if let found { keyIndex[ExactText(plan.name + "\u{1E}" + text)] = (found, false) }
        return found
    }

    /// The text ``ImportCell/keyText`` gives for column `column` of `row`.
    static func keyText(_ row: Statement, column: Int32) -> String {
        switch row.value(at: column) {
        case .null: "n"
        case .integer(let number): "i\(number)"
        case .real(let number): "r\(number)"
        case .text(let text): "t" + text
        case .blob(let data): "b" + data.base64EncodedString()
        }
    }

    /// The attribute of `relationship`'s destination that a scalar value
    /// names: its `relatedBy`, else the destination's one-attribute
    /// uniqueness constraint, else an attribute called `name` or `title`.
    func relatedByAttribute(of relationship: Relationship) throws -> (EntityImportPlan, Int)? {
        let cacheKey = RelatedByKey(
            destination: relationship.destination, relationship: relationship.name)
        if let known = relatedByCache[cacheKey] { return known }
        let found = try findRelatedByAttribute(of: relationship)
        relatedByCache[cacheKey] = found
        return found
    }

    private func findRelatedByAttribute(of relationship: Relationship) throws -> (
        EntityImportPlan, Int
    )? {
        let destination = try plan(relationship.destination)
        let entity = model.entity(named: relationship.destination)
        var candidates: [String] = []
        if let relatedBy = relationship.relatedBy { candidates.append(relatedBy) }
        if let only = entity?.uniquenessConstraints.first(where: { $0.count == 1 })?.first {
            candidates.append(only)
        }
        candidates += ["name", "title"]
        for name in candidates {
            if let index = destination.attributes.firstIndex(where: { $0.name == name }) {
                return (destination, index)
            }
        }
        return nil
    }

    /// The object of `relationship`'s destination whose `relatedBy`
    /// attribute is `value`: from the run's cache, the store, or created
    /// (with that one value, defaults and the schema's checks). Nil when the
    /// destination is the imported entity and the object is not there yet
    /// and `deferIfImported`: it may come later in the input.
    ///
    /// When `owner` is given and `relationship`'s inverse is a to-one, see
    /// ``findOrCreate(_:in:attribute:for:at:deferIfImported:owner:)``.
    func findOrCreate(
        _ value: ImportCell, for relationship: Relationship, by kind: LinkKind = .relatedBy,
        at position: SourcePosition, deferIfImported: Bool, owner: Owner? = nil
    ) throws -> (Int64, Int)? {
        switch kind {
        case .relatedBy:
            break
        case .objectID:
            return try findObject(
                value, for: relationship, at: position, deferIfImported: deferIfImported)
        case .attribute(let name):
            let destination = try plan(relationship.destination)
            guard let attribute = destination.attributes.firstIndex(where: { $0.name == name })
            else { return nil }
            return try findOrCreate(
                value, in: destination, attribute: attribute, for: relationship, at: position,
                deferIfImported: deferIfImported, owner: owner)
        }
        guard let (destination, attribute) = try relatedByAttribute(of: relationship) else {
            throw ImportError(
                .structure, at: position,
                "\(relationship.name) links to \(relationship.destination) by a value, but "
                    + "\(relationship.destination) has no relatedBy attribute (give relatedBy in the schema)"
            )
        }
        return try findOrCreate(
            value, in: destination, attribute: attribute, for: relationship, at: position,
            deferIfImported: deferIfImported, owner: owner)
    }

    /// The object a link by object id names: the one written for the input
    /// record with that `_id`, else the store's object of that key in the
    /// named entity (or one inheriting from it). Nil when the destination is
    /// the imported entity and `deferIfImported`: the record may come later.
    ///
    /// - Throws: ``ImportError`` at `position` when neither has it: an id
    ///   names an object, which a link never creates.
    private func findObject(
        _ value: ImportCell, for relationship: Relationship, at position: SourcePosition,
        deferIfImported: Bool
    ) throws -> (Int64, Int)? {
        guard case .text(let text) = value, let id = ObjectID(description: text),
            let primaryKey = id.primaryKey
        else { return nil }
        if let known = importedIDs[text] { return (known.key, known.entity) }
        var found: (Int64, Int)?
        var query = RowQuery(id.entityName, [.key, .entity])
        query.filters = [.key]
        try writer?.query(query, [.integer(primaryKey)]) {
            found = ($0.int64(at: 0), Int($0.int64(at: 1)))
        }
        if let found {
            if !relationship.inverse.isEmpty {
                try plan(relationship.destination).linkedExistingKeys.insert(found.0)
            }
            return found
        }
        // An object of the imported entity may be a record further on.
        if deferIfImported, let number = mapping.entities[id.entityName]?.number,
            try plan(summary.entity).treeNumbers.contains(number)
        {
            return nil
        }
        throw ImportError(
            .structure, at: position,
            "\(relationship.name) names \(text), which is neither a record of this input (by its "
                + "_id) nor an object of the store; import the \(id.entityName) records first, with "
                + "their _id, in the same input, or link by a value (--fields \(relationship.name).name)"
        )
    }

    /// The object a link by value is made from: its key, entity plan, and
    /// whether the store had it before this record (only then can another
    /// object of the destination already belong to it).
    struct Owner {
        let key: Int64
        let plan: EntityImportPlan
        let isNew: Bool
    }

    /// ``findOrCreate(_:for:at:deferIfImported:owner:)`` with the
    /// destination's `relatedBy` attribute already found (once per field,
    /// not per value).
    ///
    /// A link by value never takes an object from another owner. When
    /// `relationship`'s inverse is a to-one (a recipe's `ingredients`, whose
    /// `recipe` names one recipe; or a one-to-one pair), a destination
    /// belongs to at most one object, so only one that belongs to nobody or
    /// to `owner` already is found; otherwise a new one is created. When
    /// no new one can be made (the value is unique in the destination, or
    /// the destination has required attributes no default gives), the
    /// record is refused, naming the object that has it and its owner.
    func findOrCreate(
        _ value: ImportCell, in destination: EntityImportPlan, attribute: Int,
        for relationship: Relationship, at position: SourcePosition, deferIfImported: Bool,
        owner: Owner? = nil
    ) throws -> (Int64, Int)? {
        if let owner, let inverse = destination.owningSlot(of: relationship) {
            return try findOrCreateOwned(
                value, in: destination, attribute: attribute, inverse: inverse,
                for: relationship, at: position, deferIfImported: deferIfImported, owner: owner)
        }
        let text = value.keyText
        if let cached = destination.relatedObjects[ExactText(text)] {
            if cached.isFromStore, !relationship.inverse.isEmpty {
                destination.linkedExistingKeys.insert(cached.key)
            }
            return (cached.key, cached.entity)
        }
        var found: (Int64, Int)?
        var query = RowQuery(destination.name, [.key, .entity])
        query.filters = [.equals(.attribute(destination.attributes[attribute].name))]
        query.limit = 1
        try writer?.query(
            query, [value.sqliteValue]
        ) { found = ($0.int64(at: 0), Int($0.int64(at: 1))) }
        let isFromStore = found != nil
        if found == nil {
            if deferIfImported, destination.name == summary.entity { return nil }
            found = try create(
                value, in: destination, attribute: attribute, for: relationship, at: position)
        }
        guard let found else { return nil }
        // Bounded: past 100,000 distinct values the cache starts again.
        if destination.relatedObjects.count >= 100_000 { destination.relatedObjects = [:] }
        destination.relatedObjects[ExactText(text)] = (found.0, found.1, isFromStore)
        // The destination's inverse changes with the link, as Core Data sees it.
        if isFromStore, !relationship.inverse.isEmpty {
            destination.linkedExistingKeys.insert(found.0)
        }
        return found
    }

    /// A destination whose inverse (slot `inverse` of `destination`) is a
    /// to-one: one whose inverse is empty or `owner`, else a new one.
    private func findOrCreateOwned(
        _ value: ImportCell, in destination: EntityImportPlan, attribute: Int, inverse: Int,
        for relationship: Relationship, at position: SourcePosition, deferIfImported: Bool,
        owner: Owner
    ) throws -> (Int64, Int)? {
        guard destination.relationships[inverse].foreignKeyCell != nil else { return nil }
        let text = value.keyText
        let column = RowColumnName.attribute(destination.attributes[attribute].name)
        let ownerColumn = RowColumnName.toOne(
            destination.relationships[inverse].relationship.name)
        var found: (Int64, Int)?
        // An object new in this run owns nothing yet: when no free object
        // has the value (found so before), there is nothing to look up.
        if !owner.isNew || !destination.ownedValues.contains(text) {
            var query = RowQuery(destination.name, [.key, .entity])
            query.filters = [.equals(column), .isNullOrEquals(ownerColumn)]
            query.limit = 1
            try writer?.query(
                query, [value.sqliteValue, .integer(owner.key)]
            ) { found = ($0.int64(at: 0), Int($0.int64(at: 1))) }
        }
        if let found {
            destination.linkedExistingKeys.insert(found.0)
            return found
        }
        if deferIfImported, destination.name == summary.entity { return nil }
        // The object of that value that another owner has (the first).
        func taken() throws -> (key: Int64, entity: Int, owner: Int64?)? {
            var first: (Int64, Int, Int64?)?
            var query = RowQuery(destination.name, [.key, .entity, .toOne(ownerColumn.property)])
            query.filters = [.equals(column)]
            query.limit = 1
            try writer?.query(
                query, [value.sqliteValue]
            ) {
                first = (
                    $0.int64(at: 0), Int($0.int64(at: 1)), $0.isNull(at: 2) ? nil : $0.int64(at: 2)
                )
            }
            return first
        }
        let name = destination.attributes[attribute].name
        let isUnique =
            model.entity(named: destination.name)?.uniquenessConstraints.contains([name]) == true
        var other: (key: Int64, entity: Int, owner: Int64?)?
        if isUnique {
            // No second object of the value can be made: the one there, or none.
            other = try taken()
            if let other, other.owner == nil || other.owner == owner.key {
                destination.linkedExistingKeys.insert(other.key)
                return (other.key, other.entity)
            }
        }
        let owned = { (other: (key: Int64, entity: Int, owner: Int64?)) -> String in
            "\(destination.name)/p\(other.key) has that \(name) but belongs to "
                + "\(owner.plan.name)/p\(other.owner ?? 0) (its \(relationship.inverse) is a to-one), and "
                + "a link by value takes no object from another owner"
        }
        if isUnique, let other {
            throw ImportError(
                .validation, at: position,
                "\(relationship.name) of \(owner.plan.name)/p\(owner.key) names a \(destination.name) "
                    + "by \(name): \(owned(other)); \(destination.name) allows one object per \(name)"
            )
        }
        // Bounded as the cache of found objects is.
        if destination.ownedValues.count >= 100_000 { destination.ownedValues = [] }
        destination.ownedValues.insert(text)
        return try create(
            value, in: destination, attribute: attribute, for: relationship, at: position
        ) { try taken().map { $0.owner == nil ? "" : " (" + owned($0) + ")" } ?? "" }
    }

    /// Inserts the object of `destination` whose `relatedBy` attribute is
    /// `value`; `reason` adds to the message when it cannot be made.
    private func create(
        _ value: ImportCell, in destination: EntityImportPlan, attribute: Int,
        for relationship: Relationship, at position: SourcePosition,
        reason: () throws -> String = { "" }
    ) throws -> (Int64, Int)? {
        var cells = Array(repeating: ImportCell.absent, count: destination.cellCount)
        cells[attribute] = value
        do {
            try completer.completeInsert(&cells, plan: destination)
        } catch {
            let excerpt = ValueCoercer.excerpt(value.keyText.dropFirst().description)
            throw ImportError(
                error.code, at: position,
                "cannot create the \(destination.name) '\(excerpt)' that \(relationship.name) "
                    + "names\(try reason()): \(error.message)")
        }
        guard let writer else { return nil }
        let key = writer.nextKey(for: destination)
        try writer.insert(cells, key: key, plan: destination)
        countInsert(destination)
        return (key, destination.number)
    }

    /// Links the records that named an object of the imported entity not
    /// read yet: after the input (or each commit), the object must exist.
    func resolvePendingLinks() throws {
        let links = pendingLinks
        pendingLinks = []
        for link in links {
            let slot = link.plan.relationships[link.slot]
            let destinationPlan = try plan(slot.relationship.destination)
            let isOneToOne = destinationPlan.owningSlot(of: slot.relationship) != nil
            guard
                let (destination, number) = try findOrCreate(
                    link.key, for: slot.relationship, by: link.kind, at: link.position,
                    deferIfImported: true,
                    owner: isOneToOne
                        ? Owner(key: link.source, plan: link.plan, isNew: !link.sourceExisted)
                        : nil)
            else {
                let name: String
                switch link.kind {
                case .attribute(let attribute): name = attribute
                case .objectID: name = "id"
                case .relatedBy:
                    name =
                        try relatedByAttribute(of: slot.relationship).map {
                            $0.0.attributes[$0.1].name
                        } ?? "key"
                }
                try reject(
                    ImportError(
                        .structure, at: link.position,
                        "\(slot.relationship.name): no \(slot.relationship.destination) with \(name) "
                            + "'\(ValueCoercer.excerpt(String(link.key.keyText.dropFirst())))' in the store or the input"
                    ),
                    text: nil, record: nil)
                continue
            }
            try writer?.setToOne(
                slot, of: link.source, plan: link.plan, to: destination, destinationNumber: number)
            if isOneToOne {
                try linkOtherSide(
                    slot, of: link.source, plan: link.plan, to: destination,
                    destinationPlan: destinationPlan, isWritten: false,
                    sourceExisted: link.sourceExisted)
            }
        }
    }
}
