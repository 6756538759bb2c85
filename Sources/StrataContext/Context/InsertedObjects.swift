import StrataStore

/// The objects inserted since the last save, in the order they were made.
///
/// Temporary keys are handed out consecutively (-1, -2, …), so an object is
/// found by position rather than by hashing its id — bulk inserts look
/// objects up millions of times. An object deleted before it was ever saved
/// stays in the list with `isInserted` false and is skipped.
struct InsertedObjects {
    /// Every object inserted in this batch, live or not, in order.
    private(set) var order: [ManagedObject] = []
    /// How many temporary keys earlier batches used.
    private var base: Int64 = 0

    /// The live inserted object with temporary id `id`, if any.
    subscript(id: ObjectID) -> ManagedObject? {
        let position = -id.key - 1 - base
        guard position >= 0, position < Int64(order.count) else { return nil }
        let object = order[Int(position)]
        return object.isInserted && object.objectID == id ? object : nil
    }

    /// Adds an object whose temporary key is the next one.
    package mutating func append(_ object: ManagedObject) {
        order.append(object)
    }

    /// The live inserted objects, in insertion order.
    var values: [ManagedObject] {
        // Usually none was deleted: share the list rather than copy it.
        order.allSatisfy(\.isInserted) ? order : order.filter(\.isInserted)
    }

    /// Their ids.
    var keys: [ObjectID] { values.map(\.objectID) }

    /// Whether no object is inserted.
    var isEmpty: Bool { !order.contains(where: \.isInserted) }

    /// Starts a new batch after a save or rollback; `usedKeys` is how many
    /// temporary keys the context has handed out so far.
    package mutating func removeAll(usedKeys: Int64) {
        order = []
        base = usedKeys
    }
}
