import Foundation
import StrataSchema
import StrataStore

/// One object of any entity of the schema, owned by a ``Context``.
///
/// The schema is data, so properties are reached by key, with plain Swift
/// values (see the table in <doc:ObjectContext>). Getters return nil for
/// "no value" and throw for a type the attribute does not have; setters
/// refuse a value of the wrong type and unknown keys. Setting one side of a
/// relationship updates the inverse at once.
///
/// ```swift
/// let entry = try context.insert("DiaryEntry")
/// try entry.set("title", "Walk by the river")
/// try entry.set("wordCount", 4)
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
    // The object's hot stored properties opt out of run-time exclusivity
    // checks: objects are used from their context's thread only and no
    // access to them is ever nested in another, yet the checks cost a bulk
    // import about a tenth of its time (each set value, validation, row
    // written, key given and saved object paid them).
    @exclusivity(unchecked) var state: ObjectState
    /// The state as last saved or fetched, captured just before the first
    /// change after that (so unchanged objects keep no second copy); nil
    /// while unchanged and for inserted objects. Rollback restores it.
    final var committed: ObjectState? {
        get { committedBox?.state }
        set { committedBox = newValue.map(CommittedState.init) }
    }
    /// Whether ``committed`` is set, without copying it.
    final var hasCommitted: Bool { committedBox != nil }
    /// Where ``committed`` lives: boxed, since only changed saved objects
    /// have one, and inline it made every object (every insert, every row
    /// fetched) about 150 bytes larger to allocate, copy and destroy.
    private var committedBox: CommittedState?
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
    @exclusivity(unchecked) private var storedObjectID: ObjectID
    @exclusivity(unchecked) private var storedIsInserted = false
    @exclusivity(unchecked) private var storedIsDeleted = false
    /// Whether the context still knows the object (false after `reset()`).
    @exclusivity(unchecked) var isRegistered = true
    /// The primary key a save in progress gave this inserted object.
    @exclusivity(unchecked) var savingKey: Int64 = 0

    /// An object as its context makes it; only a context can make a seed.
    /// Required so that the context can make instances of generated
    /// subclasses, which inherit it.
    public required init(_ seed: ObjectSeed) {
        self.storedObjectID = seed.id
        self.description_ = seed.description
        self.link = seed.link
        self.state = seed.isNew ? seed.description.insertionState() : .unset
        self.isRegistered = seed.isRegistered
    }

    /// An object of `description` with `state`, as the context makes one
    /// when the entity has no generated class: an insert with the entity's
    /// insertion state, a fetch with the state read from the row. No seed
    /// is made and taken apart, and the state moves in rather than an
    /// empty one being made, replaced and destroyed.
    @inline(__always)  // Once per object inserted or row fetched.
    init(
        _ description: EntityDescription, id: ObjectID, link: ContextLink,
        state: consuming ObjectState
    ) {
        self.storedObjectID = id
        self.description_ = description
        self.link = link
        self.state = state
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

    /// Sets attribute `key` to a value as the store holds it; nil removes
    /// the value. (`set(_:_:)` takes plain Swift values.)
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`, `wrongType`) when the
    ///   key is unknown or the value does not fit the attribute's type
    ///   (including an integer outside integer16/32's range); the object is
    ///   unchanged then.
    public func setValue(_ value: AttributeValue?, forKey key: String) throws {
        let index = try description_.attribute(key)
        guard let value else { return try assign(nil, at: index) }
        // The usual case, text for a string attribute, stored as it is given.
        if description_.attributeTypes[index] == .string, case .string = value {
            return try assign(value, at: index)
        }
        try assign(try coerce(value, attribute: index, from: nil), at: index)
    }

    /// Stores a checked value at attribute `index`.
    @inline(__always)
    private func assign(_ checked: AttributeValue?, at index: Int) throws {
        // The bulk-insert path: an inserted object of a live context outside
        // a save has nothing to journal or mark (it writes all its values),
        // so the context itself need not be loaded.
        if isInserted, isRegistered, link.isAlive, !link.isSaving {
            state.values[index] = checked
            return
        }
        try assignTracked(checked, at: index)
    }

    /// ``assign(_:at:)`` for every other object: checked to belong to a
    /// context, journaled, marked changed.
    private func assignTracked(_ checked: AttributeValue?, at index: Int) throws {
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

    /// Sets attribute `key` to a plain Swift value, or removes its value
    /// when `value` is nil.
    ///
    /// ```swift
    /// try entry.set("title", "Paris")
    /// try entry.set("wordCount", 3)
    /// try entry.set("creationTime", Date())
    /// ```
    ///
    /// - Throws: ``ContextError`` `unknownProperty` for a key that is not an
    ///   attribute; `wrongType` naming `Entity.attribute`, its type and the
    ///   Swift type when the value does not fit (a `String` into an integer,
    ///   an `Int` beyond integer16's range); the object is unchanged then.
    public func set<Value: AttributeValueConvertible>(_ key: String, _ value: Value?) throws {
        let index = try description_.attribute(key)
        let swiftType = String(describing: Value.self)
        try assign(
            value.map { try coerce($0.attributeValue, attribute: index, from: swiftType) },
            at: index)
    }

    /// Sets to-one relationship `key` (the inverse follows at once); with
    /// nil, empties the relationship, or removes the value of attribute
    /// `key`, so `set("subtitle", nil)` and `set("diaryEntry", nil)` both
    /// work.
    ///
    /// - Throws: ``ContextError`` `unknownProperty`, or `wrongPropertyKind`
    ///   for an object given to an attribute or a to-many relationship (use
    ///   ``add(_:to:)`` for those).
    public func set(_ key: String, _ object: ManagedObject?) throws {
        if let index = description_.attributeIndex[key] {
            guard object == nil else {
                throw ContextError(
                    .wrongPropertyKind,
                    "\(entityName).\(key) is an attribute "
                        + "(\(description_.attributeTypes[index].rawValue)); an object does not fit"
                )
            }
            try assign(nil, at: index)
            return
        }
        try setObject(object, forKey: key)
    }

    /// The value of attribute `key` as `type`; nil when it has no value.
    ///
    /// ```swift
    /// let words = try entry.get("wordCount", as: Int.self)
    /// let title: String? = try entry.get("title")
    /// ```
    ///
    /// - Throws: ``ContextError`` `unknownProperty`, or `wrongType` naming
    ///   `Entity.attribute`, its type and `type` when the attribute does not
    ///   read as `type` (an integer read as `String`, say, or a stored value
    ///   beyond `Int16`'s range read as `Int16`).
    public func get<Value: AttributeValueConvertible>(
        _ key: String, as type: Value.Type = Value.self
    ) throws -> Value? {
        let index = try description_.attribute(key)
        let declared = description_.attributeTypes[index]
        guard Value.canRead(declared) else {
            throw ContextError(
                .wrongType,
                "\(entityName).\(key) is \(declared.rawValue); it does not read as \(Value.self)")
        }
        guard let stored = state.values[index] else { return nil }
        guard let value = Value(attributeValue: stored) else {
            throw ContextError(
                .wrongType,
                "\(entityName).\(key) is \(declared.rawValue); its value does not fit \(Value.self)"
            )
        }
        return value
    }

    /// The string value of `key` (a string or URI attribute), nil when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not a string
    ///   or URI attribute.
    public func string(_ key: String) throws -> String? {
        try get(key, as: String.self)
    }

    /// The integer value of `key`, nil when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not an integer
    ///   attribute.
    public func integer(_ key: String) throws -> Int64? {
        try get(key, as: Int64.self)
    }

    /// The number value of `key` (double, float, decimal or integer), nil
    /// when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not a number.
    public func double(_ key: String) throws -> Double? {
        try get(key, as: Double.self)
    }

    /// The boolean value of `key`, nil when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not a boolean.
    public func bool(_ key: String) throws -> Bool? {
        try get(key, as: Bool.self)
    }

    /// The date value of `key`, nil when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not a date.
    public func date(_ key: String) throws -> Date? {
        try get(key, as: Date.self)
    }

    /// The bytes of `key` (binary or transformable), nil when unset.
    ///
    /// - Throws: ``ContextError`` (`wrongType`) when `key` is not binary or
    ///   transformable.
    public func data(_ key: String) throws -> Data? {
        try get(key, as: Data.self)
    }

    // MARK: - Type checks

    /// `value` as the attribute stores it, or a `wrongType` error naming
    /// the attribute, its type and `swiftType` (the Swift type the value
    /// came from) or the value's kind.
    private func coerce(_ value: AttributeValue, attribute index: Int, from swiftType: String?)
        throws -> AttributeValue
    {
        let type = description_.attributeTypes[index]
        // The usual case, text for a string attribute, decided first.
        if type == .string, case .string = value { return value }
        func wrong() -> ContextError {
            let given = swiftType.map { "a value of type \($0)" } ?? value.typeName
            return ContextError(
                .wrongType,
                "\(entityName).\(description_.attributeNames[index]) is \(type.rawValue); "
                    + "\(given) does not fit")
        }
        func outOfRange(_ number: Int64, _ range: String) -> ContextError {
            ContextError(
                .wrongType,
                "\(entityName).\(description_.attributeNames[index]) is \(type.rawValue); "
                    + "the \(swiftType ?? "integer") \(number) is outside its range \(range)")
        }
        switch value.fitting(type) {
        case .fits(let fitted): return fitted
        case .outOfRange(let range):
            guard case .integer(let number) = value else { throw wrong() }
            throw outOfRange(number, range)
        case .wrongType: throw wrong()
        }
    }
}

/// A saved object's state before its first change (``ManagedObject/committed``).
final class CommittedState {
    let state: ObjectState

    init(_ state: ObjectState) { self.state = state }
}
