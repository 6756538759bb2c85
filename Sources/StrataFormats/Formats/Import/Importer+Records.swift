import Foundation
import StrataCore
import StrataStore

// MARK: - Records of nested values (plists, JSON, txt)

extension Importer {
    /// Imports every record `reader` gives.
    ///
    /// - Returns: What was written.
    /// - Throws: ``ImportError`` for the first bad record (abort policy) or
    ///   a broken input; ``StoreError`` or ``SQLiteError`` when the store
    ///   refuses. Nothing is written when it throws.
    public func run(_ reader: any TreeRecordReader) throws -> ImportSummary {
        if let blocks = reader as? TextBlockReader, let entity = try flatBlocksEntity(blocks) {
            return try runFlatBlocks(blocks, entity: entity)
        }
        progressSource = reader
        coercer = coercerFactory(reader.file)
        if !options.computed.isEmpty {
            computedFieldsState = ComputedFieldsState(
                unseen: Set(options.computed.flatMap(\.fields)))
        }
        var entityByGroup: [String: String] = [:]
        return try runInTransactions {
            var batch: [(PreparedRecord, Data?, ImportRecord?)] = []
            var batchLimit = 1
            var lastFailure: Int64 = -1
            while true {
                let next: ImportRecord?
                do {
                    next = try reader.nextRecord()
                } catch let error as ImportError {
                    // A reader that failed twice at one place cannot go on.
                    guard error.position.byteOffset != lastFailure else { throw error }
                    lastFailure = error.position.byteOffset
                    try reject(
                        error, text: (reader as? JSONRecordReader)?.lastErrorText, record: nil)
                    try recordFinished()
                    continue
                }
                guard let record = next else { break }
                do {
                    let group = record.group ?? ""
                    let entity: String
                    if let known = entityByGroup[group] {
                        entity = known
                    } else {
                        entity = try chooseEntity(
                            fields: record.fields.map(\.key), group: record.group,
                            at: record.position)
                        if summary.entity.isEmpty { summary.entity = entity }
                        entityByGroup[group] = entity
                        let entities = Set(entityByGroup.values)
                        if entities.count > 1 {
                            summary.recordEntities.append(
                                contentsOf: ([summary.entity] + [entity]).filter {
                                    !summary.recordEntities.contains($0)
                                })
                        }
                    }
                    let plan = try self.plan(entity)
                    if batch.first.map({ $0.0.plan !== plan }) == true {
                        try writeBatch(batch)
                        batch = []
                    }
                    batchLimit = plan.uniqueKey == nil ? 1 : max(1, options.batchSize)
                    objectsOfRecord = 1
                    batch.append(
                        (
                            try prepare(record.fields, at: record.position, plan: plan),
                            record.originalText, record
                        ))
                } catch let error as ImportError {
                    try reject(error, text: record.originalText, record: record)
                    try recordFinished()
                }
                if batch.count >= batchLimit {
                    try writeBatch(batch)
                    batch = []
                }
            }
            try writeBatch(batch)
            try checkComputedFieldsSeen()
            summary.bytes = reader.bytesRead
            summary.notes = reader.notes
        }
    }

    /// The field a txt-files reader adds with each file's modification time.
    static let fallbackField = "modified"

    /// Converts the fields of one record (or nested dictionary) for `plan`.
    package func prepare(
        _ fields: [RecordField], at position: SourcePosition, plan: EntityImportPlan
    ) throws -> PreparedRecord {
        var prepared = PreparedRecord(
            plan: plan, cells: Array(repeating: .absent, count: plan.cellCount), position: position)
        guard let coercer else { return prepared }
        // Which field gave each attribute or relationship (a field index),
        // to refuse two fields for one property; an array, not a dictionary:
        // this runs for every record.
        var givenBy = [Int](
            repeating: -1, count: plan.attributes.count + plan.relationships.count)
        for (fieldIndex, field) in fields.enumerated() {
            let place = field.position(or: position)
            if field.key == EntityImportPlan.idField, case .text(let id) = field.value {
                prepared.sourceID = id
            }
            guard let target = plan.target(forField: field.key) else {
                if options.ignoresUnknownFields { continue }
                throw ImportError(
                    .unknownField, at: place,
                    "'\(field.key)' matches no property of \(plan.name) (properties: \(plan.propertyNames))"
                )
            }
            let slot: Int
            switch target {
            case .ignored: continue
            case .attribute(let index): slot = index
            case .relationship(let index): slot = plan.attributes.count + index
            }
            let earlierIndex = givenBy[slot]
            givenBy[slot] = fieldIndex
            if earlierIndex >= 0 {
                let earlier = fields[earlierIndex].key
                // The modification time a txt-files reader adds gives way to
                // a date the file itself names.
                if field.key == Self.fallbackField {
                    givenBy[slot] = earlierIndex
                    continue
                }
                if earlier != Self.fallbackField {
                    throw ImportError(
                        .structure, at: place,
                        "'\(field.key)' and '\(earlier)' both give \(name(of: target, in: plan))")
                }
            }
            switch target {
            case .ignored:
                continue
            case .attribute(let index):
                do {
                    prepared.cells[index] = try coercer.cell(field.value, index: index, plan: plan)
                } catch {
                    throw ImportError(error.code, at: place, error.message)
                }
                prepared.attributePositions.append((index, place))
            case .relationship(let index):
                try prepareRelationship(
                    field, at: place, slot: index, plan: plan, into: &prepared)
            }
        }
        if !plan.computed.isEmpty {
            try compute(fields, at: position, plan: plan, into: &prepared)
        }
        return prepared
    }

    /// Counts one more object made by the current input record.
    ///
    /// - Throws: ``ImportError`` (`tooLarge`) at `position` past
    ///   ``ImportLimits/maximumObjectsPerRecord``.
    private func countObject(at position: SourcePosition) throws {
        objectsOfRecord += 1
        guard objectsOfRecord > options.limits.maximumObjectsPerRecord else { return }
        throw ImportError(
            .tooLarge, at: position,
            "the record makes more than \(options.limits.maximumObjectsPerRecord) objects "
                + "(itself and its nested records)")
    }

    private func name(of target: FieldTarget, in plan: EntityImportPlan) -> String {
        switch target {
        case .attribute(let index): plan.attributes[index].name
        case .relationship(let index): plan.relationships[index].relationship.name
        case .ignored: "nothing"
        }
    }

    /// Nested dictionaries become records of the destination; scalars (and
    /// lists of them, and comma-separated text for a to-many) name
    /// destinations by their `relatedBy` attribute.
    private func prepareRelationship(
        _ field: RecordField, at place: SourcePosition, slot index: Int, plan: EntityImportPlan,
        into prepared: inout PreparedRecord
    ) throws {
        let relationship = plan.relationships[index].relationship
        let destination = try self.plan(relationship.destination)
        var nested: [PreparedRecord] = []
        var scalars: [(RecordValue, SourcePosition)] = []
        if case .text(var text) = field.value, let tokens = plan.relationshipNulls[index],
            text.withUTF8({ tokens.matches($0) })
        {
            return
        }
        switch field.value {
        case .null:
            return
        case .dictionary(let fields):
            try countObject(at: place)
            nested.append(try prepare(fields, at: place, plan: destination))
        case .array(let elements):
            for element in elements {
                let elementPlace = element.position(or: place)
                if case .dictionary(let fields) = element.value {
                    try countObject(at: elementPlace)
                    nested.append(try prepare(fields, at: elementPlace, plan: destination))
                } else {
                    scalars.append((element.value, elementPlace))
                }
            }
        case .text(var text) where relationship.isToMany:
            text.withUTF8 { bytes in
                NameList.forEachName(in: bytes) { name in
                    scalars.append((.text(String(decoding: name, as: UTF8.self)), place))
                }
            }
        default:
            scalars.append((field.value, place))
        }
        if !relationship.isToMany, nested.count + scalars.count > 1 {
            throw ImportError(
                .structure, at: place,
                "\(relationship.name) is a to-one relationship, and the record gives several objects"
            )
        }
        if !nested.isEmpty { prepared.children.append(.init(slot: index, records: nested)) }
        guard !scalars.isEmpty else { return }
        if let link = try keyPathOrIDLink(
            field, scalars: scalars, at: place, slot: index, destination: destination, plan: plan)
        {
            prepared.links.append(link)
            return
        }
        guard let (related, attribute) = try relatedByAttribute(of: relationship), let coercer
        else {
            throw ImportError(
                .structure, at: place,
                "\(relationship.name) links to \(relationship.destination) by a value, but "
                    + "\(relationship.destination) has no relatedBy attribute (give relatedBy in the schema)"
            )
        }
        var keys: [ImportCell] = []
        for (value, position) in scalars {
            do {
                keys.append(try coercer.cell(value, index: attribute, plan: related))
            } catch {
                throw ImportError(error.code, at: position, error.message)
            }
        }
        prepared.links.append(.init(slot: index, keys: keys, position: place))
    }

    /// The link of a field named by a key path (`species.name`: by that
    /// attribute of the destination), or of values that are all object ids
    /// of the destination's entities (`Species/p3`, as export writes a
    /// relationship); nil for a link by the `relatedBy` value.
    private func keyPathOrIDLink(
        _ field: RecordField, scalars: [(RecordValue, SourcePosition)], at place: SourcePosition,
        slot index: Int, destination: EntityImportPlan, plan: EntityImportPlan
    ) throws -> PreparedRecord.Link? {
        if let name = plan.linkAttribute(forField: field.key) {
            guard let attribute = destination.attributes.firstIndex(where: { $0.name == name }),
                let coercer
            else { return nil }
            var keys: [ImportCell] = []
            for (value, position) in scalars {
                do {
                    keys.append(try coercer.cell(value, index: attribute, plan: destination))
                } catch {
                    throw ImportError(error.code, at: position, error.message)
                }
            }
            return .init(slot: index, keys: keys, position: place, kind: .attribute(name))
        }
        var ids: [ImportCell] = []
        for (value, _) in scalars {
            guard case .text(let text) = value, let id = ObjectID(description: text),
                let number = mapping.entities[id.entityName]?.number,
                destination.treeNumbers.contains(number)
            else { return nil }
            ids.append(.text(text))
        }
        return .init(slot: index, keys: ids, position: place, kind: .objectID)
    }
}
