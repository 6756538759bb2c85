import Foundation

/// One object of any entity of the schema, owned by a ``Context``.
///
/// The schema is data, so properties are reached by key. Getters return nil
/// for "no value"; setters refuse a value of the wrong type and unknown keys.
/// Setting one side of a relationship updates the inverse at once.
///
/// ```swift
/// let entry = try context.insert("DiaryEntry")
/// try entry.setValue(.string("Walk by the river"), forKey: "text")
/// let photo = try context.insert("Medium")
/// try entry.add(photo, to: "media")        // photo's diaryEntry is now entry
/// ```
///
/// Classes generated from a schema (`strata schema swift`, the
/// `StrataModelPlugin`) subclass it: a context that knows them hands out
/// their instances (see ``TypedEntity``). Nothing else should subclass it.
open class ManagedObject {
    /// The object's id; temporary until the first save.
    public internal(set) var objectID: ObjectID {
        get { storedObjectID }
        set { storedObjectID = newValue }
    }
    /// The context that owns the object; nil once the context is gone.
    public var context: Context? { link.context }
    private let link: ContextLink
    let description_: EntityDescription
    var state: ObjectState
    /// The state as last saved or fetched, captured just before the first
    /// change after that (so unchanged objects keep no second copy); nil
    /// while unchanged and for inserted objects. Rollback restores it.
    var committed: ObjectState?
    /// Whether the object was inserted and not yet saved.
    public internal(set) var isInserted: Bool {
        get { storedIsInserted }
        set { storedIsInserted = newValue }
    }
    /// Whether the object is deleted and the delete not yet saved.
    public internal(set) var isDeleted: Bool {
        get { storedIsDeleted }
        set { storedIsDeleted = newValue }
    }
    // The public properties above are computed over internal storage: a
    // public stored property may be accessed from other modules, so every
    // access to it pays a run-time exclusivity check (a fetch reads these
    // several times per object); internal ones are proven safe at compile
    // time.
    private var storedObjectID: ObjectID
    private var storedIsInserted = false
    private var storedIsDeleted = false
    /// Whether the context still knows the object (false after `reset()`).
    var isRegistered = true
    /// The primary key a save in progress gave this inserted object.
    var savingKey: Int64 = 0

    /// An object as its context makes it; only a context can make a seed.
    /// Required so that the context can make instances of generated
    /// subclasses, which inherit it.
    public required init(_ seed: ObjectSeed) {
        self.storedObjectID = seed.id
        self.description_ = seed.description
        self.link = seed.link
        self.state = seed.state
        self.isRegistered = seed.isRegistered
    }

    /// The entity's name.
    public var entityName: String { description_.name }

    /// Whether the object has unsaved changes (inserted, deleted or updated).
    public var hasChanges: Bool { isInserted || isDeleted || state.hasChanges }

    /// The object id URI, `x-coredata://<store UUID>/<Entity>/p<pk>`.
    public var uri: String {
        objectID.uri(storeUUID: context?.store.metadata.uuid ?? "")
    }

    // MARK: - Attributes

    /// The value of attribute `key`, nil when it has none.
    ///
    /// - Throws: ``ContextError`` when the entity has no attribute `key`.
    public func value(forKey key: String) throws -> AttributeValue? {
        state.values[try description_.attribute(key)]
    }

    /// Sets attribute `key`; nil removes the value.
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`, `wrongType`) when the
    ///   key is unknown or the value does not fit the attribute's type
    ///   (including an integer outside integer16/32's range); the object is
    ///   unchanged then.
    public func setValue(_ value: AttributeValue?, forKey key: String) throws {
        let index = try description_.attribute(key)
        let checked = try value.map { try coerce($0, attribute: index) }
        // One load of the weak context reference; `isRegistered` says whether
        // that context still knows this object (Context.check, inlined).
        guard let context, isRegistered else {
            throw ContextError(
                .foreignObject, "\(objectID) no longer belongs to a context", objects: [objectID])
        }
        context.journal(self)
        guard state.values[index] != checked else { return }
        state.values[index] = checked
        // An inserted object writes all its values; only saved ones need to
        // remember which changed.
        if !isInserted { state.changedAttributes.insert(index) }
        context.didChange(self)
    }

    /// The string value of `key`, nil when unset or not a string.
    public func string(_ key: String) throws -> String? {
        if case .string(let value)? = try value(forKey: key) { return value }
        return nil
    }

    /// The integer value of `key`, nil when unset or not an integer.
    public func integer(_ key: String) throws -> Int64? {
        if case .integer(let value)? = try value(forKey: key) { return value }
        return nil
    }

    /// The number value of `key` (double, float, decimal or integer).
    public func double(_ key: String) throws -> Double? {
        switch try value(forKey: key) {
        case .real(let value)?: value
        case .integer(let value)?: Double(value)
        default: nil
        }
    }

    /// The boolean value of `key`, nil when unset.
    public func bool(_ key: String) throws -> Bool? {
        if case .boolean(let value)? = try value(forKey: key) { return value }
        return nil
    }

    /// The date value of `key`, nil when unset.
    public func date(_ key: String) throws -> Date? {
        if case .date(let seconds)? = try value(forKey: key) {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return nil
    }

    /// The bytes of `key` (binary or transformable), nil when unset.
    public func data(_ key: String) throws -> Data? {
        if case .data(let value)? = try value(forKey: key) { return value }
        return nil
    }

    /// Sets a string attribute.
    public func set(_ key: String, _ value: String?) throws {
        try setValue(value.map { .string($0) }, forKey: key)
    }

    /// Sets an integer attribute.
    public func set(_ key: String, _ value: Int64?) throws {
        try setValue(value.map { .integer($0) }, forKey: key)
    }

    /// Sets a date attribute.
    public func set(_ key: String, _ value: Date?) throws {
        try setValue(value.map { .date($0.timeIntervalSinceReferenceDate) }, forKey: key)
    }

    // MARK: - Type checks

    /// `value` as the attribute stores it, or a `wrongType` error.
    private func coerce(_ value: AttributeValue, attribute index: Int) throws -> AttributeValue {
        let type = description_.attributeTypes[index]
        func wrong() -> ContextError {
            let name = description_.attributes[index].name
            return ContextError(
                .wrongType,
                "\(entityName).\(name) is \(type.rawValue); \(value.typeName) does not fit")
        }
        switch (type, value) {
        case (.integer16, .integer(let number)):
            guard Int16(exactly: number) != nil else { throw wrong() }
            return value
        case (.integer32, .integer(let number)):
            guard Int32(exactly: number) != nil else { throw wrong() }
            return value
        case (.integer64, .integer): return value
        case (.double, .real), (.float, .real), (.decimal, .real): return value
        case (.double, .integer(let number)), (.float, .integer(let number)),
            (.decimal, .integer(let number)):
            return .real(Double(number))
        case (.string, .string), (.uri, .string): return value
        case (.boolean, .boolean): return value
        case (.date, .date): return value
        case (.binary, .data), (.transformable, .data): return value
        case (.uuid, .uuid): return value
        default: throw wrong()
        }
    }
}

extension AttributeValue {
    /// The value's kind, for messages.
    var typeName: String {
        switch self {
        case .integer: "an integer"
        case .real: "a number"
        case .string: "a string"
        case .boolean: "a boolean"
        case .date: "a date"
        case .data: "bytes"
        case .uuid: "a UUID"
        }
    }
}
