import StrataStore

/// The ids of objects inserted, updated and deleted: what notifications carry
/// and what ``Context/merge(changes:)`` applies.
public struct ChangeSet: Hashable, Sendable {
    /// Objects inserted.
    public var inserted: Set<ObjectID> = []
    /// Objects updated.
    public var updated: Set<ObjectID> = []
    /// Objects deleted.
    public var deleted: Set<ObjectID> = []

    /// An empty change set.
    public init() {}

    /// Whether no object is mentioned.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// The moments a context tells its observers about.
public enum ContextEvent: Hashable, Sendable {
    /// Objects changed in memory (posted when pending changes are processed:
    /// by ``Context/processPendingChanges()`` and at the start of a save).
    case objectsDidChange
    /// A save is about to validate and write; carries what it will write.
    case willSave
    /// A save committed; carries the permanent ids of what it wrote.
    case didSave
}

/// Identifies an observer, to remove it with ``Context/removeObserver(_:)``.
public struct ObserverToken: Hashable, Sendable {
    let value: Int
}

/// What a save does when a row it would overwrite was changed (or deleted)
/// by another writer since this context read it.
public enum MergePolicy: Hashable, Sendable {
    /// Fail with a `conflict` error listing the objects; nothing is written.
    case error
    /// The store's version wins: this context's changes to those objects are
    /// dropped and the objects refreshed; the rest of the save goes ahead.
    case storeWins
    /// This context's version wins: its values overwrite the store's.
    case contextWins
}
