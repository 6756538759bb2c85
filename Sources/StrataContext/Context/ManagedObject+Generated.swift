// MARK: - Accessors of generated classes

/// What generated properties call: the untyped accessors without `throws`.
/// A getter reads nil for a value the store holds in a form the type cannot
/// represent (rather than crash or throw); a setter's error — an object
/// whose context is gone, another context's object — waits in the context,
/// whose next ``Context/save()`` throws it. The generated types make the
/// other errors (unknown keys, wrong types) impossible. Apps use the
/// generated properties, not these.
extension ManagedObject {
    /// Attribute `key` as `T`; nil when unset or not representable.
    @inlinable
    public func typedValue<T: AttributeValueConvertible>(
        forKey key: String, as type: T.Type = T.self
    )
        -> T?
    {
        guard let value = try? value(forKey: key) else { return nil }
        return T(attributeValue: value)
    }

    /// Sets attribute `key` to `value` (nil removes it).
    @inlinable
    public func setTypedValue<T: AttributeValueConvertible>(_ value: T?, forKey key: String) {
        do {
            try setValue(value?.attributeValue, forKey: key)
        } catch {
            keepForSave(error)
        }
    }

    /// The destination of to-one relationship `key` as `T`; nil when empty.
    public func typedObject<T: ManagedObject>(forKey key: String, as type: T.Type = T.self) -> T? {
        (try? object(forKey: key)) as? T
    }

    /// Sets to-one relationship `key`; the inverse follows.
    public func setTypedObject(_ destination: ManagedObject?, forKey key: String) {
        do { try setObject(destination, forKey: key) } catch { keepForSave(error) }
    }

    /// The destinations of to-many relationship `key` that are `T`s, in
    /// order.
    public func typedObjects<T: ManagedObject>(forKey key: String, as type: T.Type = T.self) -> [T]
    {
        guard let objects = try? objects(forKey: key) else { return [] }
        return objects.compactMap { $0 as? T }
    }

    /// Adds `destination` to to-many relationship `key`.
    public func addTypedObject(_ destination: ManagedObject, toKey key: String) {
        do { try add(destination, to: key) } catch { keepForSave(error) }
    }

    /// Removes `destination` from to-many relationship `key`.
    public func removeTypedObject(_ destination: ManagedObject, fromKey key: String) {
        do { try remove(destination, from: key) } catch { keepForSave(error) }
    }

    /// Inserts `destination` into ordered relationship `key` at `position`.
    public func insertTypedObject(
        _ destination: ManagedObject, intoKey key: String, at position: Int
    ) {
        do { try insert(destination, into: key, at: position) } catch { keepForSave(error) }
    }

    /// Keeps a setter's error for the context's next save.
    @usableFromInline
    func keepForSave(_ error: any Error) {
        context?.deferError(error)
    }
}
