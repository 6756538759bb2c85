import Foundation

/// Decodes binary values of attributes that allow external storage
/// (coredata-format.md §1.10): every non-nil value starts with a marker byte,
/// `0x01` followed by the bytes, or `0x02` followed by the ASCII name of a
/// file in `.<store name>_SUPPORT/_EXTERNAL_DATA/` and a NUL.
package enum ExternalBinary {
    /// The marker of a value stored in the row itself.
    package static let inlineMarker: UInt8 = 0x01
    /// The marker of a value stored in a file beside the store.
    static let fileMarker: UInt8 = 0x02

    /// The folder of external files for the store at `storeURL`.
    static func folder(forStoreAt storeURL: URL) -> URL {
        let name = storeURL.deletingPathExtension().lastPathComponent
        return storeURL.deletingLastPathComponent()
            .appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
            .appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// The bytes of a stored value.
    ///
    /// - Throws: ``StoreError`` (`corruptMetadata`) naming the attribute and
    ///   row when the marker is unknown, the file name is not a plain name,
    ///   or the file is missing.
    package static func decode(_ stored: Data, storeURL: URL, context: @autoclosure () -> String)
        throws
        -> Data
    {
        guard let marker = stored.first else { return stored }
        switch marker {
        case inlineMarker:
            return stored.dropFirst()
        case fileMarker:
            let nameBytes = stored.dropFirst().prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            // The name is Core Data's UUID; anything that could leave the
            // folder is refused rather than followed.
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 != UInt8(ascii: "/") }), name != ".",
                name != ".."
            else {
                throw StoreError(
                    .corruptMetadata, path: storeURL.relativePath,
                    message: "\(context()): external data name is not a file name")
            }
            let file = folder(forStoreAt: storeURL).appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw StoreError(
                    .corruptMetadata, path: storeURL.relativePath,
                    message: "\(context()): external data file \(name) is missing")
            }
            return bytes
        default:
            throw StoreError(
                .corruptMetadata, path: storeURL.relativePath,
                message: "\(context()): unknown external-storage marker \(marker)")
        }
    }

    /// Where the bytes of a stored value are, from its first bytes (the
    /// marker, and the file name of a value kept in a file): in the column
    /// after the marker, or in a file beside the store.
    ///
    /// - Throws: ``StoreError`` (`corruptMetadata`) as ``decode(_:storeURL:context:)``
    ///   for an unknown marker or a name that is not a plain file name.
    package static func location(
        ofStored prefix: UnsafeRawBufferPointer, storeURL: URL, context: @autoclosure () -> String
    ) throws -> ExternalBinaryLocation {
        guard let marker = prefix.first else { return .column(offset: 0) }
        switch marker {
        case inlineMarker:
            return .column(offset: 1)
        case fileMarker:
            let nameBytes = prefix.dropFirst().prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard !name.isEmpty, nameBytes.count < prefix.count - 1,
                name.utf8.allSatisfy({ $0 != UInt8(ascii: "/") }), name != ".", name != ".."
            else {
                throw StoreError(
                    .corruptMetadata, path: storeURL.relativePath,
                    message: "\(context()): external data name is not a file name")
            }
            return .file(folder(forStoreAt: storeURL).appendingPathComponent(name))
        default:
            throw StoreError(
                .corruptMetadata, path: storeURL.relativePath,
                message: "\(context()): unknown external-storage marker \(marker)")
        }
    }

    /// Calls `body` with the bytes of a stored value without copying an
    /// inline one (a value in a file is read whole).
    ///
    /// - Throws: What ``decode(_:storeURL:context:)`` throws, or `body`'s error.
    package static func withBytes<T>(
        of stored: UnsafeRawBufferPointer, storeURL: URL, context: @autoclosure () -> String,
        _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        if stored.first == inlineMarker {
            return try body(UnsafeRawBufferPointer(rebasing: stored[1...]))
        }
        let data = try decode(Data(stored), storeURL: storeURL, context: context())
        return try data.withUnsafeBytes(body)
    }

    /// The stored form of `bytes`, always inline (§1.10: writers can always
    /// write `0x01`).
    package static func encodeInline(_ bytes: Data) -> Data {
        var stored = Data([inlineMarker])
        stored.append(bytes)
        return stored
    }
}

/// Where the bytes of an external-storage value are.
package enum ExternalBinaryLocation {
    /// In the column, after `offset` marker bytes.
    case column(offset: Int)
    /// In a file beside the store.
    case file(URL)
}
