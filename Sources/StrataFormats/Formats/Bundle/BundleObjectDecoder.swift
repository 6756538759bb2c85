import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Reads a bundle's data files line by line into ``BundleObjectBatch``es:
/// each line parsed as JSON and checked against the schema (its keys, each
/// value's type, every rule of its attributes: ``AttributeCheck``, each
/// relationship's destination),
/// and each file's SHA-256 checked against the manifest as it is read.
///
/// It touches no store, so it runs on its own thread while
/// ``BundleLoader`` inserts what it made on another.
final class BundleObjectDecoder: @unchecked Sendable {
    /// One data file to read.
    struct File {
        let columns: EntityColumns
        let entry: ZipEntry
        /// The number of lines the manifest counts.
        let expected: Int
        /// The manifest's SHA-256, checked when the whole file was read.
        let sha256: String?
        /// Only the links of these to-manys are read (a second pass).
        let linksOf: Set<String>?
    }

    /// The objects in one batch.
    static let batchSize = 256
    /// The longest line read.
    static let maximumLineLength = 64 << 20

    let path: String
    let reader: ZipReader
    /// The manifest's SHA-256 of each file, by path, when the decoder checks
    /// the media it reads (their CRC-32 is then not computed); nil when the
    /// bundle was verified before.
    let checksums: [String: String]?
    /// The files read and found to match the manifest's SHA-256.
    private(set) var verifiedFiles: Set<String> = []
    let mapping: StoreMapping
    /// The store's entity numbers, by name.
    let numbers: [String: Int]
    /// The many-to-many pairs listed from both sides; the decoder keeps
    /// their summaries and leaves the mirror side's links out of batches.
    var joinLinks: BundleJoinLinks
    /// The join role of each to-many of the file being read.
    var roles: [BundleJoinLinks.Role] = []
    /// The member names of the file being read, for the fast path.
    var plainLayout = PlainLayout()
    /// Scratch of the fast path: the members a line has named, the links
    /// it lists.
    var seen: [Bool] = []
    var staged: [StagedLink] = []

    init(
        path: String, reader: ZipReader, checksums: [String: String]?, mapping: StoreMapping,
        numbers: [String: Int], joinLinks: BundleJoinLinks
    ) {
        self.path = path
        self.reader = reader
        self.checksums = checksums
        self.mapping = mapping
        self.numbers = numbers
        self.joinLinks = joinLinks
    }

    /// Every link is now written as read (after a pass whose two sides of
    /// a pair disagreed).
    func insertEveryLink() {
        joinLinks = BundleJoinLinks()
    }

    /// A problem with one line, located by the caller.
    struct LineError: Error {
        let message: String
    }

    // MARK: - One file

    /// Reads `file`, handing each full batch (and the last) to `emit`.
    ///
    /// - Throws: ``BundleError``: `checksumMismatch` when the file differs
    ///   from the manifest's SHA-256 (even when a line failed first: the
    ///   damage explains it), `invalidData` naming the line, or
    ///   `manifestMismatch` for a count that differs; what `emit` throws.
    func decode(_ file: File, emit: (BundleObjectBatch) throws -> Void) throws {
        let name = file.entry.path
        var batch = BundleObjectBatch(
            columns: file.columns, file: name, linksOnly: file.linksOf != nil)
        var lineNumber = 0
        var pending: [UInt8] = []
        var failure: Error?
        func line(_ bytes: UnsafeRawBufferPointer) throws {
            lineNumber += 1
            guard !bytes.isEmpty else {
                throw BundleError(
                    .invalidData, path: path, entry: name, line: lineNumber, "an empty line")
            }
            let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
            do {
                let read =
                    try file.linksOf == nil && addPlain(utf8, number: lineNumber, to: &batch)
                if !read {
                    try addGeneral(utf8, number: lineNumber, linksOf: file.linksOf, to: &batch)
                }
                if file.linksOf == nil { try checkRules(ofLastIn: batch) }
            } catch let error as LineError {
                throw BundleError(
                    .invalidData, path: path, entry: name, line: lineNumber, error.message)
            }
            if batch.isFull {
                try emit(batch)
                batch = BundleObjectBatch(
                    columns: file.columns, file: name, linksOnly: file.linksOf != nil)
            }
        }
        func lines(_ chunk: UnsafeRawBufferPointer) throws {
            var start = 0
            while start < chunk.count {
                let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
                // memchr: a generic search byte by byte took a twentieth of the decoding.
                guard let base = rest.baseAddress, let found = memchr(base, 0x0A, rest.count)
                else {
                    pending.append(contentsOf: rest)
                    break
                }
                let newline = base.distance(to: UnsafeRawPointer(found))
                let end = start + newline
                if pending.isEmpty {
                    try line(UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
                    try pending.withUnsafeBytes { try line($0) }
                    pending.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            if pending.count > Self.maximumLineLength {
                throw BundleError(
                    .invalidData, path: path, entry: name, line: lineNumber + 1,
                    "a line longer than 64 MiB")
            }
        }
        begin(file.columns)
        // A damaged entry (its checksum, its inflation) throws from the
        // read itself: the cause, even when a line failed first.
        try reader.read(file.entry, sha256: file.sha256, bundle: path) { chunk in
            guard failure == nil else { return }  // Still read: damage explains a failure.
            do {
                try lines(chunk)
            } catch let cancelled as BoundedHandoff<BundleObjectBatch>.Cancelled {
                throw cancelled
            } catch {
                failure = error
            }
        }
        if file.sha256 != nil { verifiedFiles.insert(name) }
        if let failure { throw failure }
        if !pending.isEmpty { try pending.withUnsafeBytes { try line($0) } }
        batch.endsFile = true
        try emit(batch)
        guard lineNumber == file.expected || file.linksOf != nil else {
            throw BundleError(
                .manifestMismatch, path: path, entry: name,
                "\(lineNumber) objects, but the manifest counts \(file.expected)")
        }
    }

    /// Prepares to read lines of `columns`' entity.
    func begin(_ columns: EntityColumns) {
        roles = columns.toManyRelationships.map { joinLinks.role(of: $0.name, in: columns.entity) }
        plainLayout = PlainLayout(columns) { destinationNumber($0.destination, of: $0) }
    }

    // MARK: - One line

    /// Reads `line` with the general JSON reader into `batch`: the object,
    /// or with `linksOf` only the links of those to-manys.
    ///
    /// - Throws: ``LineError`` naming what is wrong; ``ArchiveError`` from
    ///   reading a medium.
    func addGeneral(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, linksOf: Set<String>?,
        to batch: inout BundleObjectBatch
    ) throws {
        let node: RecordField
        do {
            node = try JSONReader.parse(bytes: line)
        } catch {
            throw LineError(message: "not JSON: \(error)")
        }
        if let linksOf {
            try addLinks(node, of: linksOf, line: number, to: &batch)
        } else {
            try add(node, line: number, to: &batch)
        }
    }

    private func add(_ node: RecordField, line: Int, to batch: inout BundleObjectBatch) throws {
        let columns = batch.columns
        guard case .dictionary(let members) = node.value else {
            throw LineError(message: "expected an object, found \(node.summary)")
        }
        guard case .text(let id)? = node["_id"]?.value, let (idEntity, key) = Self.parseID(id),
            idEntity == columns.entity
        else {
            throw LineError(message: "expected \"_id\": \"\(columns.entity)/p<number>\"")
        }
        let object = batch.count
        batch.lines.append(line)
        batch.keys.append(key)
        let firstValue = batch.values.count
        batch.values.append(
            contentsOf: repeatElement(BundleObjectBatch.Value.null, count: columns.attributes.count)
        )
        let firstToOne = batch.toOneKeys.count
        batch.toOneKeys.append(
            contentsOf: repeatElement(0, count: columns.toOneRelationships.count))
        batch.toOneEntities.append(
            contentsOf: repeatElement(0, count: columns.toOneRelationships.count))
        var seenAttributes = [Bool](repeating: false, count: columns.attributes.count)
        var seenToOne = [Bool](repeating: false, count: columns.toOneRelationships.count)
        var seenToMany = [Bool](repeating: false, count: columns.toManyRelationships.count)
        for member in members where member.key != "_id" {
            func twice() -> LineError { LineError(message: "'\(member.key)' appears twice") }
            if let slot = columns.attributeSlots[member.key] {
                guard !seenAttributes[slot] else { throw twice() }
                seenAttributes[slot] = true
                let rule = columns.attributes[slot]
                if rule.takesMediaFile, case .text(let file) = member.value,
                    file.hasPrefix("media/")
                {
                    batch.media.append(
                        try medium(file, rule: rule, object: object, slot: slot, to: &batch))
                } else {
                    batch.set(try value(of: member, for: rule), at: firstValue + slot)
                }
            } else if let slot = columns.toOneSlots[member.key] {
                guard !seenToOne[slot] else { throw twice() }
                seenToOne[slot] = true
                if let (key, number) = try toOne(
                    member, of: columns.toOneRelationships[slot])
                {
                    batch.toOneKeys[firstToOne + slot] = key
                    batch.toOneEntities[firstToOne + slot] = number
                }
            } else if let slot = columns.toManySlots[member.key] {
                guard !seenToMany[slot] else { throw twice() }
                seenToMany[slot] = true
                try addMembers(member, slot: slot, owner: key, object: object, to: &batch)
            } else {
                throw LineError(message: "'\(member.key)' is not a property of \(columns.entity)")
            }
        }
        for (slot, rule) in columns.attributes.enumerated()
        where !rule.isOptional && !seenAttributes[slot] {
            throw LineError(message: "the required attribute '\(rule.name)' has no value")
        }
    }

    /// Adds the links that `node` lists in the to-manys named `names`.
    private func addLinks(
        _ node: RecordField, of names: Set<String>, line: Int, to batch: inout BundleObjectBatch
    ) throws {
        guard case .dictionary(let members) = node.value, case .text(let id)? = node["_id"]?.value,
            let (_, key) = Self.parseID(id)
        else { throw LineError(message: "expected an object with an \"_id\"") }
        let object = batch.count
        batch.lines.append(line)
        batch.keys.append(key)
        for member in members where names.contains(member.key) {
            guard let slot = batch.columns.toManySlots[member.key] else { continue }
            try addMembers(member, slot: slot, owner: key, object: object, to: &batch)
        }
    }

    /// `Entity/p<pk>` → (Entity, pk), pk positive.
    ///
    /// Read on the UTF-8 bytes: a bundle holds one id per object and per
    /// link, so this runs hundreds of thousands of times.
    static func parseID(_ id: String) -> (String, Int64)? {
        var id = id  // Native strings are contiguous: no copy.
        return id.withUTF8 { bytes in
            parseID(bytes: bytes).map { (String(decoding: $0.0, as: UTF8.self), $0.1) }
        }
    }

    // MARK: - Values

    private func value(of node: RecordField, for rule: EntityColumns.AttributeSlot) throws
        -> SQLiteValue
    {
        switch Self.storedValue(node.value, for: rule) {
        case .success(let value): return value
        case .failure(let expected):
            throw LineError(
                message: "'\(rule.name)': expected \(expected.description), found \(node.summary)")
        }
    }

    /// What the store keeps for a line's value of an attribute, when the value
    /// fits it; else what was expected instead. Both readings of a line use
    /// it, so they convert alike.
    static func storedValue(_ value: RecordValue, for rule: EntityColumns.AttributeSlot)
        -> Result<SQLiteValue, Expected>
    {
        func mismatch(_ expected: String) -> Result<SQLiteValue, Expected> {
            .failure(Expected(description: expected))
        }
        switch (rule.type, value) {
        case (_, .null):
            return .success(.null)
        case (.string, .text(let text)), (.uri, .text(let text)):
            return .success(.text(text))
        case (.string, _), (.uri, _):
            return mismatch("text")
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)),
            (.integer64, .integer(let number)):
            let range: ClosedRange<Int64> =
                switch rule.type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                default: Int64.min...Int64.max
                }
            guard range.contains(number) else { return mismatch("an \(rule.type.rawValue)") }
            return .success(.integer(number))
        case (.integer16, _), (.integer32, _), (.integer64, _):
            return mismatch("an integer")
        case (.boolean, .boolean(let flag)):
            return .success(.integer(flag ? 1 : 0))
        case (.boolean, _):
            return mismatch("true or false")
        case (.double, .integer(let number)), (.float, .integer(let number)),
            (.decimal, .integer(let number)):
            return .success(.real(Double(number)))
        case (.double, .real(let number)), (.float, .real(let number)),
            (.decimal, .real(let number)):
            return .success(.real(number))
        case (.double, _), (.float, _), (.decimal, _):
            return mismatch("a number")
        case (.date, .text(let text)):
            guard let seconds = ISO8601Date.seconds(from: text) else {
                return mismatch("an ISO 8601 date")
            }
            return .success(.real(seconds))
        case (.date, .integer(let number)):
            return .success(.real(Double(number)))
        case (.date, .real(let number)):
            return .success(.real(number))
        case (.date, _):
            return mismatch("an ISO 8601 date")
        case (.uuid, .text(let text)):
            guard let uuid = UUID(uuidString: text) else { return mismatch("a UUID") }
            return .success(.blob(withUnsafeBytes(of: uuid.uuid) { Data($0) }))
        case (.uuid, _):
            return mismatch("a UUID")
        case (.binary, .text(let text)), (.transformable, .text(let text)):
            guard let bytes = Data(base64Encoded: text) else {
                return mismatch(rule.takesMediaFile ? "base64 or a media/ file" : "base64")
            }
            return .success(
                .blob(rule.allowsExternalStorage ? ExternalBinary.encodeInline(bytes) : bytes))
        case (.binary, _), (.transformable, _):
            return mismatch("base64 text or a media/ file")
        }
    }

    /// What a value that does not fit an attribute should have been.
    struct Expected: Error {
        /// `text`, `an integer16`, `an ISO 8601 date`…
        let description: String
    }

    /// The media file `file` for attribute `slot`: read into the batch's
    /// bytes when it is at most ``mediumReadLimit`` bytes, else streamed
    /// into its row once the row is inserted.
    ///
    /// - Throws: ``LineError`` for a file the bundle lacks or SQLite cannot
    ///   hold; ``ArchiveError`` from the read (a damaged entry).
    func medium(
        _ file: String, rule: EntityColumns.AttributeSlot, object: Int, slot: Int,
        to batch: inout BundleObjectBatch
    ) throws -> BundleObjectBatch.Medium {
        // Every entry of the zip is listed in the manifest (checked on opening).
        guard let entry = reader.entry(named: file), entry.kind == .file else {
            throw LineError(message: "'\(rule.name)': \(file) is not a file of the bundle")
        }
        let marker = rule.allowsExternalStorage
        guard entry.size + (marker ? 1 : 0) < Int64(Int32.max) else {
            throw LineError(
                message: "'\(rule.name)': \(file) is \(entry.size) bytes, more than SQLite "
                    + "keeps in one value")
        }
        guard entry.size <= Self.mediumReadLimit else {
            return BundleObjectBatch.Medium(
                object: object, slot: slot, entry: entry, marker: marker, bytes: nil)
        }
        let start = batch.bytes.count
        if marker { batch.bytes.append(ExternalBinary.inlineMarker) }
        let end = batch.bytes.count + Int(entry.size)
        let expected = checksums?[file]
        try reader.read(entry, sha256: expected, bundle: path) { chunk in
            // The reader stops an entry that inflates beyond its size; this
            // only keeps a wrong size from growing the batch.
            guard batch.bytes.count + chunk.count <= end else {
                throw ArchiveError(
                    .sizeMismatch, path: reader.path, entry: entry.path,
                    message: "more bytes than the entry's declared \(entry.size)")
            }
            batch.bytes.append(contentsOf: chunk)
        }
        if expected != nil { verifiedFiles.insert(file) }
        return BundleObjectBatch.Medium(
            object: object, slot: slot, entry: entry, marker: marker,
            bytes: start..<batch.bytes.count)
    }

    /// The largest medium read into a batch; larger ones stream into their
    /// row through incremental blob I/O.
    static let mediumReadLimit: Int64 = 1 << 20

    // MARK: - Relationships

    /// The key and entity number a to-one names; nil for `null`.
    private func toOne(_ node: RecordField, of relationship: Relationship) throws -> (Int64, Int)? {
        if case .null = node.value { return nil }
        guard case .text(let id) = node.value, let (destination, key) = Self.parseID(id) else {
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
        return (key, number)
    }

    /// The store number of `name` when it is `relationship`'s destination or
    /// one of its subentities.
    func destinationNumber(_ name: String, of relationship: Relationship) -> Int? {
        guard let number = numbers[name],
            let tree = mapping.entities[relationship.destination]?.treeNumbers,
            tree.contains(number)
        else { return nil }
        return number
    }

    private func addMembers(
        _ node: RecordField, slot: Int, owner: Int64, object: Int, to batch: inout BundleObjectBatch
    ) throws {
        let relationship = batch.columns.toManyRelationships[slot]
        if case .null = node.value { return }
        guard case .array(let elements) = node.value else {
            throw LineError(
                message: "'\(relationship.name)': expected a list of ids, found \(node.summary)")
        }
        let role = roles[slot]
        var destination: (name: String, number: Int)?  // The last one checked.
        for (position, element) in elements.enumerated() {
            guard case .text(let id) = element.value, let (name, key) = Self.parseID(id),
                name == destination?.name
                    || destinationNumber(name, of: relationship).map({ destination = (name, $0) })
                        != nil
            else {
                throw LineError(
                    message: "'\(relationship.name)'[\(position)]: expected the id of a "
                        + "\(relationship.destination), found \(element.summary)")
            }
            addLink(
                owner: owner, member: key, role: role, object: object, slot: slot,
                position: position, to: &batch)
        }
    }

    /// Adds one link a line lists, at `position` in its list: to its pair's
    /// summary, and to the batch unless the pair's other side inserts it.
    func addLink(
        owner: Int64, member: Int64, role: BundleJoinLinks.Role, object: Int, slot: Int,
        position: Int, to batch: inout BundleObjectBatch
    ) {
        joinLinks.add(owner: owner, member: member, role: role)
        if case .mirror = role { return }  // Its primary side inserts it.
        batch.links.append(
            BundleObjectBatch.Link(
                object: object, slot: slot, member: member, order: OrderKey.at(position)))
    }
}
