import Foundation
import StrataQuery
import StrataSchema
import StrataStore

// MARK: - Evaluating predicates on managed objects

extension ManagedObject: PredicateSubject {
    /// The object's id, compared with object arguments of a predicate.
    public var predicateObjectID: ObjectID? { objectID }

    /// Whether `key` is an attribute, a to-one or a to-many relationship of
    /// the entity (inherited properties included).
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) for any other key.
    public func predicateKeyKind(forKey key: String) throws -> PredicateKeyKind {
        if description_.attributeIndex[key] != nil { return .attribute }
        if let index = description_.relationshipIndex[key] {
            return description_.relationships[index].isToMany ? .toMany : .toOne
        }
        throw ContextError(.unknownProperty, "\(entityName) has no property '\(key)'")
    }

    /// The value of attribute `key` as a predicate compares it.
    public func predicateValue(forKey key: String) throws -> PredicateValue? {
        try value(forKey: key).map(PredicateValue.init)
    }

    /// The destination of to-one relationship `key`.
    public func predicateTarget(forKey key: String) throws -> (any PredicateSubject)? {
        try object(forKey: key)
    }

    /// The destinations of to-many relationship `key`.
    public func predicateTargets(forKey key: String) throws -> [any PredicateSubject] {
        try objects(forKey: key)
    }
}

extension PredicateValue {
    /// The predicate value of an attribute value: numbers, booleans, dates,
    /// strings, bytes and UUIDs keep their kind.
    public init(_ value: AttributeValue) {
        switch value {
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .string(let string): self = .string(string)
        case .boolean(let boolean): self = .boolean(boolean)
        case .date(let seconds): self = .date(seconds)
        case .data(let data): self = .data(data)
        case .uuid(let uuid): self = .uuid(uuid)
        }
    }
}

extension PredicateArgument {
    /// A managed object as a `%@` argument (its object id).
    public static func object(_ object: ManagedObject) -> PredicateArgument {
        .value(.object(object.objectID))
    }
}

extension PredicateArgumentConvertible where Self == PredicateArgument {
    /// A managed object as a `%@` argument (its object id).
    public static func object(_ object: ManagedObject) -> PredicateArgument {
        .value(.object(object.objectID))
    }
}

extension ManagedObject: PredicateArgumentConvertible {
    /// The object as a `%@` argument (its object id):
    /// `findFirst("Medium", where: "diaryEntry == %@", entry)`.
    public var predicateArgument: PredicateArgument { .value(.object(objectID)) }
}
