import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// Reads the value of an attribute from a row as an ``RecordValue`` — the
/// value model the record writers take, and what the importer reads back:
/// text as text, integers, reals, booleans, dates as dates, UUIDs as their
/// text, binaries as data or (with a media hook) as the name of a file.
struct ExportValueReader {
    /// The store, for binaries kept in files beside it.
    let storeURL: URL
    /// Writes a binary's bytes somewhere and gives the text to put in the
    /// record; nil keeps binaries as data (base64 in text formats).
    var media: ((Attribute, UnsafeRawBufferPointer) throws -> String?)?
    /// Like ``media``, called first with the column's stored bytes as they
    /// are (an external-storage marker and all), for a caller that reads the
    /// value itself.
    var storedMedia: ((Attribute, UnsafeRawBufferPointer) throws -> String?)?
    /// Called with each link a to-many lists: the relationship, the owner's
    /// key and the member's (the archive summarises join tables with it).
    var listedLink: ((Relationship, Int64, Int64) -> Void)?

    /// The value of `attribute` in `column` of the current row of `row`.
    ///
    /// - Throws: ``ExportError`` `store` when the column holds what the type
    ///   cannot be read from exactly (the object named by `id`): a BLOB or
    ///   text that is not UTF-8 in a string column, say.
    func value(
        of attribute: Attribute, in row: Statement, column: Int32, id: @autoclosure () -> String
    ) throws -> RecordValue {
        let kind = row.columnType(column)
        if kind == .null { return .null }
        func mismatch() -> ExportError {
            ExportError(
                .store, path: storeURL.relativePath,
                "\(id()).\(attribute.name): a \(attribute.type.rawValue) attribute holds \(kind)")
        }
        switch attribute.type {
        case .string, .uri:
            // SQLite would read a BLOB's bytes as text, and Swift would turn
            // bytes that are not UTF-8 into U+FFFD: both change the value.
            guard kind != .blob else { throw mismatch() }
            guard let text = String(validating: row.utf8Bytes(at: column), as: UTF8.self) else {
                throw ExportError(
                    .store, path: storeURL.relativePath,
                    "\(id()).\(attribute.name): the text is not valid UTF-8")
            }
            return .text(text)
        case .integer16, .integer32, .integer64:
            if kind == .integer { return .integer(row.int64(at: column)) }
            if let exact = Int64(exactly: row.double(at: column)), kind == .real {
                return .integer(exact)
            }
            throw mismatch()
        case .boolean:
            guard kind == .integer else { throw mismatch() }
            return .boolean(row.int64(at: column) != 0)
        case .double, .float, .decimal:
            switch kind {
            case .integer, .real: return .real(row.double(at: column))
            default:
                // Decimals may be kept as text (coredata-format.md §1.4).
                guard let text = row.text(at: column), let real = Double(text) else {
                    throw mismatch()
                }
                return .real(real)
            }
        case .date:
            guard kind == .integer || kind == .real else { throw mismatch() }
            return .date(Date(timeIntervalSinceReferenceDate: row.double(at: column)))
        case .uuid:
            if kind == .blob {
                let bytes = row.blobBytes(at: column)
                guard bytes.count == 16 else { throw mismatch() }
                var uuid = UUID().uuid
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
                return .text(UUID(uuid: uuid).uuidString)
            }
            guard let text = row.text(at: column), let uuid = UUID(uuidString: text) else {
                throw mismatch()
            }
            return .text(uuid.uuidString)
        case .binary, .transformable:
            guard kind == .blob || kind == .text else { throw mismatch() }
            let stored = row.blobBytes(at: column)
            if let storedMedia, let name = try storedMedia(attribute, stored) { return .text(name) }
            let decode = { (bytes: UnsafeRawBufferPointer) throws -> RecordValue in
                if let media, let name = try media(attribute, bytes) { return .text(name) }
                return .data(Data(bytes))
            }
            guard attribute.allowsExternalStorage else { return try decode(stored) }
            do {
                return try ExternalBinary.withBytes(
                    of: stored, storeURL: storeURL, context: "\(id()).\(attribute.name)", decode)
            } catch let error as StoreError {
                throw ExportError(.store, path: error.path, error.message)
            }
        }
    }
}
