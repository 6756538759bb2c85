import Foundation
import StrataCore

// MARK: - Objects

// Each object starts with a marker byte: the high nibble is the type, the low
// nibble a size or a subtype. Sizes of 15 and more are written as nibble 0xF
// followed by an integer object holding the size.

extension BinaryPropertyList {
    /// Decodes object `index`, reusing an earlier result for shared objects.
    ///
    /// - Parameters:
    ///   - index: The object's index in the offset table.
    ///   - depth: How many containers enclose it.
    package mutating func object(at index: Int, depth: Int) throws -> RecordValue {
        if let done = decoded[index] { return done }
        guard depth <= maximumDepth else {
            throw PropertyListError(
                "containers nested deeper than \(maximumDepth)", objectIndex: index)
        }
        guard !path.contains(index) else {
            throw PropertyListError("reference cycle through object \(index)", objectIndex: index)
        }
        let start = try offset(ofObject: index)
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        let result: RecordValue
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00, 0x0F: result = .null
            case 0x08: result = .boolean(false)
            case 0x09: result = .boolean(true)
            default: throw unknownMarker(marker, at: start, index)
            }
        case 0x1:
            result = .integer(try integer(at: start, index))
        case 0x2:
            result = .real(try real(sizeExponent: low, at: start + 1, index))
        case 0x3:
            guard marker == 0x33 else { throw unknownMarker(marker, at: start, index) }
            let seconds = try real(sizeExponent: 3, at: start + 1, index)
            result = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, body) = try length(low, at: start, index)
            result = .data(Data(try slice(body, count: count, object: index)))
        case 0x5:
            let (count, body) = try length(low, at: start, index)
            // ASCII by definition; a stray high byte is read as Latin-1
            // rather than rejected. ASCII is valid UTF-8, the fast path.
            let raw = try slice(body, count: count, object: index)
            if raw.allSatisfy({ $0 < 0x80 }) {
                result = .text(String(decoding: raw, as: UTF8.self))
            } else {
                result = .text(String(String.UnicodeScalarView(raw.map(Unicode.Scalar.init))))
            }
        case 0x6:
            let (units, body) = try length(low, at: start, index)
            guard units <= Int.max / 2 else {
                throw PropertyListError("string too long", byteOffset: start, objectIndex: index)
            }
            let raw = try slice(body, count: units * 2, object: index)
            let utf16 = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
                UInt16(ByteFields.bigEndian(raw[$0..<($0 + 2)]))
            }
            result = .text(try Self.string(utf16: utf16, at: body, index))
        case 0x8:
            // A UID of low + 1 bytes; only 64-bit ones are representable.
            guard low < 8 else {
                throw PropertyListError(
                    "UID of \(low + 1) bytes", byteOffset: start, objectIndex: index)
            }
            result = .uid(ByteFields.bigEndian(try slice(start + 1, count: low + 1, object: index)))
        case 0xA, 0xC, 0xD:
            result = try container(marker, at: start, index, depth: depth)
        default:
            throw unknownMarker(marker, at: start, index)
        }
        decoded[index] = result
        return result
    }

    /// The text of the UTF-16 `units` of a string whose first unit is at
    /// `body`; a lone surrogate is refused at its byte rather than replaced
    /// by U+FFFD, so that no value changes on the way.
    package static func string(utf16 units: [UInt16], at body: Int, _ index: Int) throws -> String {
        var scalars = String.UnicodeScalarView()
        var decoder = UTF16()
        var iterator = units.makeIterator()
        var unit = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                scalars.append(scalar)
                unit += scalar.value > 0xFFFF ? 2 : 1
            case .emptyInput:
                return String(scalars)
            case .error:
                let value =
                    unit < units.count ? String(units[unit], radix: 16, uppercase: true) : "?"
                throw PropertyListError(
                    "a lone UTF-16 surrogate (0x\(value)) in a string",
                    byteOffset: body + unit * 2, objectIndex: index)
            }
        }
    }

    /// Decodes an array (0xA), set (0xC) or dictionary (0xD) and its elements.
    private mutating func container(
        _ marker: UInt8, at start: Int, _ index: Int, depth: Int
    ) throws -> RecordValue {
        let (count, body) = try length(Int(marker & 0x0F), at: start, index)
        let isDictionary = marker >> 4 == 0xD
        // Check the whole reference list fits before allocating for it.
        let (perEntry, _) = referenceSize.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
        let (total, overflow) = count.multipliedReportingOverflow(by: perEntry)
        guard !overflow else {
            throw PropertyListError(
                "container of \(count) entries", byteOffset: start, objectIndex: index)
        }
        let references = try slice(body, count: total, object: index)
        var refs: [Int] = []
        refs.reserveCapacity(count * (isDictionary ? 2 : 1))
        var position = references.startIndex
        while position < references.endIndex {
            let value = ByteFields.bigEndian(references[position..<(position + referenceSize)])
            // Out-of-range refs are reported by offset(ofObject:) below;
            // clamping keeps the conversion from trapping.
            refs.append(Int(clamping: value))
            position += referenceSize
        }
        path.insert(index)
        defer { path.remove(index) }
        var elements: [RecordValue] = []
        elements.reserveCapacity(refs.count)
        for ref in refs {
            elements.append(try object(at: ref, depth: depth + 1))
        }
        switch marker >> 4 {
        case 0xA: return .array(values: elements)
        case 0xC: return .set(values: elements)
        default:
            var fields: [RecordField] = []
            fields.reserveCapacity(count)
            var keys = Set<String>(minimumCapacity: count)
            for (key, value) in zip(elements[..<count], elements[count...]) {
                guard case .text(let name) = key else {
                    throw PropertyListError(
                        "dictionary key is not a string", byteOffset: start, objectIndex: index)
                }
                guard keys.insert(name).inserted else {
                    throw PropertyListError(
                        "duplicate dictionary key", byteOffset: start, objectIndex: index)
                }
                fields.append(RecordField(key: name, value: value))
            }
            return .dictionary(fields)
        }
    }

    // MARK: - Scalars

    /// The integer object whose marker is at `start`.
    private func integer(at start: Int, _ index: Int) throws -> Int64 {
        let exponent = Int(bytes[start] & 0x0F)
        guard bytes[start] >> 4 == 0x1, exponent <= 4 else {
            throw PropertyListError(
                "expected an integer of 1…16 bytes", byteOffset: start, objectIndex: index)
        }
        let raw = try slice(start + 1, count: 1 << exponent, object: index)
        switch exponent {
        case 0, 1, 2:
            return Int64(ByteFields.bigEndian(raw))
        case 3:
            return Int64(bitPattern: ByteFields.bigEndian(raw))
        default:
            // 128-bit two's complement: accept it when the high half is only
            // the sign extension of the low half.
            let high = ByteFields.bigEndian(raw.prefix(8))
            let low = Int64(bitPattern: ByteFields.bigEndian(raw.suffix(8)))
            guard (high == 0 && low >= 0) || (high == .max && low < 0) else {
                throw PropertyListError(
                    "integer does not fit 64 bits", byteOffset: start, objectIndex: index)
            }
            return low
        }
    }

    /// A 4- or 8-byte big-endian float at `start`.
    private func real(sizeExponent: Int, at start: Int, _ index: Int) throws -> Double {
        switch sizeExponent {
        case 2:
            let raw = try slice(start, count: 4, object: index)
            return Double(Float(bitPattern: UInt32(ByteFields.bigEndian(raw))))
        case 3:
            return Double(
                bitPattern: ByteFields.bigEndian(try slice(start, count: 8, object: index)))
        default:
            throw PropertyListError(
                "real of \(1 << min(sizeExponent, 15)) bytes", byteOffset: start,
                objectIndex: index)
        }
    }

    /// The length in a marker's low nibble (or in the integer after it when
    /// the nibble is 0xF), and where the object's body starts.
    package func length(_ nibble: Int, at start: Int, _ index: Int) throws -> (Int, Int) {
        guard nibble == 0x0F else { return (nibble, start + 1) }
        guard start + 1 < offsetTableStart else {
            throw PropertyListError(
                "length runs past the object area", byteOffset: start, objectIndex: index)
        }
        let value = try integer(at: start + 1, index)
        guard value >= 0, value <= Int64(bytes.count) else {
            throw PropertyListError(
                "implausible length \(value)", byteOffset: start + 1, objectIndex: index)
        }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        return (Int(value), start + 2 + size)
    }

    /// The error for a marker byte this format does not define.
    private func unknownMarker(_ marker: UInt8, at start: Int, _ index: Int) -> PropertyListError {
        let hex = String(marker, radix: 16, uppercase: true)
        return PropertyListError("unknown marker 0x\(hex)", byteOffset: start, objectIndex: index)
    }
}
