import Foundation
import StrataCore
import StrataSchema
import StrataStore

import struct StrataContext.SortDescriptor

/// Writes the objects of one entity (or one fetch) of a store to a file:
/// CSV, an XML plist, txt blocks, JSON or JSON Lines, each of which the
/// importer reads back to the same values.
///
/// ```swift
/// let store = try Store.open(at: storeURL, mode: .readOnly)
/// let model = try store.resolveModel(schemas: nil).requiredModel()
/// var options = ExportOptions(entity: "Contact")
/// options.sortDescriptors = [SortDescriptor("lastName")]
/// let summary = try Exporter(store: store, model: model, options: options)
///     .run(to: outputPath, format: .csv)
/// print(summary.records)
/// ```
///
/// Rows stream from one prepared `SELECT` (the predicate and sort keys
/// compiled to SQL), in one read transaction, through one output buffer:
/// memory does not grow with the number of objects. The file is written
/// beside its place and appears only complete; an existing file is not
/// replaced unless ``ExportOptions/replacesExisting`` says so. Stores Core
/// Data wrote read the same (data in the WAL, binaries in external files).
public final class Exporter {
    /// The store read.
    public let store: Store
    /// The store's model.
    public let model: Model
    /// What to write.
    public let options: ExportOptions

    /// Prepares an export of `store`, whose version `model` is.
    ///
    /// - Throws: ``StoreError`` when the model's entities are not in the store.
    public init(store: Store, model: Model, options: ExportOptions) throws {
        self.store = store
        self.model = model
        self.options = options
    }

    /// Writes the objects to `path` (`-` for standard output) in `format`.
    ///
    /// txt files go to a folder at `path` instead: written beside it and
    /// renamed into place whole (an existing folder with files in it is
    /// refused unless ``ExportOptions/replacesExisting`` says so).
    ///
    /// - Parameter progress: Called every ``ExportProgress/interval``
    ///   objects and at the end, with the total when a count of the
    ///   entity's rows gives it (no predicate).
    /// - Returns: What was written.
    /// - Throws: ``ExportError`` (unknown fields, values the format cannot
    ///   hold, an existing file, a write that fails), ``FetchPredicateError`` for
    ///   a predicate that does not fit the model, ``StoreError``; a row of
    ///   the entity's table whose `Z_ENT` names no entity is an
    ///   ``ExportError`` (`store`) naming it, not left out; the target
    ///   is then unchanged (media files already written stay: each is whole).
    @discardableResult
    public func run(
        to path: String, format: ExportFormat, progress: ((ExportProgress) -> Void)? = nil
    ) throws -> ExportSummary {
        let start = Date()
        let mapping = try StoreMapping(model: model, store: store)
        var summary = ExportSummary()
        summary.entity = options.entity
        summary.format = format.rawValue
        var mediaFolder: MediaFolder?
        var reader = ExportValueReader(storeURL: store.url)
        if case .files(let folder) = options.binaries {
            let outputFolder = URL(fileURLWithPath: path == "-" ? "." : path)
                .deletingLastPathComponent()
            let media = try MediaFolder(url: folder, outputFolder: outputFolder)
            mediaFolder = media
            reader.media = { _, bytes in try media.store(bytes) }
        }
        try store.connection.beginTransaction(.deferred)
        defer { try? store.connection.commit() }  // Only read.
        let query = try ExportQuery(
            store: store, model: model, mapping: mapping, options: options)
        let total = progress == nil ? nil : try query.total()
        let entity = options.entity
        let report = { (count: Int) -> Void in
            progress?(ExportProgress(entity: entity, objects: count, total: total))
        }
        report(0)
        if format == .txtFiles {
            guard path != "-" else {
                throw ExportError(
                    .unwritable, path: path, "txt files are a folder; give the folder's path")
            }
            let folder = try ExportFolder(path: path, replacing: options.replacesExisting)
            do {
                let writer = TextFileExportWriter(
                    folder: folder, titleKey: try titleKey(query), bodyKey: bodyKey())
                summary.records = try writeRecords(
                    query, reader, writer, path: path, flattensLists: true, report: report)
                try folder.commit()
            } catch {
                folder.abandon()
                throw error
            }
            summary.bytes = folder.written
        } else {
            let output = try ExportOutput(path: path, replacing: options.replacesExisting)
            do {
                switch format {
                case .csv, .tsv, .txtLines:
                    let dialect: CSVExportWriter.Dialect =
                        format == .csv ? .csv : format == .tsv ? .tsv : .lines(options.delimiter)
                    let writer = CSVExportWriter(
                        output: output, query: query, values: reader, dialect: dialect)
                    summary.records = try writer.writeAll(progress: report)
                    if format == .txtLines { summary.columns = query.fields.map(\.name) }
                default:
                    summary.records = try writeRecords(
                        query, reader, recordWriter(format, output), path: path,
                        flattensLists: format == .txtBlocks, report: report)
                }
                summary.bytes = try output.commit()
            } catch {
                output.abandon()
                throw error
            }
        }
        report(summary.records)
        summary.mediaFiles = mediaFolder?.written ?? 0
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }

    /// The writer of a record format.
    private func recordWriter(
        _ format: ExportFormat, _ output: ExportOutput
    ) -> any ExportRecordWriter {
        switch format {
        case .plist: PropertyListExportWriter(output: output)
        case .txtBlocks: TextBlockExportWriter(output: output, bodyKey: bodyKey())
        case .ndjson: JSONExportWriter(output: output, lines: true)
        default: JSONExportWriter(output: output, lines: false)
        }
    }

    private func writeRecords(
        _ query: ExportQuery, _ reader: ExportValueReader, _ writer: any ExportRecordWriter,
        path: String, flattensLists: Bool, report: (Int) -> Void
    ) throws -> Int {
        var count = 0
        while try query.statement.step() {
            try query.checkEntity()
            var (record, id) = try Self.record(query, reader)
            if flattensLists {
                for index in record.fields.indices {
                    record.fields[index].value = try Self.flattened(
                        record.fields[index], id: id, path: path)
                }
            }
            try writer.write(record, id: id)
            count += 1
            if count % ExportProgress.interval == 0 { report(count) }
        }
        try writer.finish()
        return count
    }

    /// The title field of txt files: the option, else the first field
    /// named `title`, `name` or `subject`.
    ///
    /// - Throws: ``ExportError`` `unknownField` when there is none among
    ///   the fields written.
    private func titleKey(_ query: ExportQuery) throws -> String {
        let names = query.fields.map(\.name)
        if let field = options.titleField {
            guard names.contains(field) else {
                throw ExportError(
                    .unknownField, path: store.path,
                    "the title field '\(field)' is not among the fields written ("
                        + names.joined(separator: ", ") + ")")
            }
            return field
        }
        guard let found = ["title", "name", "subject"].first(where: names.contains) else {
            throw ExportError(
                .unknownField, path: store.path,
                "txt files start with a title line, and no field is named title, name or "
                    + "subject; name the title field (--title <field>)")
        }
        return found
    }

    /// The body field of txt blocks: the option, else `body`, `text` or
    /// `notes` when the entity has such an attribute.
    private func bodyKey() -> String {
        if let field = options.bodyField { return field }
        let names = Set(model.allAttributes(of: options.entity).map(\.name))
        return ["body", "text", "notes"].first { names.contains($0) } ?? "body"
    }

    /// A list of ids as one text (`A/p1, A/p2`), as txt blocks and CSV hold
    /// to-many links; nested records have no such form.
    static func flattened(_ field: RecordField, id: String, path: String) throws -> RecordValue {
        guard case .array(let elements) = field.value else { return field.value }
        var parts: [String] = []
        for element in elements {
            guard case .text(let text) = element.value else {
                throw ExportError(
                    .unwritableValue, path: path,
                    "\(id).\(field.key): nested records need a plist or JSON output")
            }
            parts.append(text)
        }
        return parts.isEmpty ? .null : .text(parts.joined(separator: ", "))
    }

    // MARK: - Records from rows

    /// The record of the current row of `query`, and its id; with `only`,
    /// a record of that one field.
    static func record(
        _ query: ExportQuery, _ reader: ExportValueReader, only: ExportField? = nil
    ) throws -> (ImportRecord, String) {
        let row = query.statement
        let key = row.int64(at: 0)
        let id = query.idText(number: row.int64(at: 1), key: key, fallback: query.entity)
        var fields: [RecordField] = []
        fields.reserveCapacity(query.fields.count)
        for field in only.map({ [$0] }) ?? query.fields {
            let value = try self.value(of: field, query, reader, key: key, id: id)
            fields.append(RecordField(key: field.name, value: value))
        }
        return (ImportRecord(fields: fields, position: SourcePosition(file: id)), id)
    }

    /// The value of `field` in the current row (the object `key`, `id`).
    private static func value(
        of field: ExportField, _ query: ExportQuery, _ reader: ExportValueReader, key: Int64,
        id: String
    ) throws -> RecordValue {
        let row = query.statement
        switch field.source {
        case .id:
            return .text(id)
        case .attribute(let attribute, let column):
            return try reader.value(of: attribute, in: row, column: column, id: id)
        case .toOne(let relationship, let column, let entityColumn):
            guard !row.isNull(at: column) else { return .null }
            let number = entityColumn.map { row.int64(at: $0) } ?? -1
            return .text(
                query.idText(
                    number: number, key: row.int64(at: column), fallback: relationship.destination))
        case .toMany(let relationship, let related):
            var ids: [RecordField] = []
            try related.forEachRow(of: key) { row in
                reader.listedLink?(relationship, key, row.int64(at: 0))
                let text = query.idText(
                    number: row.int64(at: 1), key: row.int64(at: 0),
                    fallback: relationship.destination)
                ids.append(
                    RecordField(key: String(ids.count), value: .text(text)))
            }
            return .array(ids)
        case .nested(let relationship, let related, let keyColumn):
            var owner = key
            if let keyColumn {
                guard !row.isNull(at: keyColumn) else { return .null }
                owner = row.int64(at: keyColumn)
            }
            var objects: [RecordField] = []
            try related.forEachRow(of: owner) { row in
                let nestedID = query.idText(
                    number: row.int64(at: 1), key: row.int64(at: 0),
                    fallback: relationship.destination)
                var members: [RecordField] = []
                for (index, attribute) in related.attributes.enumerated() {
                    let value = try reader.value(
                        of: attribute, in: row, column: Int32(index + 2),
                        id: nestedID)
                    members.append(RecordField(key: attribute.name, value: value))
                }
                objects.append(
                    RecordField(key: String(objects.count), value: .dictionary(members)))
            }
            return relationship.isToMany ? .array(objects) : objects.first?.value ?? .null
        }
    }
}
