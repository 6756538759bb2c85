/// The identity of a managed object: its entity and its primary key.
///
/// Objects inserted and not yet saved have a temporary id (a negative key);
/// saving gives them a permanent one, whose URI is the object id Core Data
/// writes: `x-coredata://<store UUID>/<Entity>/p<pk>` (coredata-format.md §1.7).
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The concrete entity's name.
    public let entityName: String
    /// `Z_PK` for a saved object; a negative number for a temporary id.
    package let key: Int64

    /// Hashes the key alone: keys are unique within a table and hashing the
    /// entity name on every lookup would cost more than the rare collision
    /// between tables. Equality still compares both.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    package init(entityName: String, key: Int64) {
        self.entityName = entityName
        self.key = key
    }

    /// Whether the id belongs to an object that has not been saved yet.
    public var isTemporary: Bool { key < 0 }

    /// The primary key (`Z_PK`) of a saved object; nil while temporary.
    public var primaryKey: Int64? { key < 0 ? nil : key }

    /// The object id URI for a store with `storeUUID`: Core Data's
    /// `x-coredata://<UUID>/<Entity>/p<pk>`, or `x-coredata:///<Entity>/t<n>`
    /// while temporary.
    public func uri(storeUUID: String) -> String {
        key < 0
            ? "x-coredata:///\(entityName)/t\(-key)"
            : "x-coredata://\(storeUUID)/\(entityName)/p\(key)"
    }

    /// `Entity/p12`, or `Entity/t3` while temporary.
    public var description: String {
        key < 0 ? "\(entityName)/t\(-key)" : "\(entityName)/p\(key)"
    }

    /// Parses `Entity/p12`, the form ``description`` and `strata export`
    /// write (a permanent id: a key from 1).
    ///
    /// - Returns: nil when `text` is not such an id.
    public init?(description text: String) {
        guard let slash = text.lastIndex(of: "/") else { return nil }
        let entity = text[..<slash]
        let keyPart = text[text.index(after: slash)...]
        guard !entity.isEmpty, !entity.contains("/"), !entity.contains(" "), keyPart.first == "p",
            keyPart.dropFirst().allSatisfy(\.isASCII), let key = Int64(keyPart.dropFirst()), key > 0
        else { return nil }
        self.init(entityName: String(entity), key: key)
    }

    /// Parses a permanent object id URI of the store with `storeUUID`.
    ///
    /// - Returns: nil when `uri` is not such a URI (another store, a
    ///   temporary id, or not an object id at all).
    public init?(uri: String, storeUUID: String) {
        let prefix = "x-coredata://\(storeUUID)/"
        guard uri.hasPrefix(prefix) else { return nil }
        let rest = uri.dropFirst(prefix.count)
        guard let slash = rest.lastIndex(of: "/") else { return nil }
        let entity = rest[..<slash]
        let keyPart = rest[rest.index(after: slash)...]
        guard !entity.isEmpty, keyPart.first == "p", let key = Int64(keyPart.dropFirst()), key > 0
        else { return nil }
        self.init(entityName: String(entity), key: key)
    }
}
