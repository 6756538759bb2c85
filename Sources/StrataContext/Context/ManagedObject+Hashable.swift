// MARK: - Identity

extension ManagedObject: Hashable {
    /// Whether `lhs` and `rhs` are the same object (as `NSManagedObject`'s
    /// equality is identity): a context holds one object per id.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
