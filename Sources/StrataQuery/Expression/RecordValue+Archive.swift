import Foundation
import StrataCore
import StrataStore

// MARK: - Keyed archives (transformable attributes)

extension RecordValue {
    /// The classes `unarchive` reads, for messages.
    static let readableClasses =
        "arrays, sets, dictionaries with string keys, strings, numbers, dates, data, URLs, UUIDs"

    /// The root object of an `NSKeyedArchiver` archive, as Core Data's
    /// transformable attributes hold it: read with ``KeyedArchive`` (never
    /// `NSKeyedUnarchiver`), within ``maximumDepth`` and
    /// ``maximumElements``.
    ///
    /// - Throws: ``ExpressionError`` for bytes that are not a keyed archive,
    ///   and naming the class and its object number for classes it cannot
    ///   read.
    package init(archive data: Data) throws(ExpressionError) {
        do {
            let archive = try KeyedArchive(data: data)
            guard let root = try archive.topObject() else {
                self = .null
                return
            }
            var budget = Self.maximumElements
            self = try Self.from(.object(root), depth: 0, budget: &budget)
        } catch let error as ExpressionError {
            throw error
        } catch {
            throw ExpressionError(column: 1, message: "unarchive: not a keyed archive: \(error)")
        }
    }

    private static func from(
        _ value: ArchivedValue, depth: Int, budget: inout Int
    ) throws -> RecordValue {
        try spend(&budget, depth: depth, reading: "unarchive: the archive")
        switch value {
        case .plain(let plain):
            switch plain {
            case .null: return .null
            case .boolean(let flag): return .boolean(flag)
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .date(let date): return .date(date)
            case .data(let bytes): return .data(bytes)
            case .text(let text): return .text(text)
            default:
                throw ExpressionError(
                    column: 1, message: "unarchive: an unexpected \(value.kind) in the archive")
            }
        case .object(let object):
            return try from(object, depth: depth, budget: &budget)
        }
    }

    private static func from(
        _ object: ArchivedObject, depth: Int, budget: inout Int
    ) throws -> RecordValue {
        if object.isKind(of: "NSNull") { return .null }
        if object.isKind(of: "NSString") {
            return .text(try ArchivedValue.object(object).stringValue())
        }
        if object.isKind(of: "NSData") {
            return .data(try ArchivedValue.object(object).dataValue())
        }
        if object.isKind(of: "NSDate"), case .plain(let time)? = try object.value("NS.time") {
            switch time {
            case .real(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
            case .integer(let seconds):
                return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
            default: break
            }
        }
        if object.isKind(of: "NSURL") {
            let relative = try object.string("NS.relative") ?? ""
            if let base = try object.object("NS.base"), base.isKind(of: "NSURL"),
                let baseText = try base.string("NS.relative"),
                let url = URL(string: relative, relativeTo: URL(string: baseText))
            {
                return .text(url.absoluteString)
            }
            return .text(relative)
        }
        if object.isKind(of: "NSUUID"), let bytes = try object.data("NS.uuidbytes"),
            bytes.count == 16
        {
            let uuid = bytes.withUnsafeBytes { raw in
                UUID(uuid: raw.loadUnaligned(as: uuid_t.self))
            }
            return .text(uuid.uuidString)
        }
        if object.isKind(of: "NSArray") || object.isKind(of: "NSSet")
            || object.isKind(of: "NSOrderedSet")
        {
            var items: [RecordValue] = []
            for element in try object.elements() {
                items.append(try from(element, depth: depth + 1, budget: &budget))
            }
            return .array(values: items)
        }
        if object.isKind(of: "NSDictionary") {
            var fields: [RecordField] = []
            for (key, value) in try object.entries() {
                guard case .text(let name) = try from(key, depth: depth + 1, budget: &budget)
                else {
                    throw ExpressionError(
                        column: 1,
                        message: "unarchive: a dictionary key (object \(object.index)) is not a "
                            + "string")
                }
                fields.append(
                    RecordField(
                        key: name, value: try from(value, depth: depth + 1, budget: &budget)))
            }
            return .dictionary(fields)
        }
        throw ExpressionError(
            column: 1,
            message: "unarchive: the archive holds an object of class \(object.className) "
                + "(object \(object.index)), which unarchive cannot read; it reads "
                + readableClasses)
    }

    /// The value as an `NSKeyedArchiver` archive, as Core Data stores a
    /// transformable attribute (arrays as `NSArray`, dictionaries as
    /// `NSDictionary`, …).
    func archiveData() throws(ExpressionError) -> Data {
        do {
            return try NSKeyedArchiver.archivedData(
                withRootObject: foundationObject, requiringSecureCoding: false)
        } catch {
            throw ExpressionError(column: 1, message: "archive: cannot archive the value: \(error)")
        }
    }

    private var foundationObject: NSObject {
        switch self {
        case .null: NSNull()
        case .boolean(let flag): NSNumber(value: flag)
        case .integer(let number): NSNumber(value: number)
        case .unsignedInteger(let number), .uid(let number): NSNumber(value: number)
        case .real(let number): NSNumber(value: number)
        case .text(let text): NSString(string: text)
        case .date(let date): date as NSDate
        case .data(let bytes): NSData(data: bytes)
        case .array(let items): NSArray(array: items.map(\.value.foundationObject))
        case .set(let items): NSSet(array: items.map(\.value.foundationObject))
        case .dictionary(let fields):
            // Keys are unique here: unarchive and jsonValue keep one value per key.
            NSDictionary(
                objects: fields.map(\.value.foundationObject),
                forKeys: fields.map { NSString(string: $0.key) })
        }
    }
}
