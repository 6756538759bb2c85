import Foundation
import StrataCore
import StrataSchema

/// Converts attribute values to and from what Core Data stores in their
/// columns (coredata-format.md §1.4): dates as seconds since 2001, booleans
/// as 0/1, UUIDs as 16 bytes, external-storage binaries with their marker.
package enum ColumnValueCodec {
    /// The attribute value of a column; nil for NULL.
    ///
    /// - Throws: ``StoreError`` naming the attribute and row when the column
    ///   holds something the type cannot be read from.
    package static func decode(
        _ value: SQLiteValue, _ attribute: Attribute, store: Store, primaryKey: Int64
    ) throws -> AttributeValue? {
        try decode(value, attribute, storeURL: store.url, primaryKey: primaryKey)
    }

    /// Like ``decode(_:_:store:primaryKey:)``, for a store known by its
    /// location only (a migration reads a plain connection).
    package static func decode(
        _ value: SQLiteValue, _ attribute: Attribute, storeURL: URL, primaryKey: Int64
    ) throws -> AttributeValue? {
        if value.isNull { return nil }
        func mismatch() -> StoreError {
            StoreError(
                .corruptMetadata, path: storeURL.relativePath,
                message:
                    "\(attribute.name) of row \(primaryKey): a \(attribute.type.rawValue) column holds \(value.kind)"
            )
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            guard let integer = value.int64Value ?? value.doubleValue.flatMap(Int64.init(exactly:))
            else {
                throw mismatch()
            }
            return .integer(integer)
        case .boolean:
            guard let integer = value.int64Value else { throw mismatch() }
            return .boolean(integer != 0)
        case .double, .float, .decimal:
            // Decimals may be stored as REAL, INTEGER or TEXT (§1.4).
            if let real = value.doubleValue { return .real(real) }
            if let text = value.stringValue, let real = Double(text) { return .real(real) }
            throw mismatch()
        case .date:
            guard let seconds = value.doubleValue else { throw mismatch() }
            return .date(seconds)
        case .string, .uri:
            guard let text = value.stringValue else { throw mismatch() }
            return .string(text)
        case .uuid:
            if let bytes = value.dataValue, bytes.count == 16 {
                let b = Array(bytes)
                return .uuid(
                    UUID(
                        uuid: (
                            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
                            b[11], b[12], b[13], b[14], b[15]
                        )))
            }
            if let text = value.stringValue, let uuid = UUID(uuidString: text) {
                return .uuid(uuid)
            }
            throw mismatch()
        case .binary, .transformable:
            guard let bytes = value.dataValue else { throw mismatch() }
            guard attribute.allowsExternalStorage else { return .data(bytes) }
            return .data(
                try ExternalBinary.decode(
                    bytes, storeURL: storeURL, context: "\(attribute.name) of row \(primaryKey)"))
        }
    }

    /// The column value of an attribute value; NULL for nil.
    package static func encode(_ value: AttributeValue?, _ attribute: Attribute) -> SQLiteValue {
        encode(value, externalStorage: attribute.allowsExternalStorage)
    }

    /// The column value of an attribute value whose attribute does or does
    /// not allow external storage (which adds the inline marker byte).
    package static func encode(_ value: AttributeValue?, externalStorage: Bool) -> SQLiteValue {
        guard let value else { return .null }
        switch value {
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .string(let text): return .text(text)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .date(let seconds): return .real(seconds)
        case .uuid(let uuid):
            return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        case .data(let bytes):
            return .blob(
                externalStorage ? ExternalBinary.encodeInline(bytes) : bytes)
        }
    }
}
