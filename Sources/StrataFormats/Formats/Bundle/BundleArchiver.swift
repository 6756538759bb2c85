import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Writes a whole store to a `strata-bundle/1` zip: every object of every
/// entity as JSON Lines (`data/<Entity>.jsonl`, relationships as ids), the
/// exact schema version (`schema.json`), every `media` or external-storage
/// binary once per distinct content (`media/<sha256>.<ext>`), a manifest
/// with counts and a SHA-256 per file, and a README in plain words.
///
/// ```swift
/// let store = try Store.open(at: storeURL, mode: .readOnly)
/// let model = try store.resolveModel(schemas: nil).requiredModel()
/// let summary = try BundleArchiver(store: store, model: model)
///     .archive(to: bundleURL)
/// ```
///
/// The zip is deterministic: its entries are sorted by name and carry fixed
/// times, so archiving the same store twice gives the same bytes. Media that
/// is compressed already (JPEG, PNG, HEIC, audio, video) is stored, the rest
/// deflated. Memory does not grow with the number or size of objects: rows
/// stream from the store, media bytes are read in pieces (SQLite's
/// incremental blob I/O, or the external file), and the index of media
/// (name, size, where the bytes are) lives in a scratch SQLite file, not in
/// memory.
public final class BundleArchiver {
    /// The store archived.
    public let store: Store
    /// Its model.
    public let model: Model
    /// A folder whose files the bundle carries too, under `prefix` (a
    /// static HTML site under `html/`: `strata archive --with-html`),
    /// listed in the manifest with their checksums like every other file;
    /// `unarchive` verifies and otherwise ignores them.
    public var extraFiles: (folder: URL, prefix: String)?

    /// Where the bytes of one media attribute are: its table and column.
    struct MediaSlot {
        let entity: String
        let table: String
        let column: String
        let attribute: Attribute
    }

    /// Prepares the archive of `store`, whose version `model` is.
    public init(store: Store, model: Model) {
        self.store = store
        self.model = model
    }

    /// The entities written, in byte order of their names.
    var entities: [String] {
        model.entities.filter { !$0.isAbstract }.map(\.name)
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Writes the bundle to `url`, atomically (a hidden file beside it,
    /// linked into place when complete).
    ///
    /// - Parameter replacing: Whether an existing file at `url` may be
    ///   replaced; by default it is an error, before anything is written.
    /// - Parameter progress: Called every ``ExportProgress/interval``
    ///   objects of each entity and at its end, with its count of rows as
    ///   the total.
    /// - Returns: What was written.
    /// - Throws: ``ArchiveError`` (an existing file, a write failure),
    ///   ``ExportError`` or ``StoreError`` for a store that cannot be read,
    ///   or whose objects `unarchive` would refuse (see
    ///   ``verifyReferences(mapping:)``) or no entity reads (rows whose `Z_ENT` names
    ///   none: ``Store/unknownEntityRows(of:)``), before anything is written.
    @discardableResult
    public func archive(
        to url: URL, replacing: Bool = false, progress: ((ExportProgress) -> Void)? = nil
    ) throws -> BundleSummary {
        let start = Date()
        var summary = BundleSummary()
        summary.model = model.name
        summary.bundleVersion = model.version
        summary.storeVersion = model.version
        let mapping = try StoreMapping(model: model, store: store)
        // Beside the archive, private: the media index names the store's
        // content.
        WorkFiles.removeLeftovers(of: url)
        let scratch = try WorkFiles.makeFolder(for: url, activity: "archiving")
        defer { WorkFiles.remove(scratch) }
        // Each medium by name: its size, slot, row key and whether stored.
        let index = try ScratchIndex(
            at: scratch.appendingPathComponent("media.sqlite"), fields: 4)

        let readme = Data(BundleReadme.text(model: model).utf8)
        let schema = try SchemaEncoder().encodeData(model)
        var files: [BundleManifest.File] = []
        var slots: [MediaSlot] = []

        try store.connection.beginTransaction(.deferred)
        defer { try? store.connection.commit() }  // Only read.
        try verifyReferences(mapping: mapping)
        try store.refuseUnknownEntityRows(for: "the archive")
        // Deflate level 1: text (the JSON Lines) still shrinks to about a
        // fifth, at a third of the default level's time.
        try ZipWriter.write(to: url, replacing: replacing, deflateLevel: Self.deflateLevel) { zip in
            try zip.add(path: "README.txt", bytes: readme, compression: .deflated)
            files.append(Self.file("README.txt", readme))
            let connection = store.connection
            let joinLinks = ArchivedJoinLinks(
                try BundleJoinLinks(model: model, mapping: mapping) {
                    try BundleJoinLinks.leadingColumn(of: $0, in: connection)
                })
            let entities = self.entities
            for (step, entity) in entities.enumerated() {
                let report = progress.map { progress in
                    { (count: Int, total: Int?) in
                        progress(
                            ExportProgress(
                                entity: entity, objects: count, total: total, step: step + 1,
                                steps: entities.count))
                    }
                }
                let (file, count) = try writeData(
                    of: entity, mapping: mapping, zip: zip, index: index, slots: &slots,
                    joinLinks: joinLinks, report: report)
                files.append(file)
                summary.counts[entity] = count
            }
            // Before the manifest: a refused store leaves no bundle.
            try verifyJoinTables(joinLinks.links, mapping: mapping)
            if let extraFiles {
                files += try addExtraFiles(extraFiles.folder, prefix: extraFiles.prefix, zip: zip)
            }
            files.append(Self.file("schema.json", schema))
            try writeManifest(files: files, counts: summary.counts, zip: zip, index: index)
            (summary.mediaFiles, summary.mediaBytes) = try writeMedia(
                zip: zip, index: index, slots: slots)
            try zip.add(path: "schema.json", bytes: schema, compression: .deflated)
        }
        summary.zipBytes = FileSystem.size(of: url.path)
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// Adds every file under `folder` as `prefix` + its relative path, in
    /// byte order of the paths (the same folder gives the same bytes).
    private func addExtraFiles(_ folder: URL, prefix: String, zip: ZipWriter) throws
        -> [BundleManifest.File]
    {
        var paths: [String] = []
        let root = folder.standardizedFileURL.path
        if let walker = FileManager.default.enumerator(atPath: root) {
            for case let path as String in walker {
                var isDirectory: ObjCBool = false
                let full = root + "/" + path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    paths.append(path)
                }
            }
        }
        paths.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var files: [BundleManifest.File] = []
        for path in paths {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            let name = prefix + path
            let compressed = MediaType.sniff(bytes).isCompressed
            try zip.add(path: name, bytes: bytes, compression: compressed ? .stored : .deflated)
            files.append(Self.file(name, bytes))
        }
        return files
    }

    /// zlib's level for the bundle's deflated entries.
    static let deflateLevel = 1

    package static func file(_ path: String, _ bytes: Data) -> BundleManifest.File {
        BundleManifest.File(
            path: path, bytes: Int64(bytes.count), sha256: SHA256.hex(SHA256.hash(bytes)))
    }

    // MARK: - Data

    /// `data/<entity>.jsonl`: one line per object of exactly `entity`, in
    /// key order; media values are indexed for the media pass.
    private func writeData(
        of entity: String, mapping: StoreMapping, zip: ZipWriter, index: ScratchIndex,
        slots: inout [MediaSlot], joinLinks: ArchivedJoinLinks,
        report: ((Int, Int?) -> Void)? = nil
    ) throws -> (BundleManifest.File, Int) {
        var options = ExportOptions(entity: entity)
        options.includesSubentities = false
        options.includesIDs = true
        options.fields =
            model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
            + model.allRelationships(of: entity).filter { !$0.isTransient }.map(\.name)
        var slotOfAttribute: [String: Int] = [:]
        for attribute in model.allAttributes(of: entity)
        where attribute.isMedia || attribute.allowsExternalStorage {
            guard attribute.type == .binary || attribute.type == .transformable,
                let table = mapping.entities[entity]?.table,
                let column = mapping.entities[entity]?.attributeColumns[attribute.name]
            else { continue }
            slotOfAttribute[attribute.name] = slots.count
            slots.append(
                MediaSlot(entity: entity, table: table, column: column, attribute: attribute))
            options.prefixOnly.insert(attribute.name)
        }
        let query = try ExportQuery(store: store, model: model, mapping: mapping, options: options)
        let total = report == nil ? nil : try query.total()
        report?(0, total)
        let knownSlots = slots
        var reader = ExportValueReader(storeURL: store.url)
        reader.storedMedia = { attribute, prefix in
            guard let slot = slotOfAttribute[attribute.name] else { return nil }
            let key = query.statement.int64(at: 0)
            let source = try self.source(of: knownSlots[slot], key: key, prefix: prefix)
            var hash = SHA256()
            var head: [UInt8] = []
            var size: Int64 = 0
            try self.forEachChunk(of: source) { chunk in
                if head.count < 64 { head += chunk.prefix(64 - head.count) }
                hash.update(chunk)
                size += Int64(chunk.count)
            }
            let type = MediaType.sniff(head)
            let name = SHA256.hex(hash.finalize()) + "." + type.fileExtension
            try index.add(name, [size, Int64(slot), key, type.isCompressed ? 1 : 0])
            return "media/" + name
        }
        // Many-to-many links listed from both sides are summarised as the
        // loader summarises them (``verifyJoinTables(_:mapping:)``).
        let roles = model.allRelationships(of: entity).filter(\.isToMany).compactMap {
            relationship -> (String, BundleJoinLinks.Role)? in
            let role = joinLinks.links.role(of: relationship.name, in: entity)
            return role == .direct ? nil : (relationship.name, role)
        }
        if !roles.isEmpty {
            let roleByName = Dictionary(roles, uniquingKeysWith: { first, _ in first })
            reader.listedLink = { relationship, owner, member in
                guard let role = roleByName[relationship.name] else { return }
                joinLinks.links.add(owner: owner, member: member, role: role)
            }
        }
        let checks = try valueChecks(of: query)
        let bounds = checks.map { (field: $0.field, bounds: $0.check.bounds) }
        let path = BundleManifest.dataFile(of: entity)
        var hash = SHA256()
        var size: Int64 = 0
        var count = 0
        var line = JSONWriter()
        // Deflating on a second thread while this one reads the store and
        // writes JSON: the two take about as long as each other.
        try zip.add(path: path, compression: .deflated, inBackground: true) { sink in
            var pending: [UInt8] = []
            pending.reserveCapacity(1 << 16)
            while try query.statement.step() {
                let (record, id) = try Exporter.record(query, reader)
                try verifyValues(of: record, id: id, checks: checks, bounds: bounds)
                line.clear()
                line.openObject()
                for field in record.fields where field.value != .null {
                    line.member(field.key, field.value)
                }
                line.closeObject()
                pending += line.bytes
                pending.append(0x0A)
                count += 1
                if count % ExportProgress.interval == 0 { report?(count, total) }
                if pending.count >= 1 << 16 {
                    try Self.emit(&pending, sink: sink, hash: &hash, size: &size)
                }
            }
            try Self.emit(&pending, sink: sink, hash: &hash, size: &size)
        }
        report?(count, total)
        return (
            BundleManifest.File(path: path, bytes: size, sha256: SHA256.hex(hash.finalize())), count
        )
    }

    private static func emit(
        _ pending: inout [UInt8], sink: ZipEntrySink, hash: inout SHA256, size: inout Int64
    ) throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { raw in
            hash.update(raw)
            try sink.write(raw)
        }
        size += Int64(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Manifest

    private func writeManifest(
        files: [BundleManifest.File], counts: [String: Int], zip: ZipWriter, index: ScratchIndex
    ) throws {
        var hashes: [String: String] = [:]
        for entity in model.entities {
            if let hash = model.versionHash(ofEntity: entity.name) {
                hashes[entity.name] = Data(hash).base64EncodedString()
            }
        }
        let manifest = BundleManifest(
            format: BundleManifest.format, createdBy: "Strata",
            model: .init(
                name: model.name, version: model.version,
                versionIdentifier: model.versionIdentifier, hashes: hashes),
            counts: counts, files: [])
        // Every file by path: README.txt, data/…, media/… (from the index, in
        // name order), schema.json — the order of the zip's entries; streamed,
        // so the list of media is never in memory.
        try zip.add(path: "manifest.json", compression: .deflated) { sink in
            try sink.write(BundleJSON.manifestHead(manifest))
            var first = true
            func line(_ file: BundleManifest.File) throws {
                try sink.write(BundleJSON.manifestLine(file, first: first))
                first = false
            }
            for file in files where file.path != "schema.json" { try line(file) }
            try index.forEach { name, fields in
                try line(
                    BundleManifest.File(
                        path: "media/" + name, bytes: fields[0], sha256: String(name.prefix(64))))
            }
            for file in files where file.path == "schema.json" { try line(file) }
            try sink.write(BundleJSON.manifestTail)
        }
    }

    // MARK: - Media

    /// `media/<name>` for every indexed file, in name order, read from the
    /// store again in pieces (in the same read transaction, so the bytes are
    /// the ones hashed).
    private func writeMedia(zip: ZipWriter, index: ScratchIndex, slots: [MediaSlot]) throws -> (
        Int, Int64
    ) {
        let reader = RowReader(store, tables: try StoreMapping(model: model, store: store))
        var statements: [Int: Statement] = [:]
        var count = 0
        var total: Int64 = 0
        try index.forEach { name, fields in
            let slotNumber = Int(fields[1])
            let key = fields[2]
            let slot = slots[slotNumber]
            let read: Statement
            if let known = statements[slotNumber] {
                read = known
            } else {
                var query = RowQuery(
                    slot.entity,
                    [.attributePrefix(slot.attribute.name, bytes: ExportQuery.prefixLength)])
                query.entities = .table
                query.filters = [.key]
                query.inKeyOrder = false
                read = try reader.prepare(query)
                statements[slotNumber] = read
            }
            try read.bind([.integer(key)])
            guard try read.step() else {
                throw ExportError(
                    .store, path: store.path, "the row of media/\(name) vanished while archiving")
            }
            let source = try self.source(of: slot, key: key, prefix: read.blobBytes(at: 0))
            read.reset()
            let stored = fields[3] != 0
            try zip.add(path: "media/" + name, compression: stored ? .stored : .deflated) {
                sink in
                try self.forEachChunk(of: source) { chunk in
                    try sink.write(chunk)
                    total += Int64(chunk.count)
                }
            }
            count += 1
        }
        return (count, total)
    }

    // MARK: - Reading media in pieces

    /// Where the bytes of one media value are.
    enum MediaSource {
        /// In the row's column, from `offset`.
        case column(table: String, column: String, key: Int64, offset: Int)
        /// In a file beside the store (Core Data's external storage).
        case file(URL)
    }

    /// The source of the value of `slot` in row `key`, from its first bytes.
    func source(of slot: MediaSlot, key: Int64, prefix: UnsafeRawBufferPointer) throws
        -> MediaSource
    {
        guard slot.attribute.allowsExternalStorage else {
            return .column(table: slot.table, column: slot.column, key: key, offset: 0)
        }
        do {
            switch try ExternalBinary.location(
                ofStored: prefix, storeURL: store.url,
                context: "\(slot.attribute.name) of row \(key)")
            {
            case .column(let offset):
                return .column(table: slot.table, column: slot.column, key: key, offset: offset)
            case .file(let url):
                return .file(url)
            }
        } catch let error as StoreError {
            throw ExportError(.store, path: error.path, error.message)
        }
    }

    /// Calls `body` with the bytes of `source` in chunks.
    func forEachChunk(of source: MediaSource, _ body: (UnsafeRawBufferPointer) throws -> Void)
        throws
    {
        switch source {
        case .column(let table, let column, let key, let offset):
            try Blob(store.connection, table: table, column: column, rowID: key)
                .forEachChunk(from: offset, body)
        case .file(let url):
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw ExportError(
                    .store, path: store.path,
                    "external data file \(url.lastPathComponent) is missing")
            }
            defer { try? handle.close() }  // Only read.
            while let chunk = try handle.read(upToCount: 1 << 18), !chunk.isEmpty {
                try chunk.withUnsafeBytes(body)
            }
        }
    }
}
