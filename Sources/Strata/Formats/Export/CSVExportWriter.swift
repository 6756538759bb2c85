import Foundation

/// Writes the rows of an ``ExportQuery`` as CSV (RFC 4180): a header row of
/// field names, CRLF line ends, a field quoted when it holds a comma, a
/// quote, a CR or a LF (quotes doubled), the empty string as `""` and no
/// value as an empty field — the distinctions ``CSVReader`` and the
/// importer read back.
///
/// The common columns go from SQLite's buffer straight into the output
/// buffer: text bytes as they are, integers, reals and dates formatted
/// into bytes, with no `String` per field. Other values (binaries, UUIDs,
/// relationship ids) take the general path through ``ImportValue``.
final class CSVExportWriter {
    private let output: ExportOutput
    private let query: ExportQuery
    private let values: ExportValueReader

    init(output: ExportOutput, query: ExportQuery, values: ExportValueReader) {
        self.output = output
        self.query = query
        self.values = values
    }

    /// Writes the header and every row.
    ///
    /// - Returns: The number of rows.
    func writeAll() throws -> Int {
        for (index, field) in query.fields.enumerated() {
            if index > 0 { output.buffer.append(UInt8(ascii: ",")) }
            var name = field.name
            name.withUTF8 { appendQuoted($0, emptyIsValue: false) }
        }
        output.append("\r\n")
        let row = query.statement
        var count = 0
        while try row.step() {
            for (index, field) in query.fields.enumerated() {
                if index > 0 { output.buffer.append(UInt8(ascii: ",")) }
                if case .attribute(let attribute, let column) = field.source {
                    try appendAttribute(attribute, column: column)
                } else {
                    try appendGeneral(field)
                }
            }
            output.buffer.append(0x0D)
            output.buffer.append(0x0A)
            count += 1
            if output.buffer.count >= ExportOutput.flushSize { try output.flush() }
        }
        return count
    }

    /// One attribute's column, by the fast path when its type allows.
    @inline(__always)
    private func appendAttribute(_ attribute: Attribute, column: Int32) throws {
        let row = query.statement
        let kind = row.columnType(column)
        switch (attribute.type, kind) {
        case (_, .null):
            return
        case (.string, .text), (.uri, .text):
            appendQuoted(row.utf8Bytes(at: column), emptyIsValue: true)
        case (.integer16, .integer), (.integer32, .integer), (.integer64, .integer):
            appendInteger(row.int64(at: column))
        case (.double, .real), (.double, .integer), (.float, .real), (.float, .integer),
            (.decimal, .real), (.decimal, .integer):
            appendReal(row.double(at: column))
        case (.boolean, .integer):
            output.append(row.int64(at: column) != 0 ? "true" : "false")
        case (.date, .real), (.date, .integer):
            try appendDate(row.double(at: column))
        default:
            let value = try values.value(of: attribute, in: row, column: column, id: currentID())
            try appendValue(value, name: attribute.name)
        }
    }

    /// A relationship or id field, through its record value.
    private func appendGeneral(_ field: ExportField) throws {
        let (record, id) = try Exporter.record(query, values, only: field)
        guard let first = record.fields.first else { return }
        try appendValue(
            try Exporter.flattened(first, id: id, path: output.path), name: field.name)
    }

    private func currentID() -> String {
        query.idText(
            number: query.statement.int64(at: 1), key: query.statement.int64(at: 0),
            fallback: query.entity)
    }

    private func appendValue(_ value: ImportValue, name: String) throws {
        switch value {
        case .null: return
        case .text(var text): text.withUTF8 { appendQuoted($0, emptyIsValue: true) }
        case .integer(let number): appendInteger(number)
        case .unsignedInteger(let number): output.append(String(number))
        case .real(let number): appendReal(number)
        case .boolean(let flag): output.append(flag ? "true" : "false")
        case .date(let date): try appendDate(date.timeIntervalSinceReferenceDate)
        case .data(let bytes):
            // Base64 needs no quoting; an empty binary is an empty field.
            output.append(bytes.base64EncodedString())
        case .array, .dictionary:
            throw ExportError(
                .unwritableValue, path: output.path,
                "\(currentID()).\(name): nested records need a plist or JSON output")
        }
    }

    // MARK: - Bytes

    /// `bytes` as a CSV field: quoted when they hold `,` `"` CR or LF (or
    /// are empty and `emptyIsValue`), with quotes doubled.
    @inline(__always)
    private func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>, emptyIsValue: Bool) {
        var needsQuotes = bytes.isEmpty && emptyIsValue
        var quotes = 0
        for byte in bytes where byte <= UInt8(ascii: ",") {
            switch byte {
            case UInt8(ascii: ","), 0x0A, 0x0D: needsQuotes = true
            case UInt8(ascii: "\""): quotes += 1
            default: break
            }
        }
        guard needsQuotes || quotes > 0 else {
            output.buffer.append(contentsOf: bytes)
            return
        }
        output.buffer.append(UInt8(ascii: "\""))
        if quotes == 0 {
            output.buffer.append(contentsOf: bytes)
        } else {
            for byte in bytes {
                output.buffer.append(byte)
                if byte == UInt8(ascii: "\"") { output.buffer.append(byte) }
            }
        }
        output.buffer.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private func appendInteger(_ number: Int64) {
        if number < 0 {
            output.buffer.append(UInt8(ascii: "-"))
            appendDigits(number.magnitude, width: 1)
        } else {
            appendDigits(UInt64(number), width: 1)
        }
    }

    /// The decimal digits of `number`, zero-padded to `width`.
    @inline(__always)
    private func appendDigits(_ number: UInt64, width: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var value = number
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0 || count < width
            output.buffer.append(
                contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// The shortest text that reads back as the same double.
    @inline(__always)
    private func appendReal(_ number: Double) {
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            appendInteger(Int64(number))
            return
        }
        output.append(number.description)
    }

    /// A date as UTC ISO 8601, with the fraction of a second when it has
    /// one (exact: the importer reads the same value back).
    @inline(__always)
    private func appendDate(_ seconds: Double) throws {
        let whole = seconds.rounded(.down)
        guard whole == seconds, abs(seconds) < 2e11 else {
            guard let text = ISO8601Date.string(from: seconds) else {
                throw ExportError(
                    .unwritableValue, path: output.path,
                    "\(currentID()): the date \(seconds) (seconds since 2001) has no ISO 8601 form")
            }
            output.append(text)
            return
        }
        let unix = Int64(whole) + ISO8601Date.referenceOffset
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let second = unix - days * 86_400
        let (year, month, day) = ISO8601Date.civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else {
            throw ExportError(
                .unwritableValue, path: output.path,
                "\(currentID()): the date \(seconds) (seconds since 2001) has no ISO 8601 form")
        }
        appendDigits(UInt64(year), width: 4)
        output.buffer.append(UInt8(ascii: "-"))
        appendDigits(UInt64(month), width: 2)
        output.buffer.append(UInt8(ascii: "-"))
        appendDigits(UInt64(day), width: 2)
        output.buffer.append(UInt8(ascii: "T"))
        appendDigits(UInt64(second / 3600), width: 2)
        output.buffer.append(UInt8(ascii: ":"))
        appendDigits(UInt64(second / 60 % 60), width: 2)
        output.buffer.append(UInt8(ascii: ":"))
        appendDigits(UInt64(second % 60), width: 2)
        output.buffer.append(UInt8(ascii: "Z"))
    }
}
