import Foundation
import StrataCore

/// One block of a txt-blocks file as flat fields: its header values and its
/// body as bytes in the reader's buffer (see
/// ``TextBlockReader/withNextBlock(_:)``), valid only while the reader's
/// call lasts. Fields are the headers in order, then the body, when there
/// is one.
struct TextBlockFields {
    let cursor: TextRecordCursor
    let headers: TextHeaders
    /// The body text, its lines joined with LF; nil when the block has none.
    var body: UnsafeBufferPointer<UInt8>?
    /// The field name of the body.
    let bodyKey: String
    /// The body's first line, and where it starts in the block.
    let bodyLine: Int
    let bodyStart: Int

    /// The number of fields.
    var count: Int { headers.keys.count + (body == nil ? 0 : 1) }

    /// Field `index`'s value.
    func value(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        if index < headers.keys.count { return cursor.slice(headers.values[index]) }
        return body ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// Field `index`'s name.
    func key(_ index: Int) -> String {
        index < headers.keys.count ? cursor.string(headers.keys[index]) : bodyKey
    }

    /// Where field `index`'s value starts.
    func position(ofField index: Int) -> SourcePosition {
        if index < headers.keys.count { return headers.position(ofValue: index, in: cursor) }
        return SourcePosition(
            file: cursor.file, line: bodyLine, column: 1,
            byteOffset: cursor.text.firstOffset + Int64(bodyStart))
    }

    /// Where the block starts.
    var position: SourcePosition {
        SourcePosition(
            file: cursor.file, line: cursor.text.firstLine, column: 1,
            byteOffset: cursor.text.firstOffset)
    }

    /// The block's text as it is in the file (without its last line ending).
    var originalText: Data { cursor.text.originalText }

    /// Whether the fields have the names, in order, that `signature`
    /// (from ``keySignature``) records: then they map as the last block's did.
    func hasKeys(of signature: [UInt8]) -> Bool {
        var offset = 0
        for key in headers.keys {
            let bytes = cursor.slice(key)
            guard offset + bytes.count < signature.count,
                signature[offset + bytes.count] == 0,
                bytes.elementsEqual(signature[offset..<offset + bytes.count])
            else { return false }
            offset += bytes.count + 1
        }
        return signature.count == offset + 1 && signature[offset] == (body == nil ? 1 : 2)
    }

    /// The field names in a form ``hasKeys(of:)`` compares cheaply.
    var keySignature: [UInt8] {
        var signature: [UInt8] = []
        for key in headers.keys {
            signature.append(contentsOf: cursor.slice(key))
            signature.append(0)
        }
        signature.append(body == nil ? 1 : 2)
        return signature
    }

    /// The block as a record of text fields (the importer's general path).
    var record: ImportRecord {
        ImportRecord(
            fields: (0..<count).map {
                RecordField(
                    key: key($0), value: .text(String(decoding: value($0), as: UTF8.self)),
                    position: position(ofField: $0))
            }, position: position, originalText: originalText)
    }
}
