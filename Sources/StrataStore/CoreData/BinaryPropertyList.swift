import Foundation
import StrataCore

/// A reader for binary property lists (`bplist00`), the format of keyed
/// archives such as Core Data's model cache.
///
/// Written from the format: an 8-byte header, the objects, an offset table
/// giving each object's position, and a 32-byte trailer. The reader never
/// trusts the file: every offset, reference and count is checked against the
/// file's bounds, reference cycles and nesting deeper than
/// ``defaultMaximumDepth`` throw, and every failure is a
/// ``PropertyListError``. Objects referenced from several places are decoded
/// once.
///
/// Unlike Foundation's reader on Linux, this one exposes keyed-archiver UIDs
/// as ``RecordValue/uid(_:)``.
///
/// ```swift
/// let top = try BinaryPropertyList.decode(data)
/// let objects = top["$objects"]?.elements ?? []
/// ```
public struct BinaryPropertyList {
    /// How deeply containers may nest before decoding gives up.
    public static let defaultMaximumDepth = 256

    /// The size of the trailer at the end of the file.
    static let trailerSize = 32

    /// The whole file.
    package let bytes: [UInt8]
    /// Bytes per entry of the offset table (1…8).
    let offsetSize: Int
    /// Bytes per object reference inside containers (1…8).
    package let referenceSize: Int
    /// The number of objects (entries in the offset table).
    let objectCount: Int
    /// The index of the top-level object.
    package let topObject: Int
    /// Where the offset table starts; objects lie in `8..<offsetTableStart`.
    let offsetTableStart: Int
    /// The deepest nesting allowed.
    let maximumDepth: Int

    /// Objects already decoded, by index.
    package var decoded: [Int: RecordValue] = [:]
    /// The containers being decoded, from the top object down: a reference
    /// to one of them is a cycle.
    var path: Set<Int> = []

    /// Decodes a binary property list.
    ///
    /// - Parameters:
    ///   - data: The file's bytes, starting with `bplist00`.
    ///   - maximumDepth: The deepest container nesting allowed.
    /// - Returns: The top-level object.
    /// - Throws: ``PropertyListError`` for anything malformed.
    public static func decode(
        _ data: Data, maximumDepth: Int = defaultMaximumDepth
    ) throws -> RecordValue {
        var reader = try BinaryPropertyList(bytes: [UInt8](data), maximumDepth: maximumDepth)
        return try reader.object(at: reader.topObject, depth: 0)
    }

    /// Checks the header, trailer and offset table.
    package init(bytes: [UInt8], maximumDepth: Int) throws {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        let header = Array("bplist00".utf8)
        guard bytes.count >= header.count + Self.trailerSize + 1 else {
            throw PropertyListError("file too short (\(bytes.count) bytes)", byteOffset: 0)
        }
        guard bytes.starts(with: header) else {
            throw PropertyListError("missing bplist00 header", byteOffset: 0)
        }
        // Trailer: 5 unused bytes, a sort version, the offset and reference
        // sizes, then three big-endian 64-bit numbers.
        let trailer = bytes.count - Self.trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize) else {
            throw PropertyListError(
                "offset size \(offsetSize) not in 1…8", byteOffset: trailer + 6)
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError(
                "reference size \(referenceSize) not in 1…8", byteOffset: trailer + 7)
        }
        let count = ByteFields.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let top = ByteFields.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let tableStart = ByteFields.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        // Each object takes at least one byte, so a count beyond the file
        // size is a lie; checking it first keeps the products below small.
        guard count >= 1, count <= UInt64(bytes.count) else {
            throw PropertyListError("implausible object count \(count)", byteOffset: trailer + 8)
        }
        guard top < count else {
            throw PropertyListError(
                "top object \(top) not below the count \(count)", byteOffset: trailer + 16)
        }
        let tableSize = count * UInt64(offsetSize)
        guard tableStart >= UInt64(header.count) + 1,
            tableStart <= UInt64(trailer),
            tableSize <= UInt64(trailer) - tableStart
        else {
            throw PropertyListError(
                "offset table at \(tableStart) does not fit before the trailer",
                byteOffset: trailer + 24)
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(tableStart)
    }

    // MARK: - Bounds-checked reading

    /// The file offset of object `index`, checked to lie in the object area.
    package func offset(ofObject index: Int) throws -> Int {
        guard index >= 0, index < objectCount else {
            throw PropertyListError(
                "reference to object \(index) of \(objectCount)", objectIndex: index)
        }
        let entry = offsetTableStart + index * offsetSize
        let offset = ByteFields.bigEndian(bytes[entry..<(entry + offsetSize)])
        guard offset >= 8, offset < UInt64(offsetTableStart) else {
            throw PropertyListError(
                "object offset \(offset) outside the object area", byteOffset: entry,
                objectIndex: index)
        }
        return Int(offset)
    }

    /// `count` bytes at `start`, which must end inside the object area.
    package func slice(_ start: Int, count: Int, object index: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, start >= 0, start <= offsetTableStart,
            count <= offsetTableStart - start
        else {
            throw PropertyListError(
                "\(count) bytes at \(start) run past the object area", byteOffset: start,
                objectIndex: index)
        }
        return bytes[start..<(start + count)]
    }

}
