import Foundation
import StrataCore

/// An object in a keyed archive: an entry of `$objects` with a class.
///
/// Accessors read one key and follow at most one UID (two for the
/// collections, whose elements are UIDs), so walking a cyclic archive is up
/// to the caller, who follows links explicitly. A missing key, or one that
/// holds `$null`, gives nil; a key holding the wrong kind of value throws.
///
/// ```swift
/// let name = try entity.string("NSEntityName")
/// let properties = try entity.dictionary("NSProperties") ?? []
/// ```
public struct ArchivedObject {
    /// The archive the object belongs to.
    let archive: KeyedArchive
    /// The object's index in `$objects`.
    public let index: Int
    /// The object's keys, `$class` included, in file order. An object has a
    /// handful, so a key is looked up by a scan, with no dictionary built
    /// per object.
    let fields: [RecordField]
    /// `$classname`, then its superclasses from `$classes`.
    public let classNames: [String]

    /// Wraps entry `index`, resolving its class.
    init(archive: KeyedArchive, index: Int, fields: [RecordField]) throws {
        self.archive = archive
        self.index = index
        self.fields = fields
        self.classNames = try archive.classNames(
            at: fields.first { $0.key == "$class" }?.value, of: index)
    }

    /// The raw value of `key` (a UID, most often).
    private func field(_ key: String) -> RecordValue? {
        fields.first { $0.key == key }?.value
    }

    /// The object's class name (`$classname`), such as `NSEntityDescription`.
    public var className: String {
        classNames.first ?? ""
    }

    /// Whether the object's class is `name` or a subclass of it.
    public func isKind(of name: String) -> Bool {
        classNames.contains(name)
    }

    /// Whether the object has `key` (even if it holds `$null`).
    public func contains(_ key: String) -> Bool {
        field(key) != nil
    }

    // MARK: - Values

    /// The value of `key`, its UID followed.
    ///
    /// - Returns: nil when the key is absent or holds `$null`.
    /// - Throws: ``KeyedArchiveError`` for a UID outside `$objects` or a
    ///   target without a valid class.
    public func value(_ key: String) throws -> ArchivedValue? {
        guard let raw = field(key) else { return nil }
        return try archive.resolve(raw, context: "\(className).\(key)")
    }

    /// The object at `key`.
    public func object(_ key: String) throws -> ArchivedObject? {
        try annotate(key) { try value(key)?.object() }
    }

    /// The string at `key` (plain, or an `NSString` object).
    public func string(_ key: String) throws -> String? {
        try annotate(key) { try value(key)?.stringValue() }
    }

    /// The bytes at `key` (plain, or an `NSData` object).
    public func data(_ key: String) throws -> Data? {
        try annotate(key) { try value(key)?.dataValue() }
    }

    /// The integer at `key` (a boolean counts as 0 or 1).
    public func integer(_ key: String) throws -> Int64? {
        try annotate(key) { try value(key)?.integerValue() }
    }

    /// The boolean at `key` (an integer counts as `!= 0`).
    public func bool(_ key: String) throws -> Bool? {
        try annotate(key) { try value(key)?.boolValue() }
    }

    // MARK: - Collections

    /// The elements of the array or set object at `key`, each UID followed;
    /// `$null` elements are left out.
    public func array(_ key: String) throws -> [ArchivedValue]? {
        try annotate(key) { try object(key)?.elements() }
    }

    /// The entries of the dictionary object at `key`; see ``entries()``.
    public func dictionary(_ key: String) throws -> [(key: ArchivedValue, value: ArchivedValue)]? {
        try annotate(key) { try object(key)?.entries() }
    }

    /// The elements of this array or set (`NS.objects`), each UID followed;
    /// `$null` elements are left out.
    public func elements() throws -> [ArchivedValue] {
        try rawElements("NS.objects").compactMap { $0 }
    }

    /// The entries of this dictionary, each UID followed, in file order.
    ///
    /// Reads `NS.keys`/`NS.objects` (`NSDictionary` and its mutable
    /// subclass) and Core Data's `NSKnownKeysDictionary1`, which keeps its
    /// values in `values` and its keys in `searchMapping.keys`. Entries whose
    /// key or value is `$null` are left out.
    public func entries() throws -> [(key: ArchivedValue, value: ArchivedValue)] {
        let keys: [ArchivedValue?]
        let values: [ArchivedValue?]
        if contains("NS.keys") {
            keys = try rawElements("NS.keys")
            values = try rawElements("NS.objects")
        } else if contains("searchMapping") {
            let keyArray = try object("searchMapping")?.object("keys")
            keys = try keyArray?.rawElements("NS.objects") ?? []
            values = try object("values")?.rawElements("NS.objects") ?? []
        } else {
            throw KeyedArchiveError(
                "\(className) has neither NS.keys nor searchMapping", objectIndex: index)
        }
        guard keys.count == values.count else {
            throw KeyedArchiveError(
                "\(keys.count) keys but \(values.count) values", objectIndex: index)
        }
        return zip(keys, values).compactMap { key, value in
            guard let key, let value else { return nil }
            return (key, value)
        }
    }

    /// The elements of the plain array at `key` of this object, UIDs
    /// followed, `$null` kept as nil so keys and values stay aligned.
    private func rawElements(_ key: String) throws -> [ArchivedValue?] {
        guard let raw = field(key) else { return [] }
        guard let list = raw.elements else {
            throw KeyedArchiveError("\(className).\(key) is not an array", objectIndex: index)
        }
        return try list.map { try archive.resolve($0, context: "\(className).\(key)") }
    }

    /// Runs `body`, adding the key and this object's index to an error
    /// that lacks them.
    private func annotate<T>(_ key: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as KeyedArchiveError {
            if error.objectIndex == nil {
                error.objectIndex = index
                error.message = "\(className).\(key): \(error.message)"
            }
            throw error
        }
    }
}
