import StrataStore

/// What a new ``ManagedObject`` is made from. Only a ``Context`` makes seeds:
/// objects (of generated classes too) come from the context, never from
/// user code directly.
public struct ObjectSeed {
    let id: ObjectID
    let description: EntityDescription
    let link: ContextLink
    let state: ObjectState
    /// False for an object that could not be inserted (see
    /// `Context.typedInsertionSeed(for:)`): it belongs to no context.
    var isRegistered = true
}
