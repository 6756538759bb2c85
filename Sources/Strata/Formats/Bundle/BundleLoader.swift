import Foundation

/// Writes the objects of a bundle's data files into a fresh store of the
/// bundle's own schema version, keeping every object's key (`_id`
/// `Entity/p<pk>` is its `Z_PK`), so the store archives again to the same
/// bytes. Every line is checked against the schema: its keys, each value's
/// type, required attributes, each relationship's destination, and, at the
/// end, the references between rows (``Store/checkRelationships(model:tables:)``).
final class BundleLoader {
    let unarchiver: BundleUnarchiver
    let store: Store
    let model: Model
    let mapping: StoreMapping
    /// The store's entity numbers, by name.
    let numbers: [String: Int]
    /// Media of the row being inserted, streamed into its columns after
    /// the insert: the column, the zip entry, whether a marker byte leads.
    private var pendingMedia: [(column: String, entry: ZipEntry, marker: Bool)] = []

    /// A to-many membership written after every row exists: the
    /// destination row `pk` gets `owner` in `slot`'s key column and
    /// `position` in its order column.
    private struct InverseSlot {
        let table: String
        let keyColumn: String
        let orderColumn: String?
    }
    private var inverseSlots: [InverseSlot] = []
    /// The insert of each to-many's membership rows, by relationship name,
    /// for the entity being loaded.
    private var memberInserts: [String: Statement] = [:]
    private var inverseSlotIndex: [String: Int] = [:]

    init(unarchiver: BundleUnarchiver, store: Store) throws {
        self.unarchiver = unarchiver
        self.store = store
        model = unarchiver.model
        mapping = try StoreMapping(model: unarchiver.model, store: store)
        numbers = Dictionary(store.entityRecords.map { ($0.name, $0.number) }) { a, _ in a }
    }

    private var path: String { unarchiver.path }

    /// Loads every data file, then the to-many links, `Z_MAX` and the checks.
    func load() throws {
        let connection = store.connection
        try connection.execute("BEGIN IMMEDIATE TRANSACTION")
        do {
            try connection.execute(
                "CREATE TEMP TABLE strata_members (slot INTEGER, pk INTEGER, owner INTEGER, position INTEGER)"
            )
            for entity in BundleJSON.sortedKeys(unarchiver.manifest.counts) {
                try load(entity: entity, expected: unarchiver.manifest.counts[entity] ?? 0)
            }
            try applyMemberships()
            for table in Set(mapping.entities.values.map(\.table)).sorted() {
                let roots = mapping.entities.values.filter { $0.table == table }.map(\.number)
                let max =
                    try connection.scalar(
                        "SELECT coalesce(max(Z_PK), 0) FROM \(SQLiteIdentifier.quoted(table))")?
                    .int64Value ?? 0
                for number in roots {
                    try connection.execute(
                        "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                        [.integer(max), .integer(Int64(number))])
                }
            }
            memberInserts = [:]  // Their statements use the temporary table.
            try connection.execute("DROP TABLE temp.strata_members")
            try connection.execute("COMMIT TRANSACTION")
        } catch {
            // The load's error is the one to report.
            try? connection.execute("ROLLBACK TRANSACTION")
            throw error
        }
        if let problem = try store.checkRelationships(model: model).first {
            throw BundleError(
                .invalidData, path: path, "the objects' references do not hold: \(problem)")
        }
    }

    // MARK: - One data file

    private func load(entity: String, expected: Int) throws {
        let file = "data/\(entity).jsonl"
        guard let entry = unarchiver.reader.entry(named: file) else {
            guard expected == 0 else {
                throw BundleError(.manifestMismatch, path: path, entry: file, "missing")
            }
            return
        }
        guard let entityMapping = mapping.entities[entity], let number = numbers[entity] else {
            throw BundleError(
                .invalidData, path: path, entry: file, "\(entity) is not in the store's layout")
        }
        let insert = try EntityInsert(
            entity: entity, model: model, mapping: entityMapping, number: number,
            connection: store.connection)
        memberInserts = [:]
        var lineNumber = 0
        var pending: [UInt8] = []
        func line(_ bytes: ArraySlice<UInt8>) throws {
            lineNumber += 1
            guard !bytes.isEmpty else {
                throw BundleError(
                    .invalidData, path: path, entry: file, line: lineNumber, "an empty line")
            }
            let node: JSONNode
            do {
                node = try JSONReader.parse(Data(bytes))
            } catch {
                throw BundleError(
                    .invalidData, path: path, entry: file, line: lineNumber, "not JSON: \(error)")
            }
            do {
                try insertObject(node, entity: entity, insert: insert, mapping: entityMapping)
            } catch let error as LineError {
                throw BundleError(
                    .invalidData, path: path, entry: file, line: lineNumber, error.message)
            }
        }
        try unarchiver.reader.read(entry) { chunk in
            var start = chunk.startIndex
            for index in chunk.indices where chunk[index] == 0x0A {
                pending += chunk[start..<index]
                try line(pending[...])
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending += chunk[start...]
            if pending.count > 64 << 20 {
                throw BundleError(
                    .invalidData, path: path, entry: file, line: lineNumber + 1,
                    "a line longer than 64 MiB")
            }
        }
        if !pending.isEmpty { try line(pending[...]) }
        guard lineNumber == expected else {
            throw BundleError(
                .manifestMismatch, path: path, entry: file,
                "\(lineNumber) objects, but the manifest counts \(expected)")
        }
    }

    /// A problem with one line, located by the caller.
    struct LineError: Error {
        let message: String
    }

    private func insertObject(
        _ node: JSONNode, entity: String, insert: EntityInsert,
        mapping entityMapping: StoreMapping.EntityMapping
    ) throws {
        guard case .object(let members) = node.value else {
            throw LineError(message: "expected an object, found \(node.summary)")
        }
        guard case .string(let id)? = node["_id"]?.value, let (idEntity, key) = Self.parseID(id),
            idEntity == entity
        else {
            throw LineError(message: "expected \"_id\": \"\(entity)/p<number>\"")
        }
        insert.reset(key: key)
        pendingMedia.removeAll(keepingCapacity: true)
        var seenAttributes = [Bool](repeating: false, count: insert.attributes.count)
        var seenToOne = [Bool](repeating: false, count: insert.toOneRelationships.count)
        var seenToMany: [String] = []
        for member in members where member.key != "_id" {
            func twice() -> LineError { LineError(message: "'\(member.key)' appears twice") }
            if let slot = insert.attributeSlots[member.key] {
                guard !seenAttributes[slot] else { throw twice() }
                seenAttributes[slot] = true
                let attribute = insert.attributes[slot]
                if attribute.isMedia || attribute.allowsExternalStorage,
                    attribute.type == .binary || attribute.type == .transformable,
                    case .string(let path) = member.value.value, path.hasPrefix("media/")
                {
                    try deferMedia(path, attribute: attribute, slot: slot, insert: insert)
                } else {
                    try insert.set(slot, try value(of: member.value, for: attribute))
                }
            } else if let slot = insert.toOneSlots[member.key] {
                guard !seenToOne[slot] else { throw twice() }
                seenToOne[slot] = true
                try setToOne(member.value, slot: slot, insert: insert)
            } else if let relationship = insert.toMany[member.key] {
                guard !seenToMany.contains(member.key) else { throw twice() }
                seenToMany.append(member.key)
                try addMembers(member.value, of: relationship, owner: key, entity: entityMapping)
            } else {
                throw LineError(message: "'\(member.key)' is not a property of \(entity)")
            }
        }
        for (slot, attribute) in insert.attributes.enumerated()
        where !attribute.isOptional && !seenAttributes[slot] {
            throw LineError(message: "the required attribute '\(attribute.name)' has no value")
        }
        do {
            try insert.run()
        } catch let error as SQLiteError where error.code.primaryResultCode == .constraint {
            throw LineError(message: "\(id) is there twice (\(error.message))")
        }
        for media in pendingMedia {
            let blob = try Blob(
                store.connection, table: insert.table, column: media.column, rowID: key,
                writable: true)
            var offset = 0
            if media.marker {
                try [ExternalBinary.inlineMarker].withUnsafeBytes { try blob.write($0, at: 0) }
                offset = 1
            }
            try unarchiver.reader.read(media.entry) { chunk in
                try blob.write(chunk, at: offset)
                offset += chunk.count
            }
        }
    }

    /// `Entity/p<pk>` → (Entity, pk), pk positive.
    static func parseID(_ id: String) -> (String, Int64)? {
        guard let slash = id.lastIndex(of: "/") else { return nil }
        let entity = String(id[..<slash])
        let rest = id[id.index(after: slash)...]
        guard rest.hasPrefix("p"), let key = Int64(rest.dropFirst()), key > 0, !entity.isEmpty
        else { return nil }
        return (entity, key)
    }

    // MARK: - Values

    private func value(of node: JSONNode, for attribute: Attribute) throws -> SQLiteValue {
        func mismatch(_ expected: String) -> LineError {
            LineError(
                message: "'\(attribute.name)': expected \(expected), found \(node.summary)")
        }
        switch (attribute.type, node.value) {
        case (_, .null):
            return .null
        case (.string, .string(let text)), (.uri, .string(let text)):
            return .text(text)
        case (.string, _), (.uri, _):
            throw mismatch("text")
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)),
            (.integer64, .integer(let number)):
            let range: ClosedRange<Int64> =
                switch attribute.type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                default: Int64.min...Int64.max
                }
            guard range.contains(number) else { throw mismatch("an \(attribute.type.rawValue)") }
            return .integer(number)
        case (.integer16, _), (.integer32, _), (.integer64, _):
            throw mismatch("an integer")
        case (.boolean, .bool(let flag)):
            return .integer(flag ? 1 : 0)
        case (.boolean, _):
            throw mismatch("true or false")
        case (.double, .integer(let number)), (.float, .integer(let number)),
            (.decimal, .integer(let number)):
            return .real(Double(number))
        case (.double, .real(let number)), (.float, .real(let number)),
            (.decimal, .real(let number)):
            return .real(number)
        case (.double, _), (.float, _), (.decimal, _):
            throw mismatch("a number")
        case (.date, .string(let text)):
            guard let seconds = ISO8601Date.seconds(from: text) else {
                throw mismatch("an ISO 8601 date")
            }
            return .real(seconds)
        case (.date, .integer(let number)):
            return .real(Double(number))
        case (.date, .real(let number)):
            return .real(number)
        case (.date, _):
            throw mismatch("an ISO 8601 date")
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw mismatch("a UUID") }
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case (.uuid, _):
            throw mismatch("a UUID")
        case (.binary, .string(let text)), (.transformable, .string(let text)):
            guard let bytes = Data(base64Encoded: text) else {
                throw mismatch(
                    attribute.isMedia || attribute.allowsExternalStorage
                        ? "base64 or a media/ file" : "base64")
            }
            return .blob(
                attribute.allowsExternalStorage ? ExternalBinary.encodeInline(bytes) : bytes)
        case (.binary, _), (.transformable, _):
            throw mismatch("base64 text or a media/ file")
        }
    }

    /// Makes room for the media file `path` in attribute `slot`; its bytes
    /// are streamed into the row once it is inserted.
    private func deferMedia(
        _ path: String, attribute: Attribute, slot: Int, insert: EntityInsert
    ) throws {
        // Every entry of the zip is listed in the manifest (checked on opening).
        guard let entry = unarchiver.reader.entry(named: path), entry.kind == .file else {
            throw LineError(message: "'\(attribute.name)': \(path) is not a file of the bundle")
        }
        let marker = attribute.allowsExternalStorage
        let count = entry.size + (marker ? 1 : 0)
        guard count < Int64(Int32.max) else {
            throw LineError(
                message: "'\(attribute.name)': \(path) is \(entry.size) bytes, more than SQLite "
                    + "keeps in one value")
        }
        try insert.setZeroBlob(slot, count: Int(count))
        pendingMedia.append((insert.attributeColumns[slot], entry, marker))
    }

    // MARK: - Relationships

    private func setToOne(_ node: JSONNode, slot: Int, insert: EntityInsert) throws {
        let relationship = insert.toOneRelationships[slot]
        if case .null = node.value { return }
        guard case .string(let id) = node.value, let (destination, key) = Self.parseID(id) else {
            throw LineError(
                message:
                    "'\(relationship.name)': expected the id of a \(relationship.destination), "
                    + "found \(node.summary)")
        }
        guard let number = destinationNumber(destination, of: relationship) else {
            throw LineError(
                message:
                    "'\(relationship.name)': \(destination) is not a \(relationship.destination)")
        }
        insert.setToOne(slot, key: key, entityNumber: number)
    }

    /// The store number of `name` when it is `relationship`'s destination or
    /// one of its subentities.
    private func destinationNumber(_ name: String, of relationship: Relationship) -> Int? {
        guard let number = numbers[name],
            let tree = mapping.entities[relationship.destination]?.treeNumbers,
            tree.contains(number)
        else { return nil }
        return number
    }

    private func addMembers(
        _ node: JSONNode, of relationship: Relationship, owner: Int64,
        entity: StoreMapping.EntityMapping
    ) throws {
        if case .null = node.value { return }
        guard case .array(let elements) = node.value else {
            throw LineError(
                message: "'\(relationship.name)': expected a list of ids, found \(node.summary)")
        }
        guard let storage = entity.toMany[relationship.name] else { return }
        for (position, element) in elements.enumerated() {
            guard case .string(let id) = element.value, let (destination, key) = Self.parseID(id),
                destinationNumber(destination, of: relationship) != nil
            else {
                throw LineError(
                    message: "'\(relationship.name)'[\(position)]: expected the id of a "
                        + "\(relationship.destination), found \(element.summary)")
            }
            let order = Int64(position + 1) * 1024
            let statement = try memberInsert(for: relationship, storage: storage)
            switch storage {
            case .inverseForeignKey:
                // The slot was bound when the statement was made.
                try statement.bind(.integer(key), at: 2)
                try statement.bind(.integer(owner), at: 3)
                try statement.bind(.integer(order), at: 4)
            case .joinTable(_, _, _, let orderColumn):
                try statement.bind(.integer(owner), at: 1)
                try statement.bind(.integer(key), at: 2)
                if orderColumn != nil { try statement.bind(.integer(order), at: 3) }
            }
            try statement.execute()
        }
    }

    /// The prepared insert of `relationship`'s memberships: into the
    /// pending table (a to-many kept through the destination's key column,
    /// applied when every row exists) or into its join table.
    private func memberInsert(
        for relationship: Relationship, storage: StoreMapping.ToManyMapping
    ) throws -> Statement {
        if let known = memberInserts[relationship.name] { return known }
        let quoted = SQLiteIdentifier.quoted
        let statement: Statement
        switch storage {
        case .inverseForeignKey(let table, let column, let orderColumn):
            let slotKey = "\(table).\(column)"
            let slot: Int
            if let known = inverseSlotIndex[slotKey] {
                slot = known
            } else {
                slot = inverseSlots.count
                inverseSlotIndex[slotKey] = slot
                inverseSlots.append(
                    InverseSlot(table: table, keyColumn: column, orderColumn: orderColumn))
            }
            statement = try store.connection.prepare(
                "INSERT INTO temp.strata_members VALUES (?, ?, ?, ?)")
            try statement.bind(.integer(Int64(slot)), at: 1)
        case .joinTable(let table, let source, let target, let orderColumn):
            if let orderColumn {
                statement = try store.connection.prepare(
                    "INSERT INTO \(quoted(table)) (\(quoted(source)), \(quoted(target)), "
                        + "\(quoted(orderColumn))) VALUES (?, ?, ?) ON CONFLICT DO UPDATE "
                        + "SET \(quoted(orderColumn)) = excluded.\(quoted(orderColumn))")
            } else {
                statement = try store.connection.prepare(
                    "INSERT OR IGNORE INTO \(quoted(table)) (\(quoted(source)), "
                        + "\(quoted(target))) VALUES (?, ?)")
            }
        }
        memberInserts[relationship.name] = statement
        return statement
    }

    /// Writes the memberships of to-manys kept through the destination's
    /// key column (and its order column), now that every row exists.
    private func applyMemberships() throws {
        let quoted = SQLiteIdentifier.quoted
        for (slot, inverse) in inverseSlots.enumerated() {
            var sets = [
                "\(quoted(inverse.keyColumn)) = (SELECT owner FROM temp.strata_members m "
                    + "WHERE m.slot = ?1 AND m.pk = t.Z_PK)"
            ]
            if let order = inverse.orderColumn {
                sets.append(
                    "\(quoted(order)) = (SELECT position FROM temp.strata_members m "
                        + "WHERE m.slot = ?1 AND m.pk = t.Z_PK)")
            }
            try store.connection.execute(
                "UPDATE \(quoted(inverse.table)) AS t SET \(sets.joined(separator: ", ")) "
                    + "WHERE t.Z_PK IN (SELECT pk FROM temp.strata_members WHERE slot = ?1)",
                [.integer(Int64(slot))])
        }
    }
}
