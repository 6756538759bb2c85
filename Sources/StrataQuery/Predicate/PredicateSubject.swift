import StrataStore

/// What a key names on a ``PredicateSubject``: a value, one object or many.
public enum PredicateKeyKind: Hashable, Sendable {
    /// An attribute: ``PredicateSubject/predicateValue(forKey:)``.
    case attribute
    /// A to-one relationship: ``PredicateSubject/predicateTarget(forKey:)``.
    case toOne
    /// A to-many relationship: ``PredicateSubject/predicateTargets(forKey:)``.
    case toMany
}

/// An object a predicate can be evaluated on in memory: managed objects
/// conform (in the context layer), and so can any value that exposes its
/// properties by key.
///
/// ```swift
/// let matches = try predicate.evaluate(with: entry)
/// ```
///
/// Key paths are followed one key at a time: ``predicateKeyKind(forKey:)``
/// says how to read each key, so the evaluator needs no model.
public protocol PredicateSubject {
    /// The object's identity, compared with object arguments (`%@` with an
    /// object id) and used for to-many membership; nil when it has none.
    var predicateObjectID: ObjectID? { get }

    /// What `key` names on this object.
    ///
    /// - Throws: any error when the object has no property `key`.
    func predicateKeyKind(forKey key: String) throws -> PredicateKeyKind

    /// The value of attribute `key`, nil when it has none.
    func predicateValue(forKey key: String) throws -> PredicateValue?

    /// The destination of to-one relationship `key`, nil when it has none.
    func predicateTarget(forKey key: String) throws -> (any PredicateSubject)?

    /// The destinations of to-many relationship `key`.
    func predicateTargets(forKey key: String) throws -> [any PredicateSubject]
}
