/// The one weak reference from a context's objects back to the context.
///
/// Every object holds this link strongly; only the link holds the context
/// weakly. A weak reference of its own in each object would give every
/// object a side table — a cost bulk imports pay a million times.
final class ContextLink {
    /// The context, while it exists; set once the context is made.
    weak var context: Context?
}
