import Foundation

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
                try writingRecord { _ = try write(record, parent: nil) }
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
    struct ParentLink {
        /// The child's relationship slot pointing back at the parent (its
        /// inverse), when it is a to-one.
        let inverseSlot: Int?
        /// The parent's to-many, when the pair is kept in a join table.
        let joinMapping: StoreMapping.ToManyMapping?
        let parentKey: Int64
        let parentNumber: Int
        let order: Int64?
    }

    /// Writes `record` (its nested records and links too) and returns its key.
    func write(_ record: PreparedRecord, parent: ParentLink?) throws -> Int64 {
        let plan = record.plan
        var cells = record.cells
        guard let writer else { return 0 }

        // Which object the record is: an existing one by its unique key?
        var existing: Int64?
        var keyText: String?
        if let key = plan.uniqueKey {
            let text = key.map { cells[$0].keyText }.joined(separator: "\u{1F}")
            keyText = text
            if let found = keyIndex[plan.name + "\u{1E}" + text] {
                if found.isFromThisRun && parent == nil {
                    switch options.duplicates {
                    case .first:
                        summary.duplicatesSkipped += 1
                        return found.key
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

        // To-one destinations: nested records first, then links by key.
        for children in record.children {
            let slot = plan.relationships[children.slot]
            guard !slot.relationship.isToMany, let child = children.records.first,
                let keyCell = slot.foreignKeyCell
            else { continue }
            let childKey = try write(child, parent: nil)
            cells[keyCell] = .integer(childKey)
            if let entityCell = slot.entityCell {
                cells[entityCell] = .integer(Int64(child.plan.number))
            }
        }
        var deferredToOnes: [(Int, ImportCell, SourcePosition)] = []
        for link in record.links {
            let slot = plan.relationships[link.slot]
            guard !slot.relationship.isToMany, let keyCell = slot.foreignKeyCell,
                let value = link.keys.first
            else { continue }
            if let (destination, number) = try findOrCreate(
                value, for: slot.relationship, at: link.position, deferIfImported: true)
            {
                cells[keyCell] = .integer(destination)
                if let entityCell = slot.entityCell { cells[entityCell] = .integer(Int64(number)) }
            } else {
                deferredToOnes.append((link.slot, value, link.position))
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
                summary.updated += 1
            } else {
                try completer.completeInsert(&cells, plan: plan)
                key = writer.nextKey(for: plan)
                try writer.insert(cells, key: key, plan: plan)
                countInsert(plan)
            }
        } catch let failure as ValueCoercer.Failure {
            throw ImportError(
                failure.code, at: record.position(ofAttribute: failure.attribute), failure.message)
        }
        if let keyText {
            keyIndex[plan.name + "\u{1E}" + keyText] = (key, true)
            keysOfRecord.append(plan.name + "\u{1E}" + keyText)
        }
        for (slot, value, position) in deferredToOnes {
            pendingLinks.append(
                PendingLink(plan: plan, source: key, slot: slot, key: value, position: position))
        }
        if let parent, let join = parent.joinMapping {
            try writer.join(join, source: parent.parentKey, destination: key, order: parent.order)
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
                let order = slot.relationship.isOrdered ? Int64(position + 1) * 1024 : nil
                _ = try write(
                    child,
                    parent: ParentLink(
                        inverseSlot: inverse, joinMapping: inverse == nil ? toMany : nil,
                        parentKey: key, parentNumber: plan.number, order: order))
            }
        }
        for link in record.links {
            let slot = plan.relationships[link.slot]
            guard slot.relationship.isToMany else { continue }
            for (position, value) in link.keys.enumerated() {
                guard
                    let (destination, number) = try findOrCreate(
                        value, for: slot.relationship, at: link.position, deferIfImported: false)
                else { continue }
                let order = slot.relationship.isOrdered ? Int64(position + 1) * 1024 : nil
                try self.link(
                    slot, of: key, plan: plan, to: destination, number: number, order: order)
            }
        }
        return key
    }

    /// Links row `key` of `plan` to `destination` through the to-many `slot`.
    func link(
        _ slot: EntityImportPlan.RelationshipSlot, of key: Int64, plan: EntityImportPlan,
        to destination: Int64, number: Int, order: Int64?
    ) throws {
        guard let toMany = slot.toMany, let writer else { return }
        switch toMany {
        case .joinTable:
            try writer.join(toMany, source: key, destination: destination, order: order)
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
