/// The one weak reference from a context's objects back to the context.
///
/// Every object holds this link strongly; only the link holds the context
/// weakly. A weak reference of its own in each object would give every
/// object a side table — a cost bulk imports pay a million times.
final class ContextLink {
    /// The context, while it exists; set once the context is made.
    weak var context: Context?
    /// Whether the context still exists: cleared by its `deinit`. Read
    /// instead of ``context`` where only that matters, since loading a weak
    /// reference retains the context and releasing it goes through its side
    /// table (setting each value of a new object paid both).
    var isAlive = true
    /// Whether a save of the context is in progress (its journal is open), so
    /// that changes made meanwhile must be journaled.
    var isSaving = false
}
