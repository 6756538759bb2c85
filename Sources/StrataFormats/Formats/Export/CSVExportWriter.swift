import Foundation
import StrataCore

/// Writes the rows of an ``ExportQuery`` as CSV (RFC 4180): a header row of
/// field names, CRLF line ends, a field quoted when it holds a comma, a
/// quote, a CR or a LF (quotes doubled), the empty string as `""` and no
/// value as an empty field — the distinctions ``CSVReader`` and the
/// importer read back. The same with another ``Dialect``: TSV (a tab, LF
/// line ends) and txt lines (no header, no quotes: a value that would need
/// them is refused).
///
/// The common columns go from SQLite's buffer straight into the output
/// buffer: text bytes as they are, integers, reals and dates formatted
/// into bytes, with no `String` per field. Other values (binaries, UUIDs,
/// relationship ids) take the general path through ``RecordValue``.
final class CSVExportWriter {
    /// How the fields and lines are written.
    struct Dialect {
        /// The byte between fields; nil when the line is one field.
        var delimiter: UInt8?
        /// Whether fields are quoted where needed; without quotes, a value
        /// holding the delimiter or a line break, or empty text, is refused.
        var quotes: Bool
        /// Whether the first line names the fields.
        var header: Bool
        /// The bytes that end a line.
        var lineEnd: [UInt8]

        /// RFC 4180.
        static let csv = Dialect(
            delimiter: UInt8(ascii: ","), quotes: true, header: true, lineEnd: [0x0D, 0x0A])
        /// Tab-separated values, as the importer's `tsv` reads them.
        static let tsv = Dialect(
            delimiter: UInt8(ascii: "\t"), quotes: true, header: true, lineEnd: [0x0A])

        /// txt lines split by `delimiter` (or whole lines).
        static func lines(_ delimiter: UInt8?) -> Dialect {
            Dialect(delimiter: delimiter, quotes: false, header: false, lineEnd: [0x0A])
        }
    }

    /// A value txt lines cannot hold, thrown by the field writers and named
    /// by the row loop.
    private struct UnfitValue: Error {}

    private let output: ExportOutput
    private let query: ExportQuery
    private let values: ExportValueReader
    private let dialect: Dialect
    /// The delimiter, or a line feed when each line is one field.
    private let delimiter: UInt8
    /// Bytes above this one need neither quotes nor a look.
    private let highestSpecial: UInt8

    /// How one field is written: straight from its column, or through the
    /// general path (field index).
    private enum Plan {
        case text(Int32)
        case integer(Int32)
        case real(Int32)
        case date(Int32)
        case boolean(Int32)
        case general(Int)
    }

    /// One plan per field, made once so the row loop copies no `Attribute`.
    private let plans: ContiguousArray<Plan>

    init(
        output: ExportOutput, query: ExportQuery, values: ExportValueReader,
        dialect: Dialect = .csv
    ) {
        self.output = output
        self.query = query
        self.values = values
        self.dialect = dialect
        delimiter = dialect.delimiter ?? 0x0A
        highestSpecial = max(UInt8(ascii: "\""), delimiter)
        plans = ContiguousArray(
            query.fields.enumerated().map { index, field in
                guard case .attribute(let attribute, let column) = field.source else {
                    return .general(index)
                }
                switch attribute.type {
                case .string, .uri: return .text(column)
                case .integer16, .integer32, .integer64: return .integer(column)
                case .double, .float, .decimal: return .real(column)
                case .date: return .date(column)
                case .boolean: return .boolean(column)
                default: return .general(index)
                }
            })
    }

    /// Writes the header and every row.
    ///
    /// - Parameter progress: Called with the rows written so far, every
    ///   ``ExportProgress/interval`` rows.
    /// - Returns: The number of rows.
    func writeAll(progress: (Int) -> Void = { _ in }) throws -> Int {
        if dialect.delimiter == nil, query.fields.count != 1 {
            throw ExportError(
                .unwritableValue, path: output.path,
                "txt lines without a delimiter hold one field a line, and there are "
                    + "\(query.fields.count); give a delimiter or one field")
        }
        var buffer = output.takeBuffer()
        defer { output.giveBack(buffer) }
        if dialect.header {
            for (index, field) in query.fields.enumerated() {
                if index > 0 { buffer.append(delimiter) }
                var name = field.name
                try name.withUTF8 { try appendText($0, emptyIsValue: false, to: &buffer) }
            }
            buffer += dialect.lineEnd
        }
        let row = query.statement
        var count = 0
        while try row.step() {
            try query.checkEntity()
            for index in plans.indices {
                if index > 0 { buffer.append(delimiter) }
                do {
                    try append(plans[index], row, to: &buffer)
                } catch is UnfitValue {
                    throw ExportError(
                        .unwritableValue, path: output.path,
                        "\(currentID()).\(query.fields[index].name): txt lines cannot hold this "
                            + "value (it is empty text, or holds the delimiter or a line break); "
                            + "write csv or tsv instead")
                }
            }
            buffer += dialect.lineEnd
            count += 1
            if buffer.count >= ExportOutput.flushSize {
                try output.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
            if count % ExportProgress.interval == 0 { progress(count) }
        }
        return count
    }

    /// One field of the current row. A column whose storage class is not
    /// the attribute's usual one takes the general path.
    @inline(__always)
    private func append(_ plan: Plan, _ row: Statement, to buffer: inout [UInt8]) throws {
        switch plan {
        case .text(let column):
            switch row.columnType(column) {
            case .null: return
            case .text:
                try appendText(row.utf8Bytes(at: column), emptyIsValue: true, to: &buffer)
            default: try appendGeneral(column: column, to: &buffer)
            }
        case .integer(let column):
            switch row.columnType(column) {
            case .null: return
            case .integer: Self.appendInteger(row.int64(at: column), to: &buffer)
            default: try appendGeneral(column: column, to: &buffer)
            }
        case .real(let column):
            switch row.columnType(column) {
            case .null: return
            case .integer, .real: Self.appendReal(row.double(at: column), to: &buffer)
            default: try appendGeneral(column: column, to: &buffer)
            }
        case .date(let column):
            switch row.columnType(column) {
            case .null: return
            case .integer, .real: try appendDate(row.double(at: column), to: &buffer)
            default: try appendGeneral(column: column, to: &buffer)
            }
        case .boolean(let column):
            switch row.columnType(column) {
            case .null: return
            case .integer:
                buffer.append(
                    contentsOf: row.int64(at: column) != 0 ? Self.trueBytes : Self.falseBytes)
            default: try appendGeneral(column: column, to: &buffer)
            }
        case .general(let index):
            let (record, id) = try Exporter.record(query, values, only: query.fields[index])
            guard let first = record.fields.first else { return }
            try appendValue(
                try Exporter.flattened(first, id: id, path: output.path), name: first.key,
                to: &buffer)
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// The attribute in `column`, through its record value.
    private func appendGeneral(column: Int32, to buffer: inout [UInt8]) throws {
        guard
            let field = query.fields.first(where: {
                if case .attribute(_, let at) = $0.source { return at == column }
                return false
            }), case .attribute(let attribute, _) = field.source
        else { return }
        let value = try values.value(
            of: attribute, in: query.statement, column: column, id: currentID())
        try appendValue(value, name: attribute.name, to: &buffer)
    }

    private func currentID() -> String {
        query.idText(
            number: query.statement.int64(at: 1), key: query.statement.int64(at: 0),
            fallback: query.entity)
    }

    private func appendValue(_ value: RecordValue, name: String, to buffer: inout [UInt8]) throws {
        switch value {
        case .null: return
        case .text(var text):
            try text.withUTF8 { try appendText($0, emptyIsValue: true, to: &buffer) }
        case .integer(let number): Self.appendInteger(number, to: &buffer)
        case .unsignedInteger(let number), .uid(let number): buffer += String(number).utf8
        case .real(let number): Self.appendReal(number, to: &buffer)
        case .boolean(let flag): buffer += flag ? Self.trueBytes : Self.falseBytes
        case .date(let date): try appendDate(date.timeIntervalSinceReferenceDate, to: &buffer)
        case .data(let bytes):
            // Base64 needs no quoting; an empty binary is an empty field.
            buffer += bytes.base64EncodedString().utf8
        case .array, .set, .dictionary:
            throw ExportError(
                .unwritableValue, path: output.path,
                "\(currentID()).\(name): nested records need a plist or JSON output")
        }
    }

    // MARK: - Bytes

    /// `bytes` as a field: quoted when they hold the delimiter, `"`, CR or
    /// LF (or are empty and `emptyIsValue`), with quotes doubled; without
    /// quotes, such bytes throw ``UnfitValue``.
    @inline(__always)
    private func appendText(
        _ bytes: UnsafeBufferPointer<UInt8>, emptyIsValue: Bool, to buffer: inout [UInt8]
    ) throws {
        var needsQuotes = bytes.isEmpty && emptyIsValue
        var quotes = 0
        for byte in bytes where byte <= highestSpecial {
            if byte == delimiter || byte == 0x0A || byte == 0x0D {
                needsQuotes = true
            } else if byte == UInt8(ascii: "\"") {
                quotes += 1
            }
        }
        guard dialect.quotes else {
            if needsQuotes { throw UnfitValue() }
            buffer.append(contentsOf: bytes)
            return
        }
        guard needsQuotes || quotes > 0 else {
            buffer.append(contentsOf: bytes)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        if quotes == 0 {
            buffer.append(contentsOf: bytes)
        } else {
            for byte in bytes {
                buffer.append(byte)
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func appendInteger(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 {
            buffer.append(UInt8(ascii: "-"))
            appendDigits(number.magnitude, width: 1, to: &buffer)
        } else {
            appendDigits(UInt64(number), width: 1, to: &buffer)
        }
    }

    /// The decimal digits of `number`, zero-padded to `width`.
    @inline(__always)
    private static func appendDigits(_ number: UInt64, width: Int, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var value = number
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0 || count < width
            buffer.append(
                contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// The shortest text that reads back as the same double.
    @inline(__always)
    private static func appendReal(_ number: Double, to buffer: inout [UInt8]) {
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            appendInteger(Int64(number), to: &buffer)
            return
        }
        buffer += number.description.utf8
    }

    /// A date as UTC ISO 8601, with the fraction of a second when it has
    /// one (exact: the importer reads the same value back).
    @inline(__always)
    private func appendDate(_ seconds: Double, to buffer: inout [UInt8]) throws {
        guard ISO8601Date.append(seconds, to: &buffer) else {
            throw ExportError(
                .unwritableValue, path: output.path,
                "\(currentID()): the date \(seconds) (seconds since 2001) has no ISO 8601 form")
        }
    }
}
