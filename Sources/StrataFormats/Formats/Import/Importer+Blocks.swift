import Foundation
import StrataCore
import StrataStore

// MARK: - txt blocks, flat

extension Importer {
    /// The entity of a txt-blocks import when the flat path serves it (no
    /// unique key, no computed attributes), from the options or the first
    /// block's names; nil sends the import down the general path, which
    /// also reports any problem of the first block.
    func flatBlocksEntity(_ reader: TextBlockReader) throws -> String? {
        guard let names = try? reader.peekFieldNames() else { return nil }
        let position = SourcePosition(file: reader.file)
        guard let entity = try? chooseEntity(fields: names, group: nil, at: position),
            let table = mapping.entities[entity]?.table
        else { return nil }
        let candidate = try EntityImportPlan(
            entity: entity, model: model, mapping: mapping, options: options,
            indexedColumnSets: try uniqueIndexes(of: table))
        return candidate.uniqueKey == nil && candidate.computed.isEmpty ? entity : nil
    }

    /// Imports the blocks of a txt-blocks file as flat rows of `entity`:
    /// each block's values are converted and bound straight from the
    /// reader's buffer, its names mapped once per distinct list of headers,
    /// its to-many names (`Tags: a, b`) linked by their `relatedBy`
    /// attribute. A block that names a to-one relationship goes through the
    /// general path.
    ///
    /// - Returns: What was written.
    func runFlatBlocks(_ reader: TextBlockReader, entity: String) throws -> ImportSummary {
        progressSource = reader
        coercer = coercerFactory(reader.file)
        summary.entity = entity
        var rows = FlatBlockRows()
        var lastFailure: Int64 = -1
        return try runInTransactions {
            rows.plan = try plan(entity)
            // Nothing reads a join table during this path; with the abort
            // policy no record is rolled back alone, so its join rows may
            // wait to be written many at a time (before the commit).
            writer?.buffersJoins = options.errorPolicy == .abort
            while true {
                let more: Bool?
                do {
                    more = try reader.withNextBlock { block -> Bool in
                        do {
                            try write(block, rows: &rows)
                        } catch let error as ImportError {
                            try reject(error, text: block.originalText, record: nil)
                        } catch let error as SQLiteError where !error.isAboutTheFiles {
                            // A full disk or an I/O error is the store's, not the record's: it
                            // stops the import.
                            try reject(
                                ImportError(
                                    .store, at: block.position,
                                    "the store refused the record: \(error.message)"),
                                text: block.originalText, record: nil)
                        }
                        return true
                    }
                } catch let error as ImportError {
                    // A reader that failed twice at one place cannot go on.
                    guard error.position.byteOffset != lastFailure else { throw error }
                    lastFailure = error.position.byteOffset
                    try reject(error, text: nil, record: nil)
                    try recordFinished()
                    continue
                }
                guard more != nil else { break }
                try recordFinished()
            }
            summary.bytes = reader.bytesRead
            summary.notes = reader.notes
        }
    }

    /// Writes one block: its row, then its to-many links.
    private func write(_ block: TextBlockFields, rows: inout FlatBlockRows) throws {
        guard let plan = rows.plan, let coercer, let writer else { return }
        if !block.hasKeys(of: rows.signature) { try rows.map(block, importer: self) }
        if rows.needsGeneralPath {
            let record = block.record
            try writeBatch([
                (
                    try prepare(record.fields, at: record.position, plan: plan),
                    record.originalText, record
                )
            ])
            summary.records -= 1  // writeBatch counted it; the caller counts every block.
            return
        }
        try writingRecord {
            try writeRow(block, rows: &rows, plan: plan, coercer: coercer, writer: writer)
        }
    }

    private func writeRow(
        _ block: TextBlockFields, rows: inout FlatBlockRows, plan: EntityImportPlan,
        coercer: ValueCoercer, writer: ImportWriter
    ) throws {
        rows.cells.removeAll(keepingCapacity: true)
        rows.cells.append(contentsOf: repeatElement(.absent, count: plan.cellCount))
        for (field, target) in rows.targets.enumerated() {
            guard case .attribute(let index) = target else { continue }
            do {
                rows.cells[index] = try coercer.cell(
                    utf8: block.value(field), quoted: true, index: index, plan: plan)
            } catch {
                throw ImportError(error.code, at: block.position(ofField: field), error.message)
            }
        }
        do {
            try completer.completeInsert(&rows.cells, plan: plan)
        } catch {
            let field = rows.targets.firstIndex { $0 == .attribute(error.attribute ?? -1) }
            throw ImportError(
                error.code, at: field.map(block.position(ofField:)) ?? block.position,
                error.message)
        }
        let key = writer.nextKey(for: plan)
        try writer.insert(rows.cells, key: key, plan: plan)
        countInsert(plan)
        for (field, target) in rows.targets.enumerated() {
            guard case .relationship(let index) = target else { continue }
            try link(
                block.value(field), at: block.position(ofField: field), slot: index, of: key,
                plan: plan)
        }
    }

    /// Links row `key` to each name of a comma-separated list.
    private func link(
        _ names: UnsafeBufferPointer<UInt8>, at position: SourcePosition, slot index: Int,
        of key: Int64, plan: EntityImportPlan
    ) throws {
        let slot = plan.relationships[index]
        guard let (related, attribute) = try relatedByAttribute(of: slot.relationship), let coercer
        else {
            throw ImportError(
                .structure, at: position,
                "\(slot.relationship.name) links to \(slot.relationship.destination) by a value, but "
                    + "\(slot.relationship.destination) has no relatedBy attribute (give relatedBy in the schema)"
            )
        }
        var members = 0
        let owner = Owner(key: key, plan: plan, isNew: true)
        // A value named twice is one member (a set), not a second object.
        var named: Set<String> = []
        try NameList.forEachName(in: names) { name in
            let value: ImportCell
            do {
                value = try coercer.cell(
                    utf8: name, quoted: true, index: attribute, plan: related)
            } catch let failure as ValueCoercer.Failure {
                throw ImportError(failure.code, at: position, failure.message)
            }
            guard named.insert(value.keyText).inserted,
                let (destination, number) = try findOrCreate(
                    value, in: related, attribute: attribute, for: slot.relationship,
                    at: position, deferIfImported: false, owner: owner)
            else { return }
            try link(
                slot, of: key, plan: plan, to: destination, number: number,
                order: slot.relationship.isOrdered ? OrderKey.at(members) : nil)
            members += 1
        }
    }
}

/// What the flat txt-blocks path keeps between blocks.
struct FlatBlockRows {
    /// The entity's plan, chosen at the first block.
    var plan: EntityImportPlan?
    /// The field names of the last mapped block (``TextBlockFields/keySignature``).
    var signature: [UInt8] = []
    /// What each of those fields writes.
    var targets: [FieldTarget] = []
    /// Whether those fields need the general path (a to-one relationship).
    var needsGeneralPath = false
    /// The row being written, reused.
    var cells: [ImportCell] = []

    /// Maps `block`'s field names: unknown ones and two fields giving one
    /// property are errors at the field, as in the general path.
    package mutating func map(_ block: TextBlockFields, importer: Importer) throws {
        guard let plan else { return }
        var targets: [FieldTarget] = []
        var givenBy = [Int](
            repeating: -1, count: plan.attributes.count + plan.relationships.count)
        var needsGeneralPath = false
        for field in 0..<block.count {
            let name = block.key(field)
            guard let target = plan.target(forField: name) else {
                if importer.options.ignoresUnknownFields {
                    targets.append(.ignored)
                    continue
                }
                throw ImportError(
                    .unknownField, at: block.position(ofField: field),
                    "'\(name)' matches no property of \(plan.name) (properties: \(plan.propertyNames))"
                )
            }
            let slot: Int
            switch target {
            case .ignored:
                targets.append(.ignored)
                continue
            case .attribute(let index):
                slot = index
            case .relationship(let index):
                slot = plan.attributes.count + index
                if !plan.relationships[index].relationship.isToMany { needsGeneralPath = true }
            }
            if givenBy[slot] >= 0 {
                throw ImportError(
                    .structure, at: block.position(ofField: field),
                    "'\(name)' and '\(block.key(givenBy[slot]))' both give the same property")
            }
            givenBy[slot] = field
            targets.append(target)
        }
        self.targets = targets
        self.needsGeneralPath = needsGeneralPath
        signature = block.keySignature
    }
}
