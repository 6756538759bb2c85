/// An attribute of an entity: a named, typed value with its validation rules.
///
/// Mirrors `NSAttributeDescription`; every field has one meaning in Core Data
/// terms (see DESIGN.md, "Schema format").
public struct Attribute: Hashable, Sendable {
    /// The attribute's name, unique among the entity's properties.
    public var name: String
    /// The attribute's type.
    public var type: AttributeType
    /// Whether the attribute may be nil. Defaults to `false`, as in Core Data.
    public var isOptional: Bool = false
    /// Whether the attribute is kept in memory only (no column, not hashed).
    public var isTransient: Bool = false
    /// Core Data's version hash modifier, which changes the hash on purpose.
    public var versionHashModifier: String?
    /// This attribute's name in the previous version, when it was renamed
    /// (Strata's explicit form of a rename; see ``renamingIdentifier``).
    public var renamedFrom: String?
    /// Core Data's renaming identifier (Xcode's `elementID`): a label that
    /// pairs this attribute with the attribute of another version carrying
    /// the same identifier; nil means the attribute's name. Not hashed.
    public var renamingIdentifier: String?
    /// The value given to new objects.
    public var defaultValue: AttributeDefault?
    /// Whether the column gets an index.
    public var isIndexed: Bool = false
    /// The smallest allowed value (numbers; dates as seconds since 2001).
    public var minValue: Double?
    /// The largest allowed value (numbers; dates as seconds since 2001).
    public var maxValue: Double?
    /// The shortest allowed string, in characters.
    public var minLength: Int?
    /// The longest allowed string, in characters.
    public var maxLength: Int?
    /// A regular expression the whole string must match.
    public var pattern: String?
    /// Core Data's `allowsExternalBinaryDataStorage` (binary attributes).
    public var allowsExternalStorage: Bool = false
    /// Core Data's `preservesValueInHistoryOnDeletion`.
    public var preservesValueOnDeletion: Bool = false
    /// The name of the value transformer (transformable attributes).
    public var valueTransformer: String?
    /// Set to the current date on every save of a changed object (dates only).
    public var touchesOnSave: Bool = false
    /// Whether the bytes are a media file, exported to a bundle's media folder.
    public var isMedia: Bool = false
    /// Other names this attribute answers to in imported files.
    public var importKeys: [String] = []
    /// The date format used to parse imported text (dates only).
    public var dateFormat: String?
    /// What the element means, for people: generated classes carry it as
    /// their documentation. Not hashed.
    public var comment: String?
    /// Free-form keys and values for the app (Core Data's `userInfo`). Not
    /// hashed.
    public var userInfo: [String: String] = [:]

    /// Creates an attribute with the given name and type; every other field
    /// takes Core Data's default.
    public init(name: String, type: AttributeType) {
        self.name = name
        self.type = type
    }
}
