import Foundation
import StrataCore

// MARK: - Records of flat text fields (CSV, TSV, txt lines)

extension Importer {
    /// Imports every record `reader` gives.
    ///
    /// Fields are matched to properties once, from the header (or
    /// ``ImportOptions/columns``); a field that matches nothing stops the
    /// import before anything is written. Rows of plain attributes are
    /// converted and bound straight from the reader's buffer.
    ///
    /// - Returns: What was written.
    /// - Throws: ``ImportError`` for the first bad record (abort policy) or
    ///   a broken input; ``StoreError`` or ``SQLiteError`` when the store
    ///   refuses. Nothing is written when it throws.
    public func run(_ reader: any FieldRecordReader) throws -> ImportSummary {
        // The CSV reader by its own type, so that the per-field calls of the
        // loop are direct (and inlined) rather than through the protocol.
        if let csv = reader as? CSVReader { return try runFields(csv) }
        return try runFields(reader)
    }

    private func runFields<Reader: FieldRecordReader>(_ reader: Reader) throws -> ImportSummary {
        progressSource = reader
        coercer = coercerFactory(reader.file)
        let headerPosition = SourcePosition(file: reader.file, line: 1, column: 1)
        guard let names = options.columns ?? reader.header else {
            throw ImportError(
                .structure, at: headerPosition,
                "the input has no header row; name its fields in order (--columns a,b,c)"
                    + HeaderLineHint.hint(
                        forFirstRecordOf: reader,
                        propertyNames: Set(
                            model.entities.flatMap { entity in
                                (entity.attributes.flatMap { [$0.name] + $0.importKeys }
                                    + entity.relationships.map(\.name))
                                    .map(FieldNameFolding.fold)
                            })))
        }
        summary.entity = try chooseEntity(fields: names, group: nil, at: headerPosition)
        try checkComputed(fieldNames: names)
        // Declared columns are the records' shape: fields beyond them are
        // refused below (or ignored), and a record may end before them.
        let refusesExtraFields = options.columns != nil && !options.ignoresUnknownFields
        if options.columns != nil { reader.declareFieldCount(names.count) }
        return try runInTransactions {
            let plan = try self.plan(summary.entity)
            let targets = try fieldTargets(names, plan: plan, at: headerPosition)
            let hasRelationships = targets.contains {
                if case .relationship = $0 { return true }
                return false
            }
            var lastFailure: Int64 = -1
            // Computed attributes whose expressions all compile keep the
            // direct path; one the compiler leaves makes every row a record.
            let computations =
                plan.computed.isEmpty ? [] : compiledComputations(fieldNames: names, plan: plan)
            let direct =
                plan.uniqueKey == nil && !hasRelationships
                ? try computations.flatMap {
                    try DirectInsert(
                        plan: plan, targets: targets, computations: $0, importer: self)
                } : nil
            var batch: [(PreparedRecord, Data?, ImportRecord?)] = []
            let batchLimit = plan.uniqueKey == nil ? 1 : max(1, options.batchSize)
            while true {
                do {
                    guard try reader.nextRecord() else { break }
                } catch let error as ImportError {
                    guard error.position.byteOffset != lastFailure else { throw error }
                    lastFailure = error.position.byteOffset
                    // A ragged row still has its text; an oversized one has none.
                    let text = reader.recordText()
                    try reject(error, text: text.isEmpty ? nil : text, record: nil)
                    try recordFinished()
                    continue
                }
                do {
                    if refusesExtraFields, reader.fieldCount > names.count {
                        throw extraFieldsError(reader, declared: names.count)
                    }
                    if let direct {
                        try insertRowDirectly(reader, direct: direct, names: names, plan: plan)
                    } else {
                        batch.append(
                            (
                                try prepareRow(reader, names: names, targets: targets, plan: plan),
                                reader.recordText(), nil
                            ))
                        if batch.count >= batchLimit {
                            try writeBatch(batch)
                            batch = []
                        }
                        continue
                    }
                } catch let error as ImportError {
                    try reject(error, text: reader.recordText(), record: nil)
                } catch let error as SQLiteError where !error.isAboutTheFiles {
                    // A full disk or an I/O error is the store's, not the record's: it
                    // stops the import.
                    try reject(
                        ImportError(
                            .store, at: reader.recordPosition,
                            "the store refused the record: \(error.message)"),
                        text: reader.recordText(), record: nil)
                }
                try recordFinished()
            }
            try writeBatch(batch)
            summary.bytes = reader.bytesRead
            summary.notes = reader.notes
        }
    }

    /// The error for a record with fields beyond the `declared` columns,
    /// at the first of them.
    private func extraFieldsError<Reader: FieldRecordReader>(
        _ reader: Reader, declared: Int
    ) -> ImportError {
        let count = reader.fieldCount
        return ImportError(
            .unknownField, at: reader.position(ofField: declared),
            "the record has \(count) fields, but the columns name \(declared); "
                + "name every field (--columns) or leave the extra ones out with --ignore-unknown")
    }

    /// What each field writes; unknown fields and two fields giving one
    /// property are errors (at the header), unless unknown ones are ignored.
    private func fieldTargets(
        _ names: [String], plan: EntityImportPlan, at position: SourcePosition
    ) throws -> [FieldTarget] {
        var targets: [FieldTarget] = []
        var unknown: [String] = []
        var givenBy: [FieldTarget: String] = [:]
        for name in names {
            guard let target = plan.target(forField: name) else {
                unknown.append(name)
                targets.append(.ignored)
                continue
            }
            if target != .ignored, let earlier = givenBy.updateValue(name, forKey: target) {
                throw ImportError(
                    .structure, at: position,
                    "fields '\(earlier)' and '\(name)' both map to the same property")
            }
            targets.append(target)
        }
        if !unknown.isEmpty, !options.ignoresUnknownFields {
            throw ImportError(
                .unknownField, at: position,
                UnknownFieldsHint.adding(
                    to:
                        "\(unknown.map { "'\($0)'" }.joined(separator: ", ")) \(unknown.count == 1 ? "matches" : "match") "
                        + "no property of \(plan.name) (properties: \(plan.propertyNames)); map with --map FIELD=property "
                        + "or leave out with --ignore-unknown",
                    unknown: unknown))
        }
        return targets
    }

    /// The fastest path: each field converted, checked and bound straight to
    /// its parameter; everything the input does not give was bound once.
    private func insertRowDirectly<Reader: FieldRecordReader>(
        _ reader: Reader, direct: DirectInsert, names: [String], plan: EntityImportPlan
    ) throws {
        guard let coercer, let writer else { return }
        if let missing = direct.missing {
            throw ImportError(missing.code, at: reader.recordPosition, missing.message)
        }
        for parameter in direct.freshUUIDs {
            try direct.statement.bind(withUnsafeBytes(of: UUID().uuid) { Data($0) }, at: parameter)
        }
        let count = min(reader.fieldCount, direct.columns.count)
        for column in 0..<count {
            let target = direct.columns[column]
            guard target.attribute >= 0 else { continue }
            var cell: ImportCell
            do {
                cell = try coercer.cell(
                    utf8: reader.field(column), quoted: reader.isQuoted(column),
                    index: target.attribute, plan: plan)
                if !cell.hasValue {
                    if let fallback = direct.defaultCells[column] {
                        cell = fallback
                    } else if target.defaultsToFreshUUID {
                        cell = .blob(withUnsafeBytes(of: UUID().uuid) { Data($0) })
                    }
                }
                if let bounds = target.bounds {
                    try completer.check(
                        cell, attribute: target.attribute, bounds: bounds, plan: plan,
                        isUpdate: false)
                }
            } catch {
                throw ImportError(error.code, at: reader.position(ofField: column), error.message)
            }
            try cell.bind(to: direct.statement, at: target.parameter)
        }
        for column in count..<direct.columns.count where direct.columns[column].attribute >= 0 {
            // A short row: the missing fields are no value.
            let target = direct.columns[column]
            let cell =
                direct.defaultCells[column]
                ?? (target.defaultsToFreshUUID
                    ? .blob(withUnsafeBytes(of: UUID().uuid) { Data($0) }) : .null)
            if let bounds = target.bounds {
                do {
                    try completer.check(
                        cell, attribute: target.attribute, bounds: bounds, plan: plan,
                        isUpdate: false)
                } catch {
                    throw ImportError(error.code, at: reader.recordPosition, error.message)
                }
            }
            try cell.bind(to: direct.statement, at: target.parameter)
        }
        for computed in direct.computed {
            var cell = try computedCell(
                computed.computation, reader: reader, names: names, plan: plan)
            if !cell.hasValue {
                if let fallback = computed.defaultCell {
                    cell = fallback
                } else if computed.defaultsToFreshUUID {
                    cell = .blob(withUnsafeBytes(of: UUID().uuid) { Data($0) })
                }
            }
            if let bounds = computed.bounds {
                do {
                    try completer.check(
                        cell, attribute: computed.computation.attribute, bounds: bounds,
                        plan: plan, isUpdate: false)
                } catch {
                    throw ImportError(error.code, at: reader.recordPosition, error.message)
                }
            }
            try cell.bind(to: direct.statement, at: computed.parameter)
        }
        let key = writer.nextKey(for: plan)
        countInsert(plan)
        if writer.isDryRun { return }
        try direct.statement.bind(key, at: 1)
        defer { direct.statement.reset() }
        _ = try direct.statement.step()
    }

    /// The row as a record kept for its batch (upserts, relationships).
    private func prepareRow<Reader: FieldRecordReader>(
        _ reader: Reader, names: [String], targets: [FieldTarget],
        plan: EntityImportPlan
    ) throws -> PreparedRecord {
        var fields: [RecordField] = []
        let count = min(reader.fieldCount, targets.count)
        var prepared = PreparedRecord(
            plan: plan, cells: Array(repeating: .absent, count: plan.cellCount),
            position: reader.recordPosition)
        guard let coercer else { return prepared }
        for column in 0..<count {
            switch targets[column] {
            case .ignored:
                if names[column] == EntityImportPlan.idField, !reader.field(column).isEmpty {
                    prepared.sourceID = String(decoding: reader.field(column), as: UTF8.self)
                }
                continue
            case .attribute(let index):
                do {
                    prepared.cells[index] = try coercer.cell(
                        utf8: reader.field(column), quoted: reader.isQuoted(column), index: index,
                        plan: plan
                    ).owned
                } catch {
                    throw ImportError(
                        error.code, at: reader.position(ofField: column), error.message)
                }
                prepared.attributePositions.append((index, reader.position(ofField: column)))
            case .relationship(let index):
                let bytes = reader.field(column)
                guard !bytes.isEmpty,
                    !(plan.relationshipNulls[index]?.matches(bytes) ?? false)
                else { continue }
                // By the field's own name: a key path (`species.name`) says
                // which attribute links.
                fields.append(
                    RecordField(
                        key: names[column],
                        value: .text(String(decoding: bytes, as: UTF8.self)),
                        position: reader.position(ofField: column)))
            }
        }
        if !plan.computed.isEmpty {
            // Expressions read every field by its name in the input; the
            // relationships are found again from those names.
            fields = []
            for (column, name) in names.enumerated() where column < reader.fieldCount {
                let bytes = reader.field(column)
                guard !bytes.isEmpty || reader.isQuoted(column) else { continue }
                fields.append(
                    RecordField(
                        key: name, value: .text(String(decoding: bytes, as: UTF8.self)),
                        position: reader.position(ofField: column)))
            }
        }
        if !fields.isEmpty {
            let related = try prepare(fields, at: reader.recordPosition, plan: plan)
            prepared.links = related.links
            prepared.children = related.children
            for (index, _) in plan.computed { prepared.cells[index] = related.cells[index] }
        }
        return prepared
    }
}
