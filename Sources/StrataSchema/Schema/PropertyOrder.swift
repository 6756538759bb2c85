/// The order a schema file lists an entity's properties in.
///
/// ``Entity`` keeps its properties sorted by name, the order Core Data
/// hashes and names columns in; people read files in the order they wrote
/// them, so exports follow this one. It is outside the entity's identity:
/// two orders are always equal and hash alike, so entities that differ
/// only in the order their files list properties are the same entity, as
/// Core Data's hashes say.
///
/// ```swift
/// let order = PropertyOrder(["name", "email", "age"])
/// let arranged = order.arranged(entity.attributes, name: \.name)
/// ```
public struct PropertyOrder: Hashable, Sendable {
    /// Property names (attributes and relationships) in the file's order.
    public var names: [String]

    /// An order of `names`; empty keeps the sorted order.
    public init(_ names: [String] = []) {
        self.names = names
    }

    /// Always true: the order is not part of an entity's identity.
    public static func == (_: PropertyOrder, _: PropertyOrder) -> Bool { true }

    /// Hashes nothing, as ``==(_:_:)`` compares nothing.
    public func hash(into hasher: inout Hasher) {}

    /// `items` in this order: the ones it names first, as listed, then the
    /// others in their own order.
    ///
    /// - Parameters:
    ///   - items: Properties (or anything named).
    ///   - name: The name of an item.
    /// - Returns: The same items, rearranged.
    public func arranged<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        guard !names.isEmpty else { return items }
        var place: [String: Int] = [:]
        for (index, listed) in names.enumerated() where place[listed] == nil {
            place[listed] = index
        }
        return items.enumerated().sorted { lhs, rhs in
            let left = place[name(lhs.element)] ?? names.count + lhs.offset
            let right = place[name(rhs.element)] ?? names.count + rhs.offset
            return left < right
        }.map(\.element)
    }
}
