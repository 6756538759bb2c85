import Foundation
import Testing

@testable import Strata
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A store of a bundled model version, for importer tests.
struct ImportFixture {
    let folder: TemporaryDirectory
    let store: Store
    let model: Model

    init(_ name: String, version: Int? = nil) throws {
        let chain = try SchemaChain.load(
            directory: ContextFixture.schemas.appendingPathComponent(name))
        let model = try #require(version.map { chain.model(version: $0) } ?? chain.newest)
        try self.init(model: model)
    }

    init(model: Model) throws {
        folder = try TemporaryDirectory()
        self.model = model
        store = try Store.create(at: folder.file("\(model.name).sqlite"), model: model)
    }

    /// Imports `reader`'s records with `options`.
    func run(_ reader: any FieldRecordReader, _ options: ImportOptions) throws -> ImportSummary {
        let importer = try Importer(store: store, model: model, options: options)
        return try importer.run(reader)
    }

    /// Imports `reader`'s records with `options`.
    func run(_ reader: any TreeRecordReader, _ options: ImportOptions) throws -> ImportSummary {
        let importer = try Importer(store: store, model: model, options: options)
        return try importer.run(reader)
    }

    /// The rows of `sql`, each as text cells ("NULL" for null).
    func rows(_ sql: String) throws -> [[String]] {
        var rows: [[String]] = []
        try store.connection.prepare(sql).forEachRow { row in
            rows.append(
                (0..<row.columnCount).map { column in
                    switch row.value(at: column) {
                    case .null: "NULL"
                    case .integer(let number): String(number)
                    case .real(let number): String(number)
                    case .text(let text): text
                    case .blob(let data): "<\(data.count) bytes>"
                    }
                })
        }
        return rows
    }

    /// The first column of the first row of `sql`, as an integer.
    func count(_ sql: String) throws -> Int64 {
        try store.connection.scalar(sql)?.int64Value ?? -1
    }
}

/// Flat records held in memory: what a CSV reader would hand out.
final class ArrayFieldReader: FieldRecordReader {
    let file: String
    let header: [String]?
    private let rows: [[String?]]
    private var current = -1
    private var storage: [[UInt8]] = []
    /// Rows that fail to read (a ragged row, say), by row index.
    var failures: [Int: ImportError] = [:]

    init(file: String = "input.csv", header: [String]?, rows: [[String?]]) {
        self.file = file
        self.header = header
        self.rows = rows
    }

    var bytesRead: Int64 { Int64(max(current, 0)) }
    var totalBytes: Int64? { Int64(rows.count) }

    func nextRecord() throws -> Bool {
        current += 1
        guard current < rows.count else { return false }
        if let failure = failures[current] { throw failure }
        storage = rows[current].map { Array(($0 ?? "").utf8) }
        return true
    }

    var fieldCount: Int { storage.count }

    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        storage[index].withUnsafeBufferPointer { $0 }
    }

    func isQuoted(_ index: Int) -> Bool { rows[current][index] != nil }

    var recordPosition: SourcePosition {
        SourcePosition(file: file, line: current + 2, column: 1, byteOffset: Int64(current))
    }

    func position(ofField index: Int) -> SourcePosition {
        SourcePosition(
            file: file, line: current + 2, column: index * 10 + 1, byteOffset: Int64(current))
    }

    func recordText() -> Data {
        Data(rows[current].map { $0 ?? "" }.joined(separator: ",").utf8)
    }
}

/// Nested records held in memory: what a plist or JSON reader would hand out.
final class ArrayRecordReader: TreeRecordReader {
    let file: String
    private var records: [ImportRecord]
    private var index = 0

    init(file: String = "input.json", _ records: [[(String, RecordValue)]], group: String? = nil) {
        self.file = file
        self.records = records.enumerated().map { number, fields in
            let position = SourcePosition(
                file: file, line: number + 1, column: 1, keyPath: "[\(number)]")
            return ImportRecord(
                fields: fields.map {
                    RecordField(key: $0.0, value: $0.1, position: position.appending(key: $0.0))
                },
                position: position, group: group)
        }
    }

    var bytesRead: Int64 { Int64(index) }
    var totalBytes: Int64? { Int64(records.count) }

    func nextRecord() throws -> ImportRecord? {
        guard index < records.count else { return nil }
        defer { index += 1 }
        return records[index]
    }
}

/// Rejected records kept in memory.
final class RejectCollector: RejectWriter {
    var rejected: [RejectedRecord] = []
    func write(_ rejected: RejectedRecord) throws { self.rejected.append(rejected) }
    func finish() throws {}
}

extension RecordValue {
    /// A dictionary value from key-value pairs, positions made up.
    static func object(_ pairs: [(String, RecordValue)]) -> RecordValue {
        .dictionary(
            pairs.map {
                RecordField(key: $0.0, value: $0.1, position: SourcePosition(file: "input.json"))
            })
    }

    /// An array value, positions made up.
    static func list(_ values: [RecordValue]) -> RecordValue {
        .array(
            values.enumerated().map {
                RecordField(
                    key: String($0.offset), value: $0.element,
                    position: SourcePosition(file: "input.json"))
            })
    }
}
