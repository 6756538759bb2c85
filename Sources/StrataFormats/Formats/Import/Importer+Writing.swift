import Foundation
import StrataCore
import StrataStore

// MARK: - Writing prepared records

extension Importer {
    /// Writes a batch of top-level records: one lookup of the keys the run
    /// has not seen yet, then each record, skipping or rethrowing bad ones
    /// by the policy.
    func writeBatch(_ batch: [(PreparedRecord, Data?, ImportRecord?)]) throws {
        guard !batch.isEmpty else { return }
        if let plan = batch.first?.0.plan, plan.uniqueKey != nil {
            try lookUpKeys(of: batch.map(\.0), plan: plan)
        }
        for (record, text, original) in batch {
            do {
                try writingRecord { try write(record, parent: nil) }
            } catch let error as ImportError {
                try reject(error, text: text, record: original)
            } catch let error as SQLiteError where !error.isAboutTheFiles {
                // A full disk or an I/O error is the store's, not the record's: it
                // stops the import.
                try reject(
                    ImportError(
                        .store, at: record.position,
                        "the store refused the record: \(error.message)"),
                    text: text, record: original)
            }
            try recordFinished()
        }
    }

    /// The parent a nested record hangs from.
    package struct ParentLink {
        /// The child's relationship slot pointing back at the parent (its
        /// inverse), when it is a to-one.
        let inverseSlot: Int?
        /// The parent's to-many, when the pair is kept in a join table.
        let joinMapping: StoreMapping.ToManyMapping?
        /// The join table's order column of the inverse, when it is ordered.
        var inverseOrderColumn: String? = nil
        let parentKey: Int64
        let parentNumber: Int
        let order: Int64?
    }

    /// Writes `record` (its nested records and links too) and returns its
    /// key, and whether it was an object of the store (an upsert).
    @discardableResult
    ///
    /// A `nested` record (an object inside another record) that finds an
    /// object this run wrote is that object again — a species nested in
    /// each of its penguins — not a duplicate record, and no update.
    package func write(_ record: PreparedRecord, parent: ParentLink?, nested: Bool = false)
        throws -> (key: Int64, existed: Bool)
    {
        let plan = record.plan
        var cells = record.cells
        guard let writer else { return (0, false) }

        // Which object the record is: an existing one by its unique key?
        var existing: Int64?
        var isAgainInThisRun = false
        var keyText: String?
        if let key = plan.uniqueKey {
            let text = key.map { cells[$0].keyText }.joined(separator: "\u{1F}")
            keyText = text
            if let found = keyIndex[ExactText(plan.name + "\u{1E}" + text)] {
                isAgainInThisRun = nested && found.isFromThisRun
                if found.isFromThisRun && parent == nil && !nested {
                    switch options.duplicates {
                    case .first:
                        summary.duplicatesSkipped += 1
                        return (found.key, true)
                    case .error:
                        throw ImportError(
                            .validation, at: record.position,
                            "a second record with the same \(key.map { plan.attributes[$0].name }.joined(separator: ", ")) as an earlier one"
                        )
                    case .last:
                        break
                    }
                }
                existing = found.key
            } else if parent != nil || plan !== plans[summary.entity] {
                existing = try lookUpKey(text, cells: key.map { cells[$0] }, plan: plan)
            }
        }

        // A one-to-one pair is written on both sides, so its other side
        // needs this row's key first: handed out now for a new row.
        var ownKey = existing
        func key() -> Int64 {
            if let ownKey { return ownKey }
            let new = writer.nextKey(for: plan)
            ownKey = new
            return new
        }
        // The one-to-ones set: slot, destination row and its plan (its side
        // is written after this row), whether a nested record was an
        // object of the store.
        var oneToOnes: [(slot: Int, destination: Int64, plan: EntityImportPlan, isWritten: Bool)] =
            []

        // To-one destinations: nested records first, then links by key.
        for children in record.children {
            let slot = plan.relationships[children.slot]
            guard !slot.relationship.isToMany, let child = children.records.first,
                let keyCell = slot.foreignKeyCell
            else { continue }
            let inverse = child.plan.owningSlot(of: slot.relationship)
            let childKey = try write(
                child,
                parent: inverse.map {
                    ParentLink(
                        inverseSlot: $0, joinMapping: nil, parentKey: key(),
                        parentNumber: plan.number, order: nil)
                }, nested: true)
            cells[keyCell] = .integer(childKey.key)
            if let entityCell = slot.entityCell {
                cells[entityCell] = .integer(Int64(child.plan.number))
            }
            if inverse != nil {
                oneToOnes.append((children.slot, childKey.key, child.plan, true))
                // An object of the store leaves the one it was paired with.
                if childKey.existed {
                    try writer.unlinkToOne(
                        slot, plan: plan, pointingAt: childKey.key, except: key())
                }
            }
        }
        var deferredToOnes: [(Int, ImportCell, SourcePosition, LinkKind)] = []
        for link in record.links {
            let slot = plan.relationships[link.slot]
            guard !slot.relationship.isToMany, let keyCell = slot.foreignKeyCell,
                let value = link.keys.first
            else { continue }
            let destinationPlan = try self.plan(slot.relationship.destination)
            let isOneToOne = destinationPlan.owningSlot(of: slot.relationship) != nil
            if let (destination, number) = try findOrCreate(
                value, for: slot.relationship, by: link.kind, at: link.position,
                deferIfImported: true,
                owner: isOneToOne ? Owner(key: key(), plan: plan, isNew: existing == nil) : nil)
            {
                cells[keyCell] = .integer(destination)
                if let entityCell = slot.entityCell { cells[entityCell] = .integer(Int64(number)) }
                if isOneToOne { oneToOnes.append((link.slot, destination, destinationPlan, false)) }
            } else {
                deferredToOnes.append((link.slot, value, link.position, link.kind))
            }
        }
        if let parent, let inverse = parent.inverseSlot {
            let slot = plan.relationships[inverse]
            if let keyCell = slot.foreignKeyCell { cells[keyCell] = .integer(parent.parentKey) }
            if let entityCell = slot.entityCell {
                cells[entityCell] = .integer(Int64(parent.parentNumber))
            }
            if let orderCell = slot.orderCell, let order = parent.order {
                cells[orderCell] = .integer(order)
            }
        }

        // The row itself.
        let key: Int64
        do {
            if let existing {
                try completer.completeUpdate(&cells, plan: plan)
                key = existing
                try writer.update(cells, key: key, plan: plan)
                if !isAgainInThisRun { summary.updated += 1 }
            } else {
                try completer.completeInsert(&cells, plan: plan)
                key = ownKey ?? writer.nextKey(for: plan)
                try writer.insert(cells, key: key, plan: plan)
                countInsert(plan)
            }
        } catch let failure as ValueCoercer.Failure {
            throw ImportError(
                failure.code, at: record.position(ofAttribute: failure.attribute), failure.message)
        }
        if let keyText {
            let indexed = ExactText(plan.name + "\u{1E}" + keyText)
            keyIndex[indexed] = (key, true)
            keysOfRecord.append(indexed)
        }
        for (slot, value, position, kind) in deferredToOnes {
            pendingLinks.append(
                PendingLink(
                    plan: plan, source: key, sourceExisted: existing != nil, slot: slot, key: value,
                    position: position, kind: kind))
        }
        if let id = record.sourceID { importedIDs[id] = (key, plan.number) }
        for pair in oneToOnes {
            try linkOtherSide(
                plan.relationships[pair.slot], of: key, plan: plan, to: pair.destination,
                destinationPlan: pair.plan, isWritten: pair.isWritten,
                sourceExisted: existing != nil)
        }
        if let parent, let join = parent.joinMapping {
            try writer.join(
                join, source: parent.parentKey, destination: key, order: parent.order,
                inverseOrder: parent.inverseOrderColumn)
        }

        // To-many: nested records, then links by key.
        for children in record.children {
            let slot = plan.relationships[children.slot]
            guard slot.relationship.isToMany, let toMany = slot.toMany else { continue }
            let childPlan = try self.plan(slot.relationship.destination)
            if existing != nil, childPlan.uniqueKey == nil {
                try writer.clearToMany(
                    toMany, of: key, deletingDestinations: slot.relationship.deleteRule == .cascade)
            }
            let inverse =
                slot.relationship.inverse.isEmpty
                ? nil
                : childPlan.relationships.firstIndex {
                    $0.relationship.name == slot.relationship.inverse && !$0.relationship.isToMany
                }
            for (position, child) in children.records.enumerated() {
                let order = slot.relationship.isOrdered ? OrderKey.at(position) : nil
                try write(
                    child,
                    parent: ParentLink(
                        inverseSlot: inverse, joinMapping: inverse == nil ? toMany : nil,
                        inverseOrderColumn: slot.inverseOrderColumn, parentKey: key,
                        parentNumber: plan.number, order: order), nested: true)
            }
        }
        for link in record.links {
            let slot = plan.relationships[link.slot]
            guard slot.relationship.isToMany else { continue }
            let owner = Owner(key: key, plan: plan, isNew: existing == nil)
            // A value named twice is one member (a set), not a second object.
            var named: Set<String> = []
            for (position, value) in link.keys.enumerated() {
                guard link.keys.count == 1 || named.insert(value.keyText).inserted,
                    let (destination, number) = try findOrCreate(
                        value, for: slot.relationship, by: link.kind, at: link.position,
                        deferIfImported: false,
                        owner: owner)
                else { continue }
                let order = slot.relationship.isOrdered ? OrderKey.at(position) : nil
                try self.link(
                    slot, of: key, plan: plan, to: destination, number: number, order: order)
            }
        }
        return (key, existing != nil)
    }

    /// Writes the other side of the one-to-one `slot` of row `key` of
    /// `plan`, now `destination`: its inverse names `key` (unless written
    /// with its row, `isWritten`), and when `key` was an object of the store,
    /// the object it was paired with before no longer names it — as
    /// `Context.save` keeps both sides of every pair.
    func linkOtherSide(
        _ slot: EntityImportPlan.RelationshipSlot, of key: Int64, plan: EntityImportPlan,
        to destination: Int64, destinationPlan: EntityImportPlan, isWritten: Bool,
        sourceExisted: Bool
    ) throws {
        guard let writer, let inverse = destinationPlan.owningSlot(of: slot.relationship) else {
            return
        }
        let inverseSlot = destinationPlan.relationships[inverse]
        if !isWritten {
            try writer.setToOne(
                inverseSlot, of: destination, plan: destinationPlan, to: key,
                destinationNumber: plan.number)
        }
        if sourceExisted {
            try writer.unlinkToOne(
                inverseSlot, plan: destinationPlan, pointingAt: key, except: destination)
        }
    }

    /// Links row `key` of `plan` to `destination` through the to-many `slot`.
    func link(
        _ slot: EntityImportPlan.RelationshipSlot, of key: Int64, plan: EntityImportPlan,
        to destination: Int64, number: Int, order: Int64?
    ) throws {
        guard let toMany = slot.toMany, let writer else { return }
        switch toMany {
        case .joinTable:
            try writer.join(
                toMany, source: key, destination: destination, order: order,
                inverseOrder: slot.inverseOrderColumn)
        case .inverseForeignKey:
            let destinationPlan = try self.plan(slot.relationship.destination)
            guard
                let inverse = destinationPlan.relationships.first(where: {
                    $0.relationship.name == slot.relationship.inverse
                })
            else { return }
            try writer.setToOne(
                inverse, of: destination, plan: destinationPlan, to: key,
                destinationNumber: plan.number, order: order)
        }
    }
}
