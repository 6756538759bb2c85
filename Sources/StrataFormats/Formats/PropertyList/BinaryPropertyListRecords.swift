import Foundation
import StrataCore
import StrataStore

/// The records of a binary property list (`bplist00`), read with the
/// package's ``BinaryPropertyList`` reader.
///
/// A binary plist's offset table sits at the end of the file, so the file is
/// held whole; the records are still decoded one at a time, and the
/// reader's cache of decoded objects is emptied after each. Containers are
/// walked here rather than by ``BinaryPropertyList``, so that dict entries
/// keep their order in the file and integers above 2⁶³−1 (written as 16
/// bytes) are read. Positions carry the key path and the object's byte
/// offset; a binary plist has no lines.
final class BinaryPropertyListRecords: PropertyListRecordSource {
    /// The records to hand out, in order: the elements of the root array,
    /// or those of each array of the root dict.
    private enum Group {
        /// The object indexes of records, under `key` in a root dict.
        case records(key: String?, objects: [Int])
        /// A value of the root dict that is not an array.
        case notRecords(ImportError)
    }

    private let file: String
    private let limits: ImportLimits
    private var plist: BinaryPropertyList
    private let totalBytes: Int64
    private var groups: [Group] = []
    private var groupIndex = 0
    private var elementIndex = 0
    private var recordCount = 0
    private var recordsRead = 0
    /// The error of a root that holds no records; every call throws it.
    private var failure: ImportError?
    /// The containers being decoded: a reference back to one is a cycle.
    private var path: Set<Int> = []
    /// Values of the record being read, and bytes of its strings and data:
    /// an object that several references share counts once for each, as
    /// the copies it becomes.
    private var valuesOfRecord = 0
    private var bytesOfRecord = 0

    /// Checks the file's trailer and finds the records.
    ///
    /// - Throws: ``ImportError`` `.syntax` for a damaged file.
    init(file: String, data: Data, limits: ImportLimits) throws {
        self.file = file
        self.limits = limits
        totalBytes = Int64(data.count)
        do {
            plist = try BinaryPropertyList(
                bytes: [UInt8](data), maximumDepth: BinaryPropertyList.defaultMaximumDepth)
        } catch let error as PropertyListError {
            throw ImportError(
                .syntax, at: SourcePosition(file: file, byteOffset: Int64(error.byteOffset ?? 0)),
                "damaged binary property list: \(error.message)")
        }
        do {
            try findRecords()
        } catch let error as ImportError {
            failure = error
        }
    }

    var bytesRead: Int64 {
        recordCount == 0 ? totalBytes : totalBytes * Int64(recordsRead) / Int64(recordCount)
    }

    func nextRecord() throws -> ImportRecord? {
        if let failure { throw failure }
        while groupIndex < groups.count {
            switch groups[groupIndex] {
            case .notRecords(let error):
                groupIndex += 1
                throw error
            case .records(let key, let objects):
                guard elementIndex < objects.count else {
                    groupIndex += 1
                    elementIndex = 0
                    continue
                }
                let index = elementIndex
                elementIndex += 1
                recordsRead += 1
                // Objects shared between records are decoded again rather
                // than kept for the whole file.
                defer { plist.decoded.removeAll(keepingCapacity: true) }
                valuesOfRecord = 0
                bytesOfRecord = 0
                return try record(
                    objects[index], keyPath: (key ?? "") + "[\(index)]", group: key,
                    nesting: key == nil ? 2 : 3)
            }
        }
        return nil
    }

    // MARK: - Root

    /// Reads the root: an array of records, or a dict of arrays of them.
    private func findRecords() throws {
        let top = plist.topObject
        let start = try offset(of: top, keyPath: nil)
        let place = SourcePosition(file: file, byteOffset: Int64(start))
        let kind = plist.bytes[start] >> 4
        guard 1 <= limits.maximumDepth else { throw tooDeep(place) }
        if kind == 0xA {
            let objects = try references(of: top, at: start, keyPath: nil).values
            groups = [.records(key: nil, objects: objects)]
            recordCount = objects.count
        } else if kind == 0xD {
            let (keys, values) = try references(of: top, at: start, keyPath: nil)
            var seen: Set<String> = []
            for (keyObject, valueObject) in zip(keys, values) {
                let key = try dictionaryKey(keyObject, keyPath: nil)
                let valueStart = try offset(of: valueObject, keyPath: key)
                let valuePlace = SourcePosition(
                    file: file, byteOffset: Int64(valueStart), keyPath: key)
                guard seen.insert(key).inserted else {
                    groups.append(.notRecords(duplicateKey(key, at: valuePlace)))
                    continue
                }
                guard plist.bytes[valueStart] >> 4 == 0xA else {
                    groups.append(
                        .notRecords(
                            ImportError(
                                .structure, at: valuePlace,
                                "\(try describe(valueObject)) at \(key); every value of the"
                                    + " root dict must be an array of dicts (records)")))
                    continue
                }
                guard 2 <= limits.maximumDepth else { throw tooDeep(valuePlace) }
                let objects = try references(of: valueObject, at: valueStart, keyPath: key).values
                groups.append(.records(key: key, objects: objects))
                recordCount += objects.count
            }
        } else {
            throw ImportError(
                .structure, at: place,
                "the root is \(try describe(top)); expected an array of dicts (records)"
                    + " or a dict of arrays of dicts")
        }
    }

    /// Reads one record, which must be a dict.
    private func record(
        _ object: Int, keyPath: String, group: String?, nesting: Int
    ) throws -> ImportRecord {
        let start = try offset(of: object, keyPath: keyPath)
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        guard plist.bytes[start] >> 4 == 0xD else {
            throw ImportError(
                .structure, at: place,
                "\(try describe(object)) at \(keyPath); expected a dict (a record)")
        }
        let fields = try dictionaryFields(object, at: start, keyPath: keyPath, nesting: nesting)
        return ImportRecord(fields: fields, position: place, group: group)
    }

    // MARK: - Values

    /// The value of `object`, whose container is at `nesting`.
    private func value(
        _ object: Int, keyPath: String, nesting: Int
    ) throws -> (RecordValue, SourcePosition) {
        let start = try offset(of: object, keyPath: keyPath)
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        valuesOfRecord += 1
        guard valuesOfRecord <= limits.maximumValuesPerRecord else {
            throw ImportError(
                .tooLarge, at: place,
                "the record holds more than \(limits.maximumValuesPerRecord) values (an object "
                    + "that several references share counts once for each)")
        }
        let marker = plist.bytes[start]
        switch marker >> 4 {
        case 0x1:
            return (try integer(object, at: start, place), place)
        case 0xD:
            return (
                .dictionary(
                    try dictionaryFields(object, at: start, keyPath: keyPath, nesting: nesting + 1)
                ), place
            )
        case 0xA:
            return (
                .array(
                    try arrayElements(object, at: start, keyPath: keyPath, nesting: nesting + 1)),
                place
            )
        case 0x8, 0xC:
            throw ImportError(
                .structure, at: place,
                "\(try describe(object)) is not a property-list value")
        default:
            switch try decode(object, keyPath: keyPath) {
            case .null: return (.null, place)
            case .boolean(let value): return (.boolean(value), place)
            case .real(let value): return (.real(value), place)
            case .date(let value): return (.date(value), place)
            case .data(let value):
                guard value.count <= limits.maximumFieldBytes else {
                    throw tooLong("data", place)
                }
                try count(bytes: value.count, place)
                return (.data(value), place)
            case .text(let value):
                guard value.utf8.count <= limits.maximumFieldBytes else {
                    throw tooLong("string", place)
                }
                try count(bytes: value.utf8.count, place)
                return (.text(value), place)
            case .integer, .unsignedInteger, .uid, .array, .set, .dictionary:
                // Handled by marker above.
                throw ImportError(.syntax, at: place, "damaged binary property list")
            }
        }
    }

    /// The entries of a dict, in file order.
    private func dictionaryFields(
        _ object: Int, at start: Int, keyPath: String, nesting: Int
    ) throws -> [RecordField] {
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        guard nesting <= limits.maximumDepth else { throw tooDeep(place) }
        let (keys, values) = try references(of: object, at: start, keyPath: keyPath)
        guard keys.count <= limits.maximumFieldCount else {
            throw ImportError(
                .tooLarge, at: place, "dict of more than \(limits.maximumFieldCount) entries")
        }
        try enter(object, place)
        defer { path.remove(object) }
        var fields: [RecordField] = []
        fields.reserveCapacity(keys.count)
        var seen: Set<String> = []
        for (keyObject, valueObject) in zip(keys, values) {
            let key = try dictionaryKey(keyObject, keyPath: keyPath)
            let valuePath = keyPath.isEmpty ? key : keyPath + "." + key
            let (value, valuePlace) = try value(valueObject, keyPath: valuePath, nesting: nesting)
            guard seen.insert(key).inserted else { throw duplicateKey(key, at: valuePlace) }
            fields.append(RecordField(key: key, value: value, position: valuePlace))
        }
        return fields
    }

    /// The elements of an array, in order.
    private func arrayElements(
        _ object: Int, at start: Int, keyPath: String, nesting: Int
    ) throws -> [RecordField] {
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        guard nesting <= limits.maximumDepth else { throw tooDeep(place) }
        let objects = try references(of: object, at: start, keyPath: keyPath).values
        guard objects.count <= limits.maximumFieldCount else {
            throw ImportError(
                .tooLarge, at: place, "array of more than \(limits.maximumFieldCount) elements")
        }
        try enter(object, place)
        defer { path.remove(object) }
        var elements: [RecordField] = []
        elements.reserveCapacity(objects.count)
        for (index, element) in objects.enumerated() {
            let elementPath = keyPath + "[" + String(index) + "]"
            let (value, elementPlace) = try value(element, keyPath: elementPath, nesting: nesting)
            elements.append(RecordField(key: String(index), value: value, position: elementPlace))
        }
        return elements
    }

    /// An integer of 1, 2, 4, 8 or 16 bytes; 16-byte ones hold the values
    /// above 2⁶³−1 that Apple writes that way.
    private func integer(_ object: Int, at start: Int, _ place: SourcePosition) throws
        -> RecordValue
    {
        let exponent = Int(plist.bytes[start] & 0x0F)
        guard exponent <= 4 else {
            throw ImportError(.syntax, at: place, "damaged binary property list: integer size")
        }
        let raw = try guarded(place) {
            try plist.slice(start + 1, count: 1 << exponent, object: object)
        }
        switch exponent {
        case 0, 1, 2:
            return .integer(Int64(ByteFields.bigEndian(raw)))
        case 3:
            return .integer(Int64(bitPattern: ByteFields.bigEndian(raw)))
        default:
            let high = ByteFields.bigEndian(raw.prefix(8))
            let low = ByteFields.bigEndian(raw.suffix(8))
            if high == 0 {
                return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
            }
            guard high == .max, Int64(bitPattern: low) < 0 else {
                throw ImportError(
                    .invalidValue, at: place,
                    "integer is outside the 64-bit range (-2^63 to 2^64-1)")
            }
            return .integer(Int64(bitPattern: low))
        }
    }

    // MARK: - Objects

    /// The object references of the array or dict at `start`: for a dict,
    /// its keys and its values; for an array, its elements as `values`.
    private func references(
        of object: Int, at start: Int, keyPath: String?
    ) throws -> (keys: [Int], values: [Int]) {
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        let marker = plist.bytes[start]
        let isDictionary = marker >> 4 == 0xD
        return try guarded(place) {
            let (count, body) = try plist.length(Int(marker & 0x0F), at: start, object)
            let size = plist.referenceSize
            let (total, overflow) = count.multipliedReportingOverflow(
                by: size * (isDictionary ? 2 : 1))
            guard !overflow else {
                throw PropertyListError("container of \(count) entries", byteOffset: start)
            }
            let raw = try plist.slice(body, count: total, object: object)
            var references: [Int] = []
            references.reserveCapacity(total / size)
            var position = raw.startIndex
            while position < raw.endIndex {
                // Out-of-range references are reported when followed.
                references.append(
                    Int(clamping: ByteFields.bigEndian(raw[position..<(position + size)])))
                position += size
            }
            guard isDictionary else { return ([], references) }
            return (Array(references[..<count]), Array(references[count...]))
        }
    }

    /// The string key `object` of a dict.
    private func dictionaryKey(_ object: Int, keyPath: String?) throws -> String {
        guard case .text(let key) = try decode(object, keyPath: keyPath) else {
            let start = try offset(of: object, keyPath: keyPath)
            throw ImportError(
                .syntax, at: SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath),
                "damaged binary property list: a dict key is not a string")
        }
        return key
    }

    /// A scalar object, decoded by ``BinaryPropertyList``.
    private func decode(_ object: Int, keyPath: String?) throws -> RecordValue {
        let start = try offset(of: object, keyPath: keyPath)
        let marker = plist.bytes[start] >> 4
        // Containers are walked here; decoding them would build them whole.
        guard marker != 0xA, marker != 0xC, marker != 0xD else {
            throw ImportError(
                .syntax, at: SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath),
                "damaged binary property list: a container where a scalar belongs")
        }
        let place = SourcePosition(file: file, byteOffset: Int64(start), keyPath: keyPath)
        return try guarded(place) { try plist.object(at: object, depth: 0) }
    }

    /// The file offset of `object`.
    private func offset(of object: Int, keyPath: String?) throws -> Int {
        try guarded(SourcePosition(file: file, keyPath: keyPath)) {
            try plist.offset(ofObject: object)
        }
    }

    /// Marks `object` as being decoded, or throws on a reference cycle.
    private func enter(_ object: Int, _ place: SourcePosition) throws {
        guard path.insert(object).inserted else {
            throw ImportError(
                .syntax, at: place,
                "damaged binary property list: a container holds itself")
        }
    }

    /// `<dict>`, `<string>`…: the type of `object` as the XML form names it.
    private func describe(_ object: Int) throws -> String {
        let start = try offset(of: object, keyPath: nil)
        let marker = plist.bytes[start]
        switch marker >> 4 {
        case 0x0: return marker == 0x08 || marker == 0x09 ? "<\(marker == 0x09)/>" : "a null"
        case 0x1: return "<integer>"
        case 0x2: return "<real>"
        case 0x3: return "<date>"
        case 0x4: return "<data>"
        case 0x5, 0x6: return "<string>"
        case 0x8: return "a keyed-archiver UID"
        case 0xA: return "<array>"
        case 0xC: return "a set"
        case 0xD: return "<dict>"
        default: return "an unknown object"
        }
    }

    // MARK: - Errors

    /// Runs `body`, turning the binary reader's errors into located ones.
    private func guarded<Result>(
        _ place: SourcePosition, _ body: () throws -> Result
    ) throws -> Result {
        do {
            return try body()
        } catch let error as PropertyListError {
            var place = place
            if let offset = error.byteOffset { place.byteOffset = Int64(offset) }
            throw ImportError(.syntax, at: place, "damaged binary property list: \(error.message)")
        }
    }

    /// Adds `bytes` of a string or data to the record's size.
    ///
    /// - Throws: ``ImportError`` (`tooLarge`) past
    ///   ``ImportLimits/maximumRecordBytes``.
    private func count(bytes: Int, _ place: SourcePosition) throws {
        bytesOfRecord += bytes
        guard bytesOfRecord > limits.maximumRecordBytes else { return }
        throw ImportError(
            .tooLarge, at: place,
            "the record is larger than \(limits.maximumRecordBytes) bytes (an object that "
                + "several references share counts once for each)")
    }

    private func tooDeep(_ place: SourcePosition) -> ImportError {
        ImportError(
            .tooLarge, at: place,
            "arrays and dicts nested deeper than \(limits.maximumDepth) levels"
        )
    }

    private func tooLong(_ element: String, _ place: SourcePosition) -> ImportError {
        ImportError(
            .tooLarge, at: place, "<\(element)> longer than \(limits.maximumFieldBytes) bytes")
    }

    private func duplicateKey(_ key: String, at place: SourcePosition) -> ImportError {
        ImportError(
            .structure, at: place,
            "key \(key) occurs twice in one dict (the first value is not overwritten)")
    }
}
