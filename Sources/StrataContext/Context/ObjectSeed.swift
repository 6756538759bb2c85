import StrataStore

/// What a new ``ManagedObject`` is made from. Only a ``Context`` makes seeds:
/// objects (of generated classes too) come from the context, never from
/// user code directly.
public struct ObjectSeed {
    let id: ObjectID
    let description: EntityDescription
    let link: ContextLink
    /// Whether the object is new: it starts from its entity's
    /// ``EntityDescription/insertionState()``; otherwise its maker sets its
    /// state at once (``EntityDescription/makeObject(id:link:state:)``).
    /// The seed holds no state itself: it is passed and copied at each step
    /// of making an object of a generated class, and a state is large.
    let isNew: Bool
    /// False for an object that could not be inserted (see
    /// `Context.typedInsertionSeed(for:)`): it belongs to no context.
    var isRegistered = true
}
