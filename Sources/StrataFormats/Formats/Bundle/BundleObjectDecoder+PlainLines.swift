import StrataCore
import StrataSchema

#if canImport(Glibc)
    import Glibc
#endif

/// The fast path of reading a line: straight from its bytes into the batch
/// with a ``BundleLineScanner``, for lines written the way Strata writes
/// them (one flat object: `_id`, attribute values, ids and lists of ids).
///
/// Anything else — an escaped name, a UUID, base64, a subentity's id, a
/// value of the wrong type, bad JSON — makes it decline, leaving the batch
/// as it was, and the line is read again by the general reader
/// (``BundleObjectDecoder``'s `add`), which accepts the same lines and names
/// what is wrong with the others. Both paths give the same objects: the
/// tests read every line both ways.
extension BundleObjectDecoder {
    /// The names a line's members are matched against, on their bytes; made
    /// once per file.
    struct PlainLayout {
        /// What a member's name means.
        enum Meaning {
            case id
            case attribute(Int)
            case toOne(Int)
            case toMany(Int)
        }

        /// The entity's name, as ids spell it.
        var entity: [UInt8] = []
        var names: [(name: [UInt8], meaning: Meaning)] = []
        /// Each to-one's destination (as ids spell it) and its store
        /// number, when ids of other entities are left to the general reader.
        var toOneDestinations: [(name: [UInt8], number: Int)?] = []
        var toManyDestinations: [(name: [UInt8], number: Int)?] = []

        init() {}

        init(_ columns: EntityColumns, number: (Relationship) -> Int?) {
            entity = Array(columns.entity.utf8)
            names.append((Array("_id".utf8), .id))
            for (slot, rule) in columns.attributes.enumerated() {
                names.append((Array(rule.name.utf8), .attribute(slot)))
            }
            for (slot, relationship) in columns.toOneRelationships.enumerated() {
                names.append((Array(relationship.name.utf8), .toOne(slot)))
            }
            for (slot, relationship) in columns.toManyRelationships.enumerated() {
                names.append((Array(relationship.name.utf8), .toMany(slot)))
            }
            func destination(_ relationship: Relationship) -> (name: [UInt8], number: Int)? {
                number(relationship).map { (Array(relationship.destination.utf8), $0) }
            }
            toOneDestinations = columns.toOneRelationships.map(destination)
            toManyDestinations = columns.toManyRelationships.map(destination)
        }

        /// The meaning of the member named `name`.
        func meaning(of name: UnsafeBufferPointer<UInt8>) -> Meaning? {
            guard let bytes = name.baseAddress else { return nil }
            for entry in names where entry.name.count == name.count {
                let equal = entry.name.withUnsafeBufferPointer {
                    $0.baseAddress.map { memcmp($0, bytes, name.count) == 0 } ?? false
                }
                if equal { return entry.meaning }
            }
            return nil
        }
    }

    /// A link read from the line being read, added to the batch (and the
    /// join summaries) only once the whole line is read.
    struct StagedLink {
        let slot: Int
        let member: Int64
        let position: Int
    }

    /// Adds the object of `line` to `batch` when the line is written plainly.
    ///
    /// - Returns: Whether it did; when not, `batch` is as it was.
    /// - Throws: ``ArchiveError`` from reading a medium (a damaged entry).
    func addPlain(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, to batch: inout BundleObjectBatch
    ) throws -> Bool {
        let values = batch.values.count
        let toOnes = batch.toOneKeys.count
        let bytes = batch.bytes.count
        let media = batch.media.count
        if try readPlain(line, to: &batch) {
            batch.lines.append(number)
            return true
        }
        batch.values.removeSubrange(values...)
        batch.toOneKeys.removeSubrange(toOnes...)
        batch.toOneEntities.removeSubrange(toOnes...)
        batch.bytes.removeSubrange(bytes...)
        batch.media.removeSubrange(media...)
        return false
    }

    private func readPlain(_ line: UnsafeBufferPointer<UInt8>, to batch: inout BundleObjectBatch)
        throws -> Bool
    {
        let columns = batch.columns
        let layout = plainLayout
        var scanner = BundleLineScanner(line)
        guard scanner.consume(UInt8(ascii: "{")) else { return false }
        let object = batch.count
        let firstValue = batch.values.count
        batch.values.append(
            contentsOf: repeatElement(.null, count: columns.attributes.count))
        let firstToOne = batch.toOneKeys.count
        batch.toOneKeys.append(
            contentsOf: repeatElement(0, count: columns.toOneRelationships.count))
        batch.toOneEntities.append(
            contentsOf: repeatElement(0, count: columns.toOneRelationships.count))
        // Worked on as locals (a stored property of a class is checked for
        // exclusive access at every use), and put back for the next line.
        var seen = self.seen
        var staged = self.staged
        self.seen = []
        self.staged = []
        defer {
            self.seen = seen
            self.staged = staged
        }
        seen.removeAll(keepingCapacity: true)
        seen.append(contentsOf: repeatElement(false, count: layout.names.count))
        staged.removeAll(keepingCapacity: true)
        var key: Int64 = 0
        repeat {
            guard let name = scanner.plainString(), scanner.consume(UInt8(ascii: ":")),
                let meaning = layout.meaning(of: name)
            else { return false }
            switch meaning {
            case .id:
                guard !seen[0], let id = scanner.plainString(),
                    let (entity, parsed) = Self.parseID(bytes: id),
                    entity.elementsEqual(layout.entity)
                else { return false }
                seen[0] = true
                key = parsed
            case .attribute(let slot):
                guard !seen[1 + slot],
                    try readValue(
                        &scanner, rule: columns.attributes[slot], object: object, slot: slot,
                        at: firstValue + slot, to: &batch)
                else { return false }
                seen[1 + slot] = true
            case .toOne(let slot):
                let seenIndex = 1 + columns.attributes.count + slot
                guard !seen[seenIndex] else { return false }
                seen[seenIndex] = true
                if scanner.consumeNull() { continue }
                guard let id = scanner.plainString(),
                    let (entity, parsed) = Self.parseID(bytes: id),
                    let destination = layout.toOneDestinations[slot],
                    entity.elementsEqual(destination.name)
                else { return false }
                batch.toOneKeys[firstToOne + slot] = parsed
                batch.toOneEntities[firstToOne + slot] = destination.number
            case .toMany(let slot):
                let seenIndex =
                    1 + columns.attributes.count + columns.toOneRelationships.count + slot
                guard !seen[seenIndex] else { return false }
                seen[seenIndex] = true
                if scanner.consumeNull() { continue }
                guard let destination = layout.toManyDestinations[slot],
                    scanner.consume(UInt8(ascii: "["))
                else { return false }
                if scanner.consume(UInt8(ascii: "]")) { continue }
                var position = 0
                repeat {
                    guard let id = scanner.plainString(),
                        let (entity, member) = Self.parseID(bytes: id),
                        entity.elementsEqual(destination.name)
                    else { return false }
                    staged.append(StagedLink(slot: slot, member: member, position: position))
                    position += 1
                } while scanner.consume(UInt8(ascii: ","))
                guard scanner.consume(UInt8(ascii: "]")) else { return false }
            }
        } while scanner.consume(UInt8(ascii: ","))
        guard scanner.consume(UInt8(ascii: "}")) else { return false }
        scanner.skipWhitespace()
        guard scanner.isAtEnd, seen[0] else { return false }
        for (slot, rule) in columns.attributes.enumerated()
        where !rule.isOptional && !seen[1 + slot] {
            return false
        }
        // The whole line is read: now its key and links count.
        batch.keys.append(key)
        for link in staged {
            addLink(
                owner: key, member: link.member, role: roles[link.slot], object: object,
                slot: link.slot, position: link.position, to: &batch)
        }
        return true
    }

    /// Reads the value of attribute `slot` into value `index` of `batch`.
    private func readValue(
        _ scanner: inout BundleLineScanner, rule: EntityColumns.AttributeSlot, object: Int,
        slot: Int, at index: Int, to batch: inout BundleObjectBatch
    ) throws -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "\""):
            let start = batch.bytes.count
            guard scanner.string(into: &batch.bytes) else { return false }
            let count = batch.bytes.count - start
            switch rule.type {
            case .string, .uri:
                batch.values[index] = BundleObjectBatch.Value(
                    kind: .text, payload: Int64(start), count: count)
                return true
            case .date:
                let seconds = batch.bytes.withUnsafeBufferPointer {
                    ISO8601Date.seconds(utf8: UnsafeBufferPointer(rebasing: $0[start...]))
                }
                batch.bytes.removeSubrange(start...)
                guard let seconds else { return false }
                batch.values[index] = .real(seconds)
                return true
            case .binary, .transformable:
                let file = String(decoding: batch.bytes[start...], as: UTF8.self)
                batch.bytes.removeSubrange(start...)
                // Base64 is left to the general reader.
                guard rule.takesMediaFile, file.hasPrefix("media/") else { return false }
                do {
                    batch.media.append(
                        try medium(file, rule: rule, object: object, slot: slot, to: &batch))
                } catch is LineError {
                    return false  // Named by the general reader.
                }
                return true
            default:
                return false
            }
        default:
            // A literal or a number: converted as the general reader converts it.
            guard let scalar = scanner.scalar(),
                case .success(let value) = Self.storedValue(scalar, for: rule)
            else { return false }
            batch.set(value, at: index)
            return true
        }
    }

    /// `Entity/p<pk>` → (the entity's name in `bytes`, pk), pk positive.
    static func parseID(bytes: UnsafeBufferPointer<UInt8>) -> (UnsafeBufferPointer<UInt8>, Int64)? {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0,
            slash + 2 < bytes.count, bytes[slash + 1] == UInt8(ascii: "p"),
            bytes.count - slash - 2 <= 19
        else { return nil }
        var key: Int64 = 0
        for byte in bytes[(slash + 2)...] {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowed) = key.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times.addingReportingOverflow(Int64(digit))
            guard !overflowed, !overflowedAgain else { return nil }
            key = sum
        }
        guard key > 0 else { return nil }
        return (UnsafeBufferPointer(rebasing: bytes[..<slash]), key)
    }
}
