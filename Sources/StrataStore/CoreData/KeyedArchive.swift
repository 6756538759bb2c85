import Foundation
import StrataCore

/// An `NSKeyedArchiver` archive, read without `NSKeyedUnarchiver`.
///
/// An archive is a binary property list holding `$archiver`
/// (`NSKeyedArchiver`), `$top` (named entry points as UIDs) and `$objects`,
/// a flat table whose entry 0 is the string `$null`. Objects are
/// dictionaries whose `$class` UID points at `{ $classname, $classes }`;
/// their other keys hold plain values or UIDs of further entries.
///
/// On Linux `NSKeyedUnarchiver` aborts the process on a missing key, so
/// untrusted archives must not reach it. This type resolves the graph one
/// UID at a time instead: every accessor follows a fixed, small number of
/// links, so reference cycles in the archive cannot make it loop.
///
/// ```swift
/// let archive = try KeyedArchive(data: bytes)
/// let root = try archive.topObject()
/// let name = try root?.string("NSEntityName")
/// ```
public struct KeyedArchive {
    /// `$objects`, in file order.
    let objects: [RecordValue]
    /// `$top`: the entry points, by name.
    let top: [String: RecordValue]

    /// Reads the archive's property list and checks its outline.
    ///
    /// - Parameter data: A binary property list written by `NSKeyedArchiver`.
    /// - Throws: ``PropertyListError`` when the bytes are not a binary
    ///   property list, ``KeyedArchiveError`` when it is not a keyed archive.
    public init(data: Data) throws {
        let plist = try BinaryPropertyList.decode(data)
        guard plist["$archiver"]?.textValue == "NSKeyedArchiver" else {
            throw KeyedArchiveError("$archiver is not NSKeyedArchiver")
        }
        guard let top = plist["$top"]?.entries else {
            throw KeyedArchiveError("missing $top dictionary")
        }
        guard let objects = plist["$objects"]?.elements, objects.first == .text("$null")
        else {
            throw KeyedArchiveError("$objects must be an array starting with $null")
        }
        self.objects = objects
        self.top = top
    }

    /// The object stored under `key` in `$top` (`root` for an archive made
    /// with `archivedData(withRootObject:)`).
    ///
    /// - Returns: The object, or nil when `$top` has no such key or it
    ///   holds `$null`.
    /// - Throws: ``KeyedArchiveError`` when the entry is not an object.
    public func topObject(_ key: String = "root") throws -> ArchivedObject? {
        guard let entry = top[key] else { return nil }
        return try resolve(entry, context: "$top.\(key)")?.object()
    }

    /// Follows one UID: `$null` becomes nil, a dictionary with `$class` an
    /// ``ArchivedObject``, anything else a plain value. Values that are not
    /// UIDs are plain values already.
    package func resolve(_ value: RecordValue, context: @autoclosure () -> String) throws
        -> ArchivedValue?
    {
        guard case .uid(let uid) = value else { return .plain(value) }
        guard uid < UInt64(objects.count) else {
            throw KeyedArchiveError("\(context()): UID \(uid) outside $objects")
        }
        let index = Int(uid)
        if index == 0 { return nil }
        let entry = objects[index]
        guard case .dictionary(let fields) = entry else { return .plain(entry) }
        return .object(try ArchivedObject(archive: self, index: index, fields: fields))
    }

    /// The class names of the class entry at `value` (a UID): `$classname`
    /// first, then the rest of `$classes`.
    func classNames(at value: RecordValue?, of index: Int) throws -> [String] {
        guard let uid = value?.uidValue, uid > 0, uid < UInt64(objects.count),
            let name = objects[Int(uid)]["$classname"]?.textValue
        else {
            throw KeyedArchiveError("object has no valid $class", objectIndex: index)
        }
        let chain = objects[Int(uid)]["$classes"]?.elements?.compactMap(\.textValue) ?? []
        return [name] + chain.filter { $0 != name }
    }
}
