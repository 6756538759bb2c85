import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Writes the objects of a bundle's data files into a fresh store of the
/// bundle's own schema version, keeping every object's key (`_id`
/// `Entity/p<pk>` is its `Z_PK`), so the store archives again to the same
/// bytes.
///
/// Two threads share the work: a ``BundleObjectDecoder`` reads, parses and
/// checks the lines (and each data file's SHA-256) on its own thread, and
/// hands batches of objects over a ``BoundedHandoff``; this thread inserts
/// them, streams media into their rows, and writes the links. At the end
/// the references between rows are checked
/// (``Store/checkRelationships(model:tables:)``).
package final class BundleLoader {
    let unarchiver: BundleUnarchiver
    let store: Store
    let model: Model
    let mapping: StoreMapping
    /// The large media streamed into their rows and found to match.
    private var verifiedMedia: Set<String> = []

    /// The insert of each entity's rows, by name.
    private var inserts: [String: EntityInsert] = [:]
    /// The memberships kept through destinations' key columns, written
    /// once every row exists (during a load).
    private var memberships: PendingMemberships?
    /// The writer of the rows and of unordered join tables' links.
    private let rows: RowWriter
    private let columns: [String: EntityColumns]
    private let decoder: BundleObjectDecoder

    /// A loader of `unarchiver`'s data into `store`, each value checked
    /// against the rules of `model` (the target's version of the bundle's
    /// schema, whose hashes are the bundle's); with `verifies`, each
    /// file read is checked against the manifest's SHA-256 as it is read
    /// (the others are verified apart, after:
    /// ``BundleUnarchiver/verify(skipping:)``).
    package init(unarchiver: BundleUnarchiver, store: Store, model: Model, verifies: Bool) throws {
        self.unarchiver = unarchiver
        self.store = store
        self.model = model
        mapping = try StoreMapping(model: model, store: store)
        let numbers = Dictionary(store.entityRecords.map { ($0.name, $0.number) }) { a, _ in a }
        let connection = store.connection
        let joinLinks = try BundleJoinLinks(model: model, mapping: mapping) {
            try BundleJoinLinks.leadingColumn(of: $0, in: connection)
        }
        var columns: [String: EntityColumns] = [:]
        for (entity, entityMapping) in mapping.entities {
            guard numbers[entity] != nil else { continue }
            columns[entity] = try EntityColumns(
                entity: entity, model: model, mapping: entityMapping)
        }
        self.columns = columns
        rows = RowWriter(connection: connection)
        decoder = BundleObjectDecoder(
            path: unarchiver.path,
            reader: unarchiver.reader,  // Reads only: safe from a second thread.
            checksums: verifies
                ? Dictionary(unarchiver.manifest.files.map { ($0.path, $0.sha256) }) { a, _ in a }
                : nil,
            mapping: mapping, numbers: numbers, joinLinks: joinLinks)
    }

    /// The files read so far and found to match the manifest's SHA-256.
    /// Read only when no load is running.
    package var verifiedFiles: Set<String> { decoder.verifiedFiles.union(verifiedMedia) }

    /// Called as objects go in: after each batch, per entity in load order,
    /// with the manifest's count as the total.
    package var progress: ((ExportProgress) -> Void)?

    private var path: String { unarchiver.path }

    /// Loads every data file, then the to-many links, `Z_MAX` and the checks.
    package func load() throws {
        let connection = store.connection
        // The whole load is one transaction: room for its working set of
        // pages (the right edges of the B-trees it appends to) saves
        // reading them back; 16 MiB was no faster and, with the sort that
        // builds a join index, peaked at 63.6 MiB.
        try connection.setPragma("cache_size", "-8192")
        try connection.inTransaction(.immediate) {
            memberships = try PendingMemberships(connection: connection)
            defer { memberships = nil }
            let entities = BundleJSON.sortedKeys(unarchiver.manifest.counts)
            var joinIndexes = try DeferredIndexes(
                tables: unorderedJoinTables, connection: connection)
            let files = try loadOrder(entities).compactMap { try file(of: $0, linksOf: nil) }
            // The join indexes are built as soon as the last file that
            // inserts links is in, while the decoder reads the files that
            // only list the other side.
            let lastLinking = files.last { insertsJoinLinks($0.columns) }?.entry.path
            var loaded = 0
            var step = 0
            var current = ""
            try loadObjects(files) { batch in
                if batch.endsFile, batch.file == lastLinking { try joinIndexes.restore() }
                guard let progress, !batch.linksOnly else { return }
                let entity = batch.columns.entity
                if entity != current {
                    (current, loaded, step) = (entity, 0, step + 1)
                }
                loaded += batch.count
                progress(
                    ExportProgress(
                        entity: entity, objects: loaded,
                        total: unarchiver.manifest.counts[entity], step: step, steps: files.count))
            }
            let mirrors = decoder.joinLinks.disagreeingMirrors
            if !mirrors.isEmpty {
                // The two sides of a pair differ: add what the mirror lists.
                decoder.insertEveryLink()
                for entity in entities {
                    let listed = Set(
                        mirrors.filter { $0.hasPrefix(entity + ".") }
                            .map { String($0.dropFirst(entity.count + 1)) })
                    guard !listed.isEmpty, let file = try file(of: entity, linksOf: listed) else {
                        continue
                    }
                    try decoder.decode(file) { try write($0) }
                }
            }
            try joinIndexes.restore()
            if let missing = try memberships?.apply() {
                throw BundleError(
                    .invalidData, path: path,
                    "\(missing.relationship) lists an object with key p\(missing.key) that the "
                        + "bundle does not hold")
            }
            try KeyAllocator.raiseToHighestKeys(of: mapping, model: model, on: connection)
            try memberships?.finish()
        }
        let known = decoder.joinLinks.knownColumns
        // Every Z_ENT is the number of its file's entity and Z_MAX the
        // largest key: written so above, not checked again.
        if let problem = try store.checkRelationships(
            model: model, tables: nil, knownJoinColumns: known, checksTables: false
        ).first {
            throw BundleError(
                .invalidData, path: path, "the objects' references do not hold: \(problem)")
        }
    }

    /// The join tables of unordered to-manys, whose links go in through
    /// ``JoinRowInsert``.
    private var unorderedJoinTables: [String] {
        var tables: Set<String> = []
        for entity in mapping.entities.values {
            for case .joinTable(let table, _, _, nil) in entity.toMany.values {
                tables.insert(table)
            }
        }
        return tables.sorted()
    }

    /// The data file of `entity`, nil when the bundle has none (and the
    /// manifest counts none).
    private func file(of entity: String, linksOf: Set<String>?) throws -> BundleObjectDecoder.File?
    {
        let name = BundleManifest.dataFile(of: entity)
        let expected = unarchiver.manifest.counts[entity] ?? 0
        guard let entry = unarchiver.reader.entry(named: name) else {
            guard expected == 0 else {
                throw BundleError(.manifestMismatch, path: path, entry: name, "missing")
            }
            return nil
        }
        guard let columns = columns[entity] else {
            throw BundleError(
                .invalidData, path: path, entry: name, "\(entity) is not in the store's layout")
        }
        return BundleObjectDecoder.File(
            columns: columns, entry: entry, expected: expected,
            sha256: linksOf == nil ? decoder.checksums?[name] : nil, linksOf: linksOf)
    }

    /// The order the entities' files are read in: those that insert no
    /// join link (media among them), then those that do, then those that
    /// only list the other side of a pair (``BundleJoinLinks``), each group
    /// by name.
    private func loadOrder(_ entities: [String]) -> [String] {
        func group(_ entity: String) -> Int {
            guard let columns = columns[entity] else { return 0 }
            if insertsJoinLinks(columns) { return 1 }
            let mirrors = columns.toManyRelationships.contains {
                if case .mirror = decoder.joinLinks.role(of: $0.name, in: entity) { return true }
                return false
            }
            return mirrors ? 2 : 0
        }
        return entities.enumerated().sorted {
            (group($0.element), $0.offset) < (group($1.element), $1.offset)
        }.map(\.element)
    }

    /// Whether lines of `columns`' entity insert links into an unordered
    /// join table (whose indexes are deferred).
    private func insertsJoinLinks(_ columns: EntityColumns) -> Bool {
        guard let toMany = mapping.entities[columns.entity]?.toMany else { return false }
        return columns.toManyRelationships.contains { relationship in
            guard case .joinTable(_, _, _, nil)? = toMany[relationship.name] else { return false }
            if case .mirror = decoder.joinLinks.role(of: relationship.name, in: columns.entity) {
                return false
            }
            return true
        }
    }

    /// Decodes `files` on a second thread while this one inserts, calling
    /// `written` after each batch.
    private func loadObjects(
        _ files: [BundleObjectDecoder.File], written: (BundleObjectBatch) throws -> Void
    ) throws {
        let handoff = BoundedHandoff<BundleObjectBatch>(capacity: 4)
        let decoder = self.decoder
        let thread = Thread {
            do {
                for file in files {
                    try decoder.decode(file) { try handoff.push($0) }
                }
                handoff.finish()
            } catch {
                handoff.finish(throwing: error)
            }
        }
        thread.name = "strata.bundle-decoder"
        thread.start()
        do {
            while let batch = try handoff.next() {
                try write(batch)
                try written(batch)
            }
        } catch {
            handoff.cancel()  // Waits for the decoder to stop.
            throw error
        }
    }

    // MARK: - Writing a batch

    private func write(_ batch: BundleObjectBatch) throws {
        try batch.bytes.withUnsafeBufferPointer { try write(batch, bytes: $0) }
    }

    /// Writes `batch`, whose ``BundleObjectBatch/bytes`` are `bytes`.
    private func write(_ batch: BundleObjectBatch, bytes: UnsafeBufferPointer<UInt8>) throws {
        let columns = batch.columns
        if !batch.linksOnly {
            let insert = try entityInsert(columns)
            var object = 0
            var media = batch.media.startIndex
            while object < batch.count {
                // A run of objects without media goes in statements of many rows.
                let nextMedium =
                    media < batch.media.endIndex ? batch.media[media].object : batch.count
                if nextMedium - object >= insert.rowsPerStatement {
                    do {
                        try insert.insertMany(batch, from: object, bytes: bytes)
                    } catch let error as SQLiteError
                        where error.code.primaryResultCode == .constraint
                    {
                        // One by one, to name the line (the statement wrote nothing).
                        for row in object..<(object + insert.rowsPerStatement) {
                            try insertOne(row, of: batch, bytes: bytes, insert: insert, media: [])
                        }
                        throw error
                    }
                    object += insert.rowsPerStatement
                    continue
                }
                let firstMedium = media
                while media < batch.media.endIndex, batch.media[media].object == object {
                    media += 1
                }
                try insertOne(
                    object, of: batch, bytes: bytes, insert: insert,
                    media: batch.media[firstMedium..<media])
                object += 1
            }
        }
        guard !batch.links.isEmpty, let toMany = mapping.entities[columns.entity]?.toMany else {
            return
        }
        // The batched insert of each to-many slot kept in a join table (an
        // ordered link listed again takes its later order).
        var batched = [JoinRowInsert?](repeating: nil, count: columns.toManyRelationships.count)
        for (slot, relationship) in columns.toManyRelationships.enumerated() {
            guard
                case .joinTable(let table, let source, let target, let order)? =
                    toMany[relationship.name]
            else { continue }
            batched[slot] = try rows.joinInsert(
                table: table, sourceColumn: source, destinationColumn: target,
                orderColumn: order, replacesOrder: order != nil)
        }
        for link in batch.links {
            let owner = batch.keys[link.object]
            if let insert = batched[link.slot] {
                try insert.add(source: owner, destination: link.member, order: link.order)
                continue
            }
            let relationship = columns.toManyRelationships[link.slot]
            guard
                case .inverseForeignKey(let table, let column, let order)? =
                    toMany[relationship.name]
            else { continue }
            try memberships?.add(
                member: link.member, owner: owner, position: link.order,
                relationship: "\(columns.entity).\(relationship.name)", table: table,
                keyColumn: column, orderColumn: order)
        }
        for insert in batched { try insert?.flush() }
    }

    /// Inserts one object of `batch`, with its `media`: those read into the
    /// batch bound in place, the others streamed into the row after it is
    /// inserted.
    private func insertOne(
        _ object: Int, of batch: BundleObjectBatch, bytes: UnsafeBufferPointer<UInt8>,
        insert: EntityInsert, media: ArraySlice<BundleObjectBatch.Medium>
    ) throws {
        let columns = batch.columns
        let key = batch.keys[object]
        try insert.bindOne(object, of: batch, bytes: bytes)
        var streamed: [BundleObjectBatch.Medium] = []
        for medium in media {
            if let range = medium.bytes {
                try insert.setBlob(
                    medium.slot,
                    bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
            } else {
                try insert.setZeroBlob(
                    medium.slot, count: Int(medium.entry.size) + (medium.marker ? 1 : 0))
                streamed.append(medium)
            }
        }
        do {
            try insert.run()
        } catch let error as SQLiteError where error.code.primaryResultCode == .constraint {
            throw BundleError(
                .invalidData, path: path, entry: batch.file, line: batch.lines[object],
                "\(columns.entity)/p\(key) is there twice (\(error.message))")
        }
        for medium in streamed {
            try streamMedium(medium, into: columns, key: key)
        }
    }

    private func entityInsert(_ columns: EntityColumns) throws -> EntityInsert {
        if let known = inserts[columns.entity] { return known }
        let insert = try EntityInsert(columns: columns, writer: rows)
        inserts[columns.entity] = insert
        return insert
    }

    /// Writes the bytes of `medium` into its row's zero-filled value.
    private func streamMedium(
        _ medium: BundleObjectBatch.Medium, into columns: EntityColumns, key: Int64
    )
        throws
    {
        let blob = try Blob(
            store.connection, table: columns.table, column: columns.attributeColumns[medium.slot],
            rowID: key, writable: true)
        var offset = 0
        if medium.marker {
            try [ExternalBinary.inlineMarker].withUnsafeBytes { try blob.write($0, at: 0) }
            offset = 1
        }
        let expected = decoder.checksums?[medium.entry.path]
        try unarchiver.reader.read(medium.entry, sha256: expected, bundle: path) { chunk in
            try blob.write(chunk, at: offset)
            offset += chunk.count
        }
        if expected != nil { verifiedMedia.insert(medium.entry.path) }
    }
}
